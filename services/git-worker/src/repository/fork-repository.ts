import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { remoteRepository } from '../git/remote';
import { buildingPath, existingRepo, repoPath, runGit } from '../git/run';
import { gitAt } from '../git/simple-git';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** Ten minutes without a byte of progress ends a copy from another shard. */
const REMOTE_TIMEOUT_MS = 10 * 60_000;

/**
 * A fork borrows the source's objects through alternates (`clone --shared`): only refs are
 * copied, so it takes constant time and space whatever the source's size. Deleting the source
 * later makes the fork take its own copy first (see delete-repository). A source on another shard
 * cannot be borrowed from (another disk): the fork is a full copy, cloned over that shard's git HTTP.
 */
export const ForkRepository = (deps: WorkerDeps): RepositoryServiceHandlers['ForkRepository'] =>
  unary('ForkRepository', deps, async (request) => {
    const target = repoPath(deps.root, projectIdOf(request));
    const remote = remoteRepository(deps.callers.secret, request.source);
    const source = remote ? null : existingRepo(deps.root, request.source?.projectId ?? 0);
    if (existsSync(join(target, 'HEAD'))) return {};
    const temp = buildingPath(target);
    if (!source) {
      try {
        const cloned = await runGit(deps.root, ['clone', '--bare', '--quiet', '--', remote!.url, temp], {
          env: remote!.env,
          timeoutMs: REMOTE_TIMEOUT_MS,
        });
        if (cloned.code !== 0) {
          const reason = cloned.stderr.trim();
          deps.logger.warn(
            { projectId: projectIdOf(request), source: request.source?.projectId, reason },
            'fork copy from another shard failed',
          );
          // The source's shard knows no such repository (404): as a missing source on this disk.
          // Anything else is a plain failure the caller retries: the shard unreachable, a cut
          // connection, or a refusal (403: the shards' secrets differ, a misconfiguration to mend).
          if (/error: 404\b|\bnot found\b/i.test(reason))
            throw gitError('REPOSITORY_NOT_FOUND', 'the fork source could not be copied from its shard');
          throw new Error(`copying the fork source from its shard failed: ${reason}`);
        }
        await rename(temp, target);
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
      return {};
    }
    // Objects a fork borrows must outlive the source's garbage collection, even once unreachable there.
    await gitAt(source).addConfig('gc.pruneExpire', 'never');
    try {
      await gitAt(deps.root).clone(source, temp, ['--bare', '--shared', '--quiet']);
      await rename(temp, target);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
    return {};
  });
