import { once } from 'node:events';
import { WebSocket, WebSocketServer } from 'ws';
import { bytesOf, createSubscriptionLimits, headersOfConnectionParams, textFrame } from './live-server';

describe('the subscriptions’ limits', () => {
  it('gives each user as many places as allowed, the process as many in all, and takes back each place once', () => {
    const { subscriptions } = createSubscriptionLimits(2, 3);
    const a1 = subscriptions.reserve('a');
    const a2 = subscriptions.reserve('a');
    expect(subscriptions.reserve('a')).toBe('Too many subscriptions: at most 2 per user');
    const b1 = subscriptions.reserve('b');
    expect(subscriptions.reserve('c')).toBe('Too many subscriptions: this gateway holds at most 3');
    expect(subscriptions.open).toBe(3);
    if (typeof a1 !== 'function' || typeof a2 !== 'function' || typeof b1 !== 'function') throw new Error('refused');
    a1();
    a1();
    expect(subscriptions.open).toBe(2);
    expect(typeof subscriptions.reserve('c')).toBe('function');
    expect(subscriptions.reserve('a')).toBe('Too many subscriptions: this gateway holds at most 3');
  });

  it('counts sockets apart from subscriptions', () => {
    const limits = createSubscriptionLimits(1, 10);
    expect(typeof limits.sockets.reserve('a')).toBe('function');
    expect(limits.sockets.reserve('a')).toBe('Too many sockets: at most 1 per user');
    expect(typeof limits.subscriptions.reserve('a')).toBe('function');
  });
});

describe('headersOfConnectionParams', () => {
  it('reads a private token or an authorization from connection_init’s payload, and nothing else', () => {
    expect(headersOfConnectionParams({ privateToken: 't1' })).toEqual({ 'private-token': 't1' });
    expect(headersOfConnectionParams({ 'PRIVATE-TOKEN': 't2' })).toEqual({ 'private-token': 't2' });
    expect(headersOfConnectionParams({ Authorization: 'Bearer x' })).toEqual({ authorization: 'Bearer x' });
    expect(headersOfConnectionParams({ privateToken: 7, sudo: 'root', cookie: 'c' })).toEqual({});
    expect(headersOfConnectionParams(undefined)).toEqual({});
  });
});

describe('textFrame', () => {
  it('makes text frames a WebSocket client reads, whatever the length', async () => {
    const prefix = '{"id":"é1","type":"next","payload":';
    const payloads = [10, 90, 126, 5_000, 65_535, 70_000].map((n) => `{"data":"${'ü'.repeat(n)}"}`);
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    // Written to the TCP socket under the server's WebSocket, as the subscriptions write them.
    server.on('connection', (_ws, request) => {
      for (const payload of payloads) request.socket.write(textFrame(bytesOf(prefix), bytesOf(payload)), 'latin1');
    });
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as { port: number }).port}`);
    const messages: string[] = [];
    await new Promise<void>((resolve, reject) => {
      client.on('error', reject);
      client.on('message', (data: Buffer, isBinary: boolean) => {
        expect(isBinary).toBe(false);
        messages.push(data.toString());
        if (messages.length === payloads.length) resolve();
      });
    });
    expect(messages).toEqual(payloads.map((payload) => `${prefix}${payload}}`));
    client.close();
    await new Promise((resolve) => server.close(resolve));
  });
});
