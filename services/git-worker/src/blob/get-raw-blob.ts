import type { BlobServiceHandlers } from '@hub/protos';
import { existingRepo } from '../git/run';
import { validateOid } from '../git/validate';
import { projectIdOf, streaming, type WorkerDeps } from '../rpc';
import { streamBlob } from './stream-blob';

/** A blob by its object id. */
export const GetRawBlob = (deps: WorkerDeps): BlobServiceHandlers['GetRawBlob'] =>
  streaming('GetRawBlob', deps, async (request, call) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    await streamBlob(repo, validateOid(request.oid), call, '404 Blob Not Found');
  });
