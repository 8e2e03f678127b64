import type { ServerWritableStream } from '@grpc/grpc-js';
import type { BlobMessage } from '@hub/protos';
import { gitError } from '../git/errors';
import { runGit, spawnGit } from '../git/run';
import { pipeToCall } from '../git/stream';

/** How many leading bytes decide whether a blob is text (git's own heuristic looks at 8000). */
const SNIFF = 8000;

/** Sends a blob: its metadata first, then its bytes in chunks with backpressure. */
export async function streamBlob(repo: string, oid: string, call: ServerWritableStream<unknown, BlobMessage>, notFound: string): Promise<void> {
  const check = await runGit(repo, ['cat-file', '--batch-check'], { input: `${oid}\n` });
  const [, type, size] = check.stdout.toString('utf8').trim().split(' ');
  if (type !== 'blob') throw gitError('OBJECT_NOT_FOUND', notFound, 'sha');
  const head = await new Promise<Buffer>((resolve, reject) => {
    const child = spawnGit(repo, ['cat-file', 'blob', oid]);
    const parts: Buffer[] = [];
    let length = 0;
    child.stdout.on('data', (d: Buffer) => {
      parts.push(d);
      length += d.length;
      if (length >= SNIFF) child.kill();
    });
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(parts).subarray(0, SNIFF)));
  });
  call.write({ info: { oid, size: Number(size), text: !head.includes(0) } });
  await pipeToCall(spawnGit(repo, ['cat-file', 'blob', oid]), call, (data) => ({ data }));
}
