import { isIP } from 'node:net';
import { hostOf, isInternalAddress, resolveHost } from '@hub/common';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo } from '../git/run';
import { gitAt } from '../git/simple-git';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

const SCHEMES = new Set(['http:', 'https:', 'git:']);

/**
 * Refuses anything but http, https and git URLs, and (unless allowed) internal addresses, as
 * GitLab does. Returns git config entries that pin the fetch to the address checked here (no DNS
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
  const options = ['http.followRedirects=false'];
  if (allowLocal) return options;
  const host = hostOf(parsed);
  const addresses = await resolveHost(host);
  if (addresses.length === 0 || addresses.some(isInternalAddress)) {
    throw gitError('INVALID_ARGUMENT', 'import_url points to an internal address', 'import_url');
  }
  if (parsed.protocol !== 'git:' && !isIP(host)) {
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    options.push(`http.curloptResolve=${host}:${port}:${addresses[0]}`);
  }
  return options;
}

/** Fetches every branch and tag of a remote into the (empty) repository. */
export const ImportRepository = (deps: WorkerDeps): RepositoryServiceHandlers['ImportRepository'] =>
  unary('ImportRepository', deps, async (request) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const pinned = await checkImportUrl(request.url, deps.importAllowLocal);
    // Ten minutes without a byte of progress ends it.
    const git = gitAt(repo, { timeoutMs: 10 * 60_000, config: pinned });
    try {
      await git.raw([
        'fetch',
        '--quiet',
        '--end-of-options',
        request.url,
        '+refs/heads/*:refs/heads/*',
        '+refs/tags/*:refs/tags/*',
      ]);
    } catch (error) {
      // git's own words stay in the log: they would tell a caller which internal ports are open.
      deps.logger.warn(
        { projectId: projectIdOf(request), reason: (error as Error).message.trim() },
        'import fetch failed',
      );
      throw gitError('INVALID_ARGUMENT', 'import failed', 'import_url');
    }
    return {};
  });
