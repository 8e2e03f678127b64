import {
  IdentifiedTreeAtRefDocument,
  TreeIdAtRefDocument,
  type TreeAtRefQueryVariables,
} from '../generated/operations';
import type { RenderedEntities } from '../entities/rendered';
import type { GatewayCall } from '../gateway-client';

/** A path that names no folder lists nothing (the repository subgraph's tree answers the same). */
const NO_FOLDER = '[]';

/**
 * A folder at a ref, as v3 JSON text. A tree object never changes, so what this replica rendered
 * of a tree's entries is kept under the tree's id (per project: a rendering is reached only
 * through the repository whose reader found that id). The gateway is asked for the folder's tree
 * id first: the ref is resolved, and the caller's access checked, on every request; the entries
 * are asked for, with the id they were read from, only when this replica holds no rendering of
 * that id. A root of 300 entries is resolved, shaped and serialized by three processes when asked
 * whole; its id is one string.
 */
export async function renderedTree(
  gateway: GatewayCall,
  rendered: RenderedEntities,
  variables: TreeAtRefQueryVariables,
): Promise<string> {
  const { treeId } = (await gateway(TreeIdAtRefDocument, variables)).repositoryReads;
  if (treeId === null) return NO_FOLDER;
  const key = `tree ${variables.projectId} ${treeId}`;
  const json = rendered.get(key, treeId);
  if (json !== undefined) return json;
  const { id, entries } = (await gateway(IdentifiedTreeAtRefDocument, variables)).repositoryReads.identifiedTree;
  // The ref may have moved between the two asks: the entries are kept under the id they came with.
  const made = JSON.stringify(entries);
  return id === null ? made : rendered.put(`tree ${variables.projectId} ${id}`, id, made);
}
