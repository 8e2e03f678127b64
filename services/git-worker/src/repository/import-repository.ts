import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, runGit } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const SCHEMES = new Set(['http:', 'https:', 'git:']);

/** Loopback, private, link-local and unspecified addresses: an import must not reach inside our network. */
export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 6) {
    const a = address.toLowerCase();
    if (a.startsWith('::ffff:')) return isInternalAddress(a.slice(7));
    return a === '::1' || a === '::' || a.startsWith('fc') || a.startsWith('fd') || a.startsWith('fe80');
  }
  const [p, q] = address.split('.').map(Number);
  return p === 10 || p === 127 || p === 0 || (p === 169 && q === 254) || (p === 172 && q >= 16 && q <= 31) || (p === 192 && q === 168) || (p === 100 && q >= 64 && q <= 127);
}

/** Refuses anything but http, https and git URLs, and (unless allowed) internal addresses, as GitLab does. */
export async function checkImportUrl(url: string, allowLocal: boolean): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw gitError('INVALID_ARGUMENT', 'import_url is invalid', 'import_url');
  }
  if (!SCHEMES.has(parsed.protocol)) throw gitError('INVALID_ARGUMENT', 'import_url is invalid', 'import_url');
  if (allowLocal) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0 || addresses.some(isInternalAddress)) {
    throw gitError('INVALID_ARGUMENT', 'import_url points to an internal address', 'import_url');
  }
}

/** Fetches every branch and tag of a remote into the (empty) repository. */
export const ImportRepository = (deps: WorkerDeps): RepositoryServiceHandlers['ImportRepository'] =>
  unary('ImportRepository', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    await checkImportUrl(request.url, deps.importAllowLocal);
    const result = await runGit(repo, ['fetch', '--quiet', '--end-of-options', request.url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { timeoutMs: 10 * 60_000 });
    if (result.code !== 0) throw gitError('INVALID_ARGUMENT', `import failed: ${result.stderr.trim().split('\n').pop() ?? ''}`, 'import_url');
    return {};
  });
