import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ServerWritableStream } from '@grpc/grpc-js';

/** Bytes per message: large enough to keep overhead low, small enough to never hold much. */
export const CHUNK_SIZE = 128 * 1024;

/**
 * Pipes a git process's stdout into a gRPC stream in CHUNK_SIZE messages, pausing git while the
 * client is slow ('drain'), so a multi-gigabyte archive or blob never sits in memory. Stops git
 * if the client goes away. Resolves when git exits 0.
 */
export function pipeToCall<Req, Res>(
  child: ChildProcessWithoutNullStreams,
  call: ServerWritableStream<Req, Res>,
  message: (data: Buffer) => Res,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let pending: Buffer = Buffer.alloc(0);
    const send = (data: Buffer) => {
      if (!call.write(message(data))) {
        child.stdout.pause();
        call.once('drain', () => child.stdout.resume());
      }
    };
    child.stdout.on('data', (data: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, data]) : data;
      while (pending.length >= CHUNK_SIZE) {
        send(pending.subarray(0, CHUNK_SIZE));
        pending = pending.subarray(CHUNK_SIZE);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    call.on('cancelled', () => child.kill('SIGKILL'));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git exited with ${code}: ${stderr.trim()}`));
      if (pending.length) send(pending);
      resolve();
    });
  });
}
