import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { coalesceWrites } from './live-writes';

describe('coalesceWrites', () => {
  let http: Server;
  let served: Promise<{ ws: WebSocket; raw: Socket }>;
  let client: WebSocket;
  const received: string[] = [];

  beforeEach(async () => {
    received.length = 0;
    const wss = new WebSocketServer({ noServer: true });
    http = createServer();
    served = new Promise((resolve) =>
      http.on('upgrade', (request, raw: Socket, head) =>
        wss.handleUpgrade(request, raw, head, (ws) => {
          coalesceWrites(ws, raw);
          resolve({ ws, raw });
        }),
      ),
    );
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
    client.on('message', (data) => received.push(String(data)));
    await once(client, 'open');
  });

  afterEach(async () => {
    client.terminate();
    http.closeAllConnections();
    http.close();
    await once(http, 'close');
  });

  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 5_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('is done with small frames at once, and writes a turn’s frames in one go, in order', async () => {
    const { ws, raw } = await served;
    const writev = jest.spyOn(raw as unknown as { _writev: () => void }, '_writev');
    const write = jest.spyOn(raw as unknown as { _write: () => void }, '_write');
    const done: string[] = [];
    for (const text of ['a', 'b', 'c']) ws.send(text, () => done.push(text));
    expect(done).toEqual(['a', 'b', 'c']);
    await until(() => received.length === 3);
    expect(received).toEqual(['a', 'b', 'c']);
    expect(writev).toHaveBeenCalledTimes(1);
    expect(write).not.toHaveBeenCalled();
  });

  it('is done with a frame past the high-water mark only once the socket drains', async () => {
    const { ws, raw } = await served;
    const big = 'x'.repeat(4 * raw.writableHighWaterMark);
    let done = false;
    ws.send(big, () => (done = true));
    expect(done).toBe(false);
    expect(raw.writableNeedDrain).toBe(true);
    await until(() => done);
    await until(() => received.length === 1);
    expect(received[0]).toHaveLength(big.length);
  });
});
