import type { BlobServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, resolveCommit, runGit } from '../git/run';
import { validatePath, validateRef } from '../git/validate';
import { projectIdOf, streaming, type WorkerDeps } from '../rpc';
import { streamBlob } from './stream-blob';

/** A file at a commit or branch, by path. */
export const GetBlob = (deps: WorkerDeps): BlobServiceHandlers['GetBlob'] =>
  streaming('GetBlob', deps, async (request, call) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const sha = await resolveCommit(repo, validateRef(request.ref, 'sha'));
    const path = validatePath(request.path, 'filepath');
    if (path === '') throw gitError('INVALID_ARGUMENT', 'filepath is invalid', 'filepath');
    const found = await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}:${path}`]);
    const oid = found.stdout.toString('utf8').trim();
    if (found.code !== 0 || !oid) throw gitError('PATH_NOT_FOUND', '404 File Not Found', 'filepath');
    await streamBlob(repo, oid, call, '404 File Not Found');
  });
