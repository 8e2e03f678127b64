import type { ServerWritableStream } from '@grpc/grpc-js';
import type { BlobMessage } from '@hub/protos';
import type { StartGit } from '../git/run';
import { messagesOf, pipeToCall } from '../git/stream';
import { blobBytes, isText } from './blob-bytes';
import type { FoundBlob } from './find-blob';

/**
 * The least a message of a blob from the warm reader carries. Measured on 1 MiB raw blobs at 16
 * connections (same stack, the worker restarted per setting, two rounds each): 256 KiB messages
 * cost the git worker 8.5-10 ms of CPU per blob and gave 50-53 blobs/s; 32 KiB messages 2.8-3.2 ms
 * and 69-70 blobs/s (64 KiB: 3.3-3.6 ms, 59 blobs/s). With the larger messages the worker spent a
 * quarter of its time in full GCs started by external memory pressure.
 */
const BLOB_MESSAGE = 32 * 1024;

/** Resumes when the client catches up, or when it goes away; either way no listener is left behind. */
const drained = (call: ServerWritableStream<unknown, BlobMessage>) =>
  new Promise<void>((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.once('drain', done);
    call.once('cancelled', done);
  });

/** Sends a blob over a gRPC stream: its metadata first, then its bytes in chunks with backpressure. */
export async function streamBlob(
  found: FoundBlob,
  call: ServerWritableStream<unknown, BlobMessage>,
  start: StartGit,
): Promise<void> {
  const { info, commitId } = found;
  const bytes = await blobBytes(found, start);
  if ('parts' in bytes) {
    call.write({ info: { oid: info.oid, size: info.size, text: bytes.text, commitId } });
    for (const data of messagesOf(bytes.parts, BLOB_MESSAGE)) {
      if (call.cancelled) return;
      if (!call.write({ data })) await drained(call);
    }
    return;
  }
  let sentInfo = false;
  await pipeToCall(bytes.process, call, (data) => {
    if (!sentInfo) {
      sentInfo = true;
      call.write({ info: { oid: info.oid, size: info.size, text: isText(data), commitId } });
    }
    return { data };
  });
}
