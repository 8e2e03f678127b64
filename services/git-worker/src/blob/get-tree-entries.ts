import type { BlobServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { parseTree } from '../git/object-reader';
import { existingRepo } from '../git/run';
import { validatePath, validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** The entries of one folder, read as a tree object from the warm reader (a path that is not a folder is 404). */
export const GetTreeEntries = (deps: WorkerDeps): BlobServiceHandlers['GetTreeEntries'] =>
  unary('GetTreeEntries', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const ref = validateRef(request.ref, 'ref_name');
    const path = validatePath(request.path);
    const reader = deps.readers.get(repo);
    const commit = await reader.info(`${ref}^{commit}`);
    if (!commit) throw gitError('REF_NOT_FOUND', 'the ref names no commit', 'ref_name');
    const tree = await reader.contents(path === '' ? `${commit.oid}^{tree}` : `${commit.oid}:${path}`);
    if (!tree || tree.type !== 'tree') throw gitError('PATH_NOT_FOUND', 'no tree at this path', 'path');
    return { entries: parseTree(tree.data) };
  });
