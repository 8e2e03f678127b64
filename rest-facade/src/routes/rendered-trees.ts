import { IdentifiedTreeAtRefDocument, type TreeAtRefQueryVariables } from '../generated/operations';
import type { RenderedEntities } from '../entities/rendered';
import type { GatewayCall } from '../gateway-client';

/** A path that names no folder lists nothing (the repository subgraph's tree answers the same). */
const NO_FOLDER = '[]';

/**
 * A folder at a ref, as v3 JSON text. A tree object never changes, so what this replica rendered
 * of a folder is kept under the id of the tree it was read from, and the gateway is told that id:
 * while the ref still names that tree the answer is the id alone, found without reading the
 * folder, and the rendering is reused. What the ref names, and the caller's access, are asked on
 * every request, in one query; a folder not rendered yet (or changed) comes whole in the same
 * answer. A root of 300 entries is resolved, shaped and serialized by three processes when asked
 * whole; its id is one string.
 */
export async function renderedTree(
  gateway: GatewayCall,
  rendered: RenderedEntities,
  variables: TreeAtRefQueryVariables,
): Promise<string> {
  const key = `tree ${variables.projectId} ${variables.ref}\n${variables.path ?? ''}`;
  const ask = async (unlessId: string | null) =>
    (await gateway(IdentifiedTreeAtRefDocument, { ...variables, unlessId })).repositoryReads.identifiedTree;
  let { id, entries } = await ask(rendered.revisionOf(key) ?? null);
  if (id === null) return NO_FOLDER;
  if (entries === null) {
    const json = rendered.get(key, id);
    if (json !== undefined) return json;
    // Evicted while the question was out: asked whole.
    ({ id, entries } = await ask(null));
    if (id === null || entries === null) return NO_FOLDER;
  }
  return rendered.put(key, id, JSON.stringify(entries));
}
