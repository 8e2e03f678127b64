import { createInternalRouter, projectsLookup, serveEndpoint, type Logger, type Sql } from '@hub/common';
import type { Router } from 'express';
import type { NamespaceCopyRow } from '../db/namespaces';
import { findProjectsByIds } from '../db/projects';
import { fullPathOf, nameWithNamespaceOf, projectUrlsAt } from '../domain/project-urls';

/** Project summaries for callers outside the graph (hook payloads name the project and its URLs). */
export function createLookupRouter(deps: {
  sql: Sql;
  secret: string;
  logger: Logger;
  externalUrl: string;
  /** The service's namespace copies (filled from identity when missing), for name_with_namespace. */
  namespacesByIds: (ids: readonly number[]) => Promise<Map<number, NamespaceCopyRow>>;
}): Router {
  const router = createInternalRouter(deps.secret);
  const urlsOf = projectUrlsAt(deps.externalUrl);
  serveEndpoint(router, projectsLookup, deps.logger, async ({ ids }) => {
    const rows = ids.length ? await findProjectsByIds(deps.sql, ids) : [];
    const namespaces = rows.length
      ? await deps.namespacesByIds([...new Set(rows.map((p) => p.namespaceId))])
      : new Map<number, NamespaceCopyRow>();
    return {
      projects: rows.map((p) => ({
        id: p.id,
        name: p.name,
        path: p.path,
        pathWithNamespace: fullPathOf(p),
        // GitLab's hook_attrs name the namespace by its name (the username for a personal one).
        namespaceName: p.namespaceName,
        nameWithNamespace: nameWithNamespaceOf(p, namespaces.get(p.namespaceId)),
        description: p.description,
        defaultBranch: p.defaultBranch,
        visibilityLevel: p.visibilityLevel,
        ...urlsOf(p),
        forkedFromProjectId: p.forkedFromProjectId,
        repositoryStorage: p.repositoryStorage,
      })),
    };
  });
  return router;
}
