import type { ServerWritableStream } from '@grpc/grpc-js';
import type { BlobMessage } from '@hub/protos';
import type { ObjectInfo, ObjectReader } from '../git/object-reader';
import { spawnGit } from '../git/run';
import { CHUNK_SIZE, pipeToCall } from '../git/stream';

/** How many leading bytes decide whether a blob is text (git's own heuristic looks at 8000). */
const SNIFF = 8000;
/** Blobs up to this size come from the warm reader; larger ones stream from their own process. */
const READER_LIMIT = 1024 * 1024;

const isText = (head: Buffer) => !head.subarray(0, SNIFF).includes(0);

/** Sends a blob: its metadata first, then its bytes in chunks with backpressure. */
export async function streamBlob(repo: string, reader: ObjectReader, info: ObjectInfo, call: ServerWritableStream<unknown, BlobMessage>, commitId = ''): Promise<void> {
  if (info.size <= READER_LIMIT) {
    const blob = await reader.contents(info.oid);
    const data = blob?.data ?? Buffer.alloc(0);
    call.write({ info: { oid: info.oid, size: info.size, text: isText(data), commitId } });
    for (let at = 0; at < data.length; at += CHUNK_SIZE) {
      if (call.cancelled) return;
      if (!call.write({ data: data.subarray(at, at + CHUNK_SIZE) })) {
        // Resumes when the client catches up, or stops when it goes away.
        await new Promise((resolve) => {
          call.once('drain', resolve);
          call.once('cancelled', resolve);
        });
      }
    }
    return;
  }
  // A large blob: the first chunk decides text or binary, then everything streams through.
  let sentInfo = false;
  await pipeToCall(spawnGit(repo, ['cat-file', 'blob', info.oid]), call, (data) => {
    if (!sentInfo) {
      sentInfo = true;
      call.write({ info: { oid: info.oid, size: info.size, text: isText(data), commitId } });
    }
    return { data };
  });
}
