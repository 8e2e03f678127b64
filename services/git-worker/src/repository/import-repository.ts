import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, runGit } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const SCHEMES = new Set(['http:', 'https:', 'git:']);

/** Loopback, private, link-local, carrier-grade NAT and unspecified ranges, v4 and v6. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) INTERNAL.addSubnet(network, prefix, 'ipv6');

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

/**
 * Refuses anything but http, https and git URLs, and (unless allowed) internal addresses, as
 * GitLab does. Returns git options that pin the fetch to the address checked here (no DNS
 * rebinding between check and fetch) and forbid redirects (no bouncing to an internal address).
 */
export async function checkImportUrl(url: string, allowLocal: boolean): Promise<string[]> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw gitError('INVALID_ARGUMENT', 'import_url is invalid', 'import_url');
  }
  if (!SCHEMES.has(parsed.protocol)) throw gitError('INVALID_ARGUMENT', 'import_url is invalid', 'import_url');
  const options = ['-c', 'http.followRedirects=false'];
  if (allowLocal) return options;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0 || addresses.some(isInternalAddress)) {
    throw gitError('INVALID_ARGUMENT', 'import_url points to an internal address', 'import_url');
  }
  if (parsed.protocol !== 'git:' && !isIP(host)) {
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    options.push('-c', `http.curloptResolve=${host}:${port}:${addresses[0]}`);
  }
  return options;
}

/** Fetches every branch and tag of a remote into the (empty) repository. */
export const ImportRepository = (deps: WorkerDeps): RepositoryServiceHandlers['ImportRepository'] =>
  unary('ImportRepository', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const pinned = await checkImportUrl(request.url, deps.importAllowLocal);
    const result = await runGit(repo, [...pinned, 'fetch', '--quiet', '--end-of-options', request.url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { timeoutMs: 10 * 60_000 });
    // git's own words stay in the log: they would tell a caller which internal ports are open.
    if (result.code !== 0) {
      deps.logger.warn({ projectId: projectIdOf(request), stderr: result.stderr.trim() }, 'import fetch failed');
      throw gitError('INVALID_ARGUMENT', 'import failed', 'import_url');
    }
    return {};
  });
