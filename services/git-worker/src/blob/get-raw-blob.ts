import type { BlobServiceHandlers } from '@hub/protos';
import { projectIdOf, streaming, type WorkerDeps } from '../rpc';
import { findRawBlob } from './find-blob';
import { streamBlob } from './stream-blob';

/** A blob by its object id. */
export const GetRawBlob = (deps: WorkerDeps): BlobServiceHandlers['GetRawBlob'] =>
  streaming('GetRawBlob', deps, async (request, call) => streamBlob(await findRawBlob(deps, projectIdOf(request), request.oid), call));
