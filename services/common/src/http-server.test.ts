import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createObservedApp } from './http-server';
import type { Logger } from './logger';

describe('the request log line', () => {
  it('names the client of every request on a kept-alive connection, its body read or not', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = { debug: (line: Record<string, unknown>) => lines.push(line), warn: () => {} } as unknown as Logger;
    const { app } = createObservedApp({ service: 'test', readiness: {}, logger });
    // The body is never read: the server discards it after the answer.
    app.post('/hello', (_req, res) => {
      res.json({ hello: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const agent = new Agent({ connections: 1, pipelining: 1 });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hello`;
      for (let i = 0; i < 3; i++) {
        const response = await request(url, { method: 'POST', body: 'x'.repeat(100_000), dispatcher: agent });
        expect(response.statusCode).toBe(200);
        await response.body.json();
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toHaveLength(3);
      for (const line of lines)
        expect(line).toMatchObject({ method: 'POST', route: '/hello', status: 200, client: '127.0.0.1' });
    } finally {
      await agent.close();
      server.close();
    }
  });
});
