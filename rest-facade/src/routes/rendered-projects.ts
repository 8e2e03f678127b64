import {
  ListProjectRevisionsDocument,
  ListProjectsDocument,
  ListProjectsToRenderDocument,
  type ListProjectsQueryVariables,
} from '../generated/operations';
import { presentProject } from '../entities/project';
import type { RenderedEntities } from '../entities/rendered';
import type { GatewayCall } from '../gateway-client';

/** A list page of projects as v3 JSON text, with the list's total. */
interface ProjectPage {
  json: string;
  total: number;
}

/**
 * A list page of projects. The gateway is asked which projects, at which revisions; what this
 * replica rendered at those revisions is reused. When one is missing the page is asked for whole,
 * and each project rendered and kept under the revision the same answer gave it: a rendering is
 * never filed under a revision older than its values. Without `rendered` (RENDERED_CACHE_MIB=0),
 * one query renders the page.
 */
export async function renderedProjectPage(
  gateway: GatewayCall,
  rendered: RenderedEntities | undefined,
  variables: ListProjectsQueryVariables,
): Promise<ProjectPage> {
  if (!rendered) {
    const { projects } = await gateway(ListProjectsDocument, variables);
    return { json: JSON.stringify(projects.nodes.map(presentProject)), total: projects.total };
  }
  const { projects } = await gateway(ListProjectRevisionsDocument, variables);
  const parts: string[] = [];
  for (const { id, revision } of projects.nodes) {
    const json = rendered.get(id, revision);
    if (json === undefined) return renderProjectPage(gateway, rendered, variables);
    parts.push(json);
  }
  return { json: `[${parts.join(',')}]`, total: projects.total };
}

async function renderProjectPage(
  gateway: GatewayCall,
  rendered: RenderedEntities,
  variables: ListProjectsQueryVariables,
): Promise<ProjectPage> {
  const { projects } = await gateway(ListProjectsToRenderDocument, variables);
  const parts = projects.nodes.map((node) =>
    rendered.put(node.id, node.revision, JSON.stringify(presentProject(node))),
  );
  return { json: `[${parts.join(',')}]`, total: projects.total };
}
