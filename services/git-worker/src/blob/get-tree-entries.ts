import type { BlobServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, resolveCommit, runGit } from '../git/run';
import { validatePath, validateRef } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** The entries of one folder: `git ls-tree -z <commit>:<path>` (a path that is not a folder is 404). */
export const GetTreeEntries = (deps: WorkerDeps): BlobServiceHandlers['GetTreeEntries'] =>
  unary('GetTreeEntries', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const sha = await resolveCommit(repo, validateRef(request.ref, 'ref_name'), '404 Tree Not Found');
    const path = validatePath(request.path);
    const result = await runGit(repo, ['ls-tree', '-z', '--end-of-options', `${sha}:${path}`]);
    if (result.code !== 0) throw gitError('PATH_NOT_FOUND', '404 Tree Not Found', 'path');
    const entries = result.stdout
      .toString('utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const tab = line.indexOf('\t');
        const [mode, type, id] = line.slice(0, tab).split(' ');
        return { mode, type, id, name: line.slice(tab + 1) };
      });
    return { entries };
  });
