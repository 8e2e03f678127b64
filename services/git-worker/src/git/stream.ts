import type { GitProcess } from './run';
import type { ServerWritableStream } from '@grpc/grpc-js';

/**
 * The least a message carries (unless it is the last). git writes in pieces of a few KiB to
 * 64 KiB; every message costs a serialization, a frame, a write and a read at each hop, so with a
 * message per piece the facade spent more CPU on messages than on bytes (an archive of 22 MB:
 * 290 ms of facade CPU at 64 KiB, 50 ms at 256 KiB). Gathering costs one copy. Larger messages
 * save little more and multiply what a call buffers for a slow client (16 messages).
 */
export const MIN_MESSAGE = 256 * 1024;

/** Consecutive pieces gathered into messages of at least `min` bytes (one piece that large goes as it is). */
export function* messagesOf(pieces: Buffer[], min = MIN_MESSAGE): Generator<Buffer> {
  let group: Buffer[] = [];
  let size = 0;
  for (const piece of pieces) {
    group.push(piece);
    size += piece.length;
    if (size >= min) {
      yield group.length === 1 ? group[0] : Buffer.concat(group, size);
      group = [];
      size = 0;
    }
  }
  if (size) yield group.length === 1 ? group[0] : Buffer.concat(group, size);
}

/**
 * Pipes a git process's stdout into a gRPC stream, pausing git while the client is slow
 * ('drain'), so a multi-gigabyte archive or blob never sits in memory. Small pieces are gathered
 * into one message of at least MIN_MESSAGE bytes (one copy); a piece that large goes as it is
 * (none). Stops git if the client goes away. Resolves when git exits 0.
 */
export function pipeToCall<Req, Res>(
  child: GitProcess,
  call: ServerWritableStream<Req, Res>,
  message: (data: Buffer) => Res,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let parts: Buffer[] = [];
    let size = 0;
    let waiting = false;
    const flush = () => {
      const data = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
      parts = [];
      size = 0;
      if (!call.write(message(data)) && !waiting) {
        waiting = true;
        child.stdout.pause();
        call.once('drain', () => {
          waiting = false;
          child.stdout.resume();
        });
      }
    };
    child.stdout.on('data', (data: Buffer) => {
      parts.push(data);
      size += data.length;
      if (size >= MIN_MESSAGE) flush();
    });
    // Only the start of stderr is kept for the error: enough to say why, never unbounded.
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    call.on('cancelled', () => child.kill('SIGKILL'));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git exited with ${code}: ${stderr.trim()}`));
      if (size) flush();
      resolve();
    });
  });
}
