import type { BlobServiceHandlers } from '@hub/protos';
import { projectIdOf, streaming, type WorkerDeps } from '../rpc';
import { findBlobAtPath } from './find-blob';
import { streamBlob } from './stream-blob';

/** A file at a commit or branch, by path, then its bytes. */
export const GetBlob = (deps: WorkerDeps): BlobServiceHandlers['GetBlob'] =>
  streaming('GetBlob', deps, async (request, call) =>
    streamBlob(await findBlobAtPath(deps, projectIdOf(request), request.ref, request.path), call, deps.startGit),
  );
