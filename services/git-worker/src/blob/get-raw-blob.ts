import type { BlobServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo } from '../git/run';
import { validateOid } from '../git/validate';
import { projectIdOf, streaming, type WorkerDeps } from '../rpc';
import { streamBlob } from './stream-blob';

/** A blob by its object id. */
export const GetRawBlob = (deps: WorkerDeps): BlobServiceHandlers['GetRawBlob'] =>
  streaming('GetRawBlob', deps, async (request, call) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const reader = deps.readers.get(repo);
    const blob = await reader.info(validateOid(request.oid));
    if (!blob || blob.type !== 'blob') throw gitError('OBJECT_NOT_FOUND', 'no blob has this id', 'sha');
    await streamBlob(repo, reader, blob, call);
  });
