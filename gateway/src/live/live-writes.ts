import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/**
 * Makes `ws`'s sends cheap for graphql-ws, which awaits each message's write before it takes the
 * subscription's next one. Awaited as ws reports it (once the kernel took the bytes), every message
 * of a subscription cost a turn of the event loop and a writev of its own, and a subscription
 * catching up on a batch of reads sent one message a turn. Here a send is done as soon as `raw` (the
 * socket under `ws`) has room below its high-water mark, and the frames sent within one turn of the
 * loop go out together (`raw` is corked until the turn's end). Past the mark a send is done only at
 * `raw`'s next drain (or close): a client that does not read still stops its subscriptions, whose
 * queues then fill and close the socket as a slow consumer.
 */
export function coalesceWrites(ws: WebSocket, raw: Duplex): void {
  const send = ws.send.bind(ws);
  let corked = false;
  const uncork = () => {
    corked = false;
    raw.uncork();
  };
  ws.send = ((data: Parameters<WebSocket['send']>[0], ...rest: unknown[]) => {
    const cb = rest.find((arg): arg is (error?: Error) => void => typeof arg === 'function');
    const options = rest.find((arg) => typeof arg === 'object' && arg !== null) as Parameters<WebSocket['send']>[1];
    if (!corked && ws.readyState === ws.OPEN) {
      corked = true;
      raw.cork();
      setImmediate(uncork);
    }
    // Without a callback a failed write surfaces as the socket's error and close, as graphql-ws expects.
    if (options) send(data, options);
    else send(data);
    if (!cb) return;
    if (!raw.writableNeedDrain || raw.destroyed) return cb();
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      cb();
    };
    raw.on('drain', done);
    raw.on('close', done);
  }) as WebSocket['send'];
}
