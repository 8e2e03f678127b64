import type { BlobServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { parseTree } from '../git/object-reader';
import { existingRepo } from '../git/run';
import { validatePath, validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

type TreeEntry = ReturnType<typeof parseTree>[number];

/** GitLab's Tree#sorted_entries: folders, then files, then submodules. */
const GROUP: Record<string, number> = { tree: 0, blob: 1, commit: 2 };

/**
 * Within a group, by name as git orders a tree (byte order, a folder's name compared with a
 * trailing slash): the order Rugged iterated and GitLab kept, made explicit here rather than left
 * to whatever order the tree object was read in.
 */
const sortKey = (entry: TreeEntry) => Buffer.from(entry.type === 'tree' ? `${entry.name}/` : entry.name, 'utf8');

export const sortTreeEntries = (entries: TreeEntry[]): TreeEntry[] =>
  [...entries].sort((a, b) => (GROUP[a.type] ?? 1) - (GROUP[b.type] ?? 1) || Buffer.compare(sortKey(a), sortKey(b)));

/** The entries of one folder, read as a tree object from the warm reader (a path that is not a folder is 404). */
export const GetTreeEntries = (deps: WorkerDeps): BlobServiceHandlers['GetTreeEntries'] =>
  unary('GetTreeEntries', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const ref = validateRef(request.ref, 'ref_name');
    const path = validatePath(request.path);
    const reader = deps.readers.get(repo);
    const commit = await reader.info(`${ref}^{commit}`);
    if (!commit) throw gitError('REF_NOT_FOUND', 'the ref names no commit', 'ref_name');
    const name = path === '' ? `${commit.oid}^{tree}` : `${commit.oid}:${path}`;
    // A path may name a blob of any size: only a tree's bytes are read.
    const found = path === '' ? null : await reader.info(name);
    if (found && found.type !== 'tree') throw gitError('PATH_NOT_FOUND', 'no tree at this path', 'path');
    const tree = await reader.contents(name);
    if (!tree || tree.type !== 'tree') throw gitError('PATH_NOT_FOUND', 'no tree at this path', 'path');
    return { entries: sortTreeEntries(parseTree(Buffer.concat(tree.parts))) };
  });
