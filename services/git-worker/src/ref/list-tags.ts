import type { Commit, RefServiceHandlers } from '@hub/protos';
import type { ObjectReader } from '../git/object-reader';
import { parseTag, readCommitsFrom, tagMessage } from '../git/objects';
import { existingRepo } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';
import { listRefs } from './list-refs';

/** Tags with their message (annotated ones) and the commit they finally point at, read in the warm reader. */
export async function describeTags(reader: ObjectReader, refs: Array<{ name: string; oid: string }>) {
  const objects = await Promise.all(refs.map((r) => reader.contents(r.oid)));
  const targets = refs.map((ref, i) => {
    const object = objects[i];
    if (object?.type !== 'tag') return { ref, annotated: false, message: '', target: ref.oid };
    const tag = parseTag(Buffer.concat(object.parts));
    return { ref, annotated: true, message: tagMessage(tag), target: tag.object };
  });
  const commits = new Map<string, Commit>(
    (
      await readCommitsFrom(
        reader,
        targets.map((t) => t.target),
      )
    ).map((c) => [c.id, c]),
  );
  return targets.map((t) => ({
    name: t.ref.name,
    message: t.message,
    annotated: t.annotated,
    commit: commits.get(t.target) ?? null,
  }));
}

export const ListTags = (deps: WorkerDeps): RefServiceHandlers['ListTags'] =>
  unary('ListTags', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    return { tags: await describeTags(deps.readers.get(repo), await listRefs(repo, 'refs/tags', deps.startGit)) };
  });
