import type { BlobServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo } from '../git/run';
import { validatePath, validateRef } from '../git/validate';
import { projectIdOf, streaming, type WorkerDeps } from '../rpc';
import { streamBlob } from './stream-blob';

/** A file at a commit or branch, by path: two lookups in the warm reader, then the bytes. */
export const GetBlob = (deps: WorkerDeps): BlobServiceHandlers['GetBlob'] =>
  streaming('GetBlob', deps, async (request, call) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const ref = validateRef(request.ref, 'sha');
    const path = validatePath(request.path, 'filepath');
    if (path === '') throw gitError('INVALID_ARGUMENT', 'filepath is invalid', 'filepath');
    const reader = deps.readers.get(repo);
    const commit = await reader.info(`${ref}^{commit}`);
    if (!commit) throw gitError('REF_NOT_FOUND', 'the ref names no commit', 'sha');
    const blob = await reader.info(`${commit.oid}:${path}`);
    if (!blob || blob.type !== 'blob') throw gitError('PATH_NOT_FOUND', 'no blob at this path', 'filepath');
    await streamBlob(repo, reader, blob, call, commit.oid);
  });
