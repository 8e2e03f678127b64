import { createInternalRouter, projectsLookup, serveEndpoint, type Logger, type Sql } from '@hub/common';
import type { Router } from 'express';
import { findProjectsByIds } from '../db/projects';
import { fullPathOf, nameWithNamespaceOf, projectUrlsAt } from '../domain/project-urls';

/** Project summaries for callers outside the graph (hook payloads name the project and its URLs). */
export function createLookupRouter(deps: { sql: Sql; secret: string; logger: Logger; externalUrl: string }): Router {
  const router = createInternalRouter(deps.secret);
  const urlsOf = projectUrlsAt(deps.externalUrl);
  serveEndpoint(router, projectsLookup, deps.logger, async ({ ids }) => {
    const rows = ids.length ? await findProjectsByIds(deps.sql, ids) : [];
    return {
      projects: rows.map((p) => ({
        id: p.id,
        name: p.name,
        path: p.path,
        pathWithNamespace: fullPathOf(p),
        namespaceName: p.namespaceName,
        nameWithNamespace: nameWithNamespaceOf(p),
        description: p.description,
        defaultBranch: p.defaultBranch,
        visibilityLevel: p.visibilityLevel,
        ...urlsOf(p),
      })),
    };
  });
  return router;
}
