import { ProjectIdDocument } from '../generated/operations';
import type { GatewayCall } from '../gateway-client';
import type { Params } from '../params';
import { v3Error } from '../v3-errors';

export const PROJECT_NOT_FOUND = () => v3Error(404, '404 Project Not Found');

/**
 * `:id` of an "id or path" route: a numeric id, or NAMESPACE/NAME sent with the slash encoded as
 * %2F (express decodes it). Anything else names no project.
 */
export function projectKey(p: Params, name = 'id'): { id: number | null; fullPath: string | null } {
  const raw = p.string(name) ?? '';
  if (/^\d+$/.test(raw)) return { id: p.id(name), fullPath: null };
  if (/^[^/]+\/[^/]+$/.test(raw)) return { id: null, fullPath: raw };
  throw PROJECT_NOT_FOUND();
}

/** The numeric id the mutations take: looked up (with the visibility check) for a path. */
export async function projectIdOf(p: Params, gateway: GatewayCall, name = 'id'): Promise<number> {
  const key = projectKey(p, name);
  if (key.id !== null) return key.id;
  const { project } = await gateway(ProjectIdDocument, { fullPath: key.fullPath! });
  if (!project) throw PROJECT_NOT_FOUND();
  return project.id;
}

/**
 * The repository in a gateway answer of `project { repository { … } }`; no project is 404 Project
 * Not Found. Repository reads that name the project by id ask `repositoryReads` instead: one
 * fetch, the same authorization.
 */
export async function projectRepository<R>(answer: Promise<{ project: { repository: R } | null }>): Promise<R> {
  const { project } = await answer;
  if (!project) throw PROJECT_NOT_FOUND();
  return project.repository;
}
