import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, carrier-grade NAT and unspecified ranges, v4 and v6. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

/** Whether an address is internal; IPv4-mapped IPv6 (::ffff:7f00:1) counts as its IPv4 address. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  if (mapped) {
    if (isIP(mapped) === 4) return INTERNAL.check(mapped, 'ipv4');
    const [high, low] = mapped.split(':').map((part) => parseInt(part, 16));
    if (Number.isInteger(high) && Number.isInteger(low)) {
      return INTERNAL.check([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'), 'ipv4');
    }
  }
  return INTERNAL.check(address, 'ipv6');
}

/** A URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The addresses a host resolves to, or [] when it does not resolve. An IP literal is itself.
 */
export async function resolveHost(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  return (await lookup(host, { all: true }).catch(() => [] as LookupAddress[])).map((a) => a.address);
}

/** Whether a host is, or resolves to, an internal address (or resolves to nothing). */
export async function pointsInside(host: string): Promise<boolean> {
  const addresses = await resolveHost(host);
  return addresses.length === 0 || addresses.some(isInternalAddress);
}

export class InternalAddressError extends Error {
  constructor(host: string) {
    super(`${host} resolves to an internal address`);
    this.name = 'InternalAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that refuses internal addresses: the connection goes to the very address
 * checked here, so a name that resolves differently a second later (DNS rebinding) cannot slip
 * through. IP literals never reach a lookup: check them with isInternalAddress before connecting.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(
    hostname,
    {
      all: true,
      family:
        options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : ((options.family as number | undefined) ?? 0),
    },
    (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || addresses.some((a) => isInternalAddress(a.address)))
        return callback(new InternalAddressError(hostname), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    },
  );
}
