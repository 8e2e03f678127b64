import type { AddressInfo } from 'node:net';
import express from 'express';
import { clientAddress, parseNetworkList, trustProxySetting } from './client-address';

describe('a network list', () => {
  it('holds IPv4 and IPv6 networks and bare addresses, and sees IPv4-mapped clients as IPv4', () => {
    const list = parseNetworkList(' 10.0.0.0/8, 192.168.1.7 ,fd00::/8');
    expect(list.cidrs).toEqual(['10.0.0.0/8', '192.168.1.7/32', 'fd00::/8']);
    expect(list.has('10.200.3.4')).toBe(true);
    expect(list.has('::ffff:10.200.3.4')).toBe(true);
    expect(list.has('192.168.1.7')).toBe(true);
    expect(list.has('192.168.1.8')).toBe(false);
    expect(list.has('fd12::1')).toBe(true);
    expect(list.has('fe80::1')).toBe(false);
    expect(list.has('unknown')).toBe(false);
    expect(parseNetworkList('').cidrs).toEqual([]);
    expect(parseNetworkList('').has('127.0.0.1')).toBe(false);
  });

  it.each(['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '10.0.0/8', 'fd00::/129', '10.0.0.0/-1', '10.0.0.0/'])(
    'refuses %s, naming the variable',
    (entry) => {
      expect(() => parseNetworkList(`127.0.0.1/32, ${entry}`, 'TRUSTED_PROXIES')).toThrow(
        `TRUSTED_PROXIES must list networks such as 10.0.0.0/8 or fd00::/8, got "${entry}"`,
      );
    },
  );
});

describe('the client address behind proxies', () => {
  /** What an app with these trusted proxies takes for the address of a request from 127.0.0.1. */
  async function seenAs(trusted: string, forwardedFor?: string): Promise<string> {
    const app = express();
    app.set('trust proxy', trustProxySetting(parseNetworkList(trusted)));
    app.get('/', (req, res) => {
      res.send(clientAddress(req));
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      });
      return await response.text();
    } finally {
      server.close();
    }
  }

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    expect(await seenAs('')).toBe('127.0.0.1');
    expect(await seenAs('', '203.0.113.9')).toBe('127.0.0.1');
    expect(await seenAs('10.0.0.0/8', '203.0.113.9')).toBe('127.0.0.1');
  });

  it('is the first untrusted hop from the right when the peer is a trusted proxy', async () => {
    expect(await seenAs('127.0.0.1/32', '203.0.113.9')).toBe('203.0.113.9');
    // A client's own forged entry sits left of the address the proxy saw: it is never reached.
    expect(await seenAs('127.0.0.1/32', '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    // Two proxies (an ingress behind a load balancer): the chain is followed through both.
    expect(await seenAs('127.0.0.1/32, 10.0.0.0/8', '198.51.100.1, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
    // Without the header, the proxy's own address.
    expect(await seenAs('127.0.0.1/32')).toBe('127.0.0.1');
  });
});
