import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * A list of networks (`10.0.0.0/8, 192.168.1.7, fd00::/8`), as TRUSTED_PROXIES and
 * RATE_LIMIT_ALLOWLIST name them. A bare address is its own /32 or /128. Checked when the
 * configuration is read, so a typo stops the process instead of trusting nobody (or everybody).
 */
export interface NetworkList {
  /** The networks as written, normalized (`10.0.0.0/8`), for express's `trust proxy`. */
  readonly cidrs: readonly string[];
  /** Whether an address (IPv4, IPv6 or IPv4-mapped IPv6) is in one of the networks. */
  has(address: string): boolean;
}

export function parseNetworkList(raw: string, name = 'the list'): NetworkList {
  const list = new BlockList();
  const cidrs: string[] = [];
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address, prefixText, extra] = entry.split('/');
    const family = isIP(address);
    const width = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? width : Number(prefixText);
    if (
      family === 0 ||
      extra !== undefined ||
      (prefixText !== undefined && !/^\d+$/.test(prefixText)) ||
      !(prefix >= 0 && prefix <= width)
    )
      throw new Error(`${name} must list networks such as 10.0.0.0/8 or fd00::/8, got "${entry}"`);
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
    cidrs.push(`${address}/${prefix}`);
  }
  return {
    cidrs,
    has(address) {
      // Asked on every request; an empty list (the usual allowlist) needs no parsing of the address.
      if (cidrs.length === 0) return false;
      const plain = unmapped(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** `::ffff:10.1.2.3` is the IPv4 client 10.1.2.3 (a dual-stack socket's view of it). */
export const unmapped = (address: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;

/**
 * Express's `trust proxy` for a door: `X-Forwarded-For` is believed only from these peers, and
 * `req.ip` is then the first hop (from the right) that is not one of them. With none, the peer
 * itself: a client cannot choose its own address by sending the header.
 */
export const trustProxySetting = (proxies: NetworkList): false | string[] =>
  proxies.cidrs.length === 0 ? false : [...proxies.cidrs];

/**
 * The client's address as the door's `trust proxy` decides it, for limits and logs. Read it while
 * the request is live: express's `req.ip` throws once the socket has been detached from it.
 */
export const clientAddress = (req: Request): string => unmapped(req.ip ?? req.socket?.remoteAddress ?? 'unknown');

/**
 * The client address of a request express never sees (a WebSocket upgrade), decided as express's
 * `trust proxy` decides `req.ip`: X-Forwarded-For is read from the right while the hop that sent
 * it is one of `proxies`.
 */
export function upgradeClientAddress(req: IncomingMessage, proxies: NetworkList): string {
  let address = unmapped(req.socket.remoteAddress ?? 'unknown');
  const hops = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  while (proxies.has(address) && hops.length > 0) address = unmapped(hops.pop()!);
  return address;
}
