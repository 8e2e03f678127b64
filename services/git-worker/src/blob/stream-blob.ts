import type { ServerWritableStream } from '@grpc/grpc-js';
import type { BlobMessage } from '@hub/protos';
import type { ObjectInfo, ObjectReader } from '../git/object-reader';
import { spawnGit } from '../git/run';
import { pipeToCall } from '../git/stream';

/** How many leading bytes decide whether a blob is text (git's own heuristic looks at 8000). */
const SNIFF = 8000;
/** Blobs up to this size come from the warm reader; larger ones stream from their own process. */
const READER_LIMIT = 1024 * 1024;

const isText = (head: Buffer) => !head.subarray(0, SNIFF).includes(0);

/** The first SNIFF bytes of an object read in parts. */
const headOf = (parts: Buffer[]) => {
  const head: Buffer[] = [];
  for (let length = 0, i = 0; i < parts.length && length < SNIFF; i++) {
    head.push(parts[i]);
    length += parts[i].length;
  }
  return head.length === 1 ? head[0] : Buffer.concat(head);
};

/** Sends a blob: its metadata first, then its bytes in chunks with backpressure. */
export async function streamBlob(repo: string, reader: ObjectReader, info: ObjectInfo, call: ServerWritableStream<unknown, BlobMessage>, commitId = ''): Promise<void> {
  if (info.size <= READER_LIMIT) {
    // Each part is one read of the reader's pipe (at most 64 KiB), sent as it came: no copy here.
    const parts = (await reader.contents(info.oid))?.parts ?? [];
    call.write({ info: { oid: info.oid, size: info.size, text: isText(headOf(parts)), commitId } });
    for (const data of parts) {
      if (call.cancelled) return;
      if (!call.write({ data })) {
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
