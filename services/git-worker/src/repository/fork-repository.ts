import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { existingRepo, repoPath } from '../git/run';
import { gitAt } from '../git/simple-git';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/**
 * A fork borrows the source's objects through alternates (`clone --shared`): only refs are
 * copied, so it takes constant time and space whatever the source's size. Deleting the source
 * later makes the fork take its own copy first (see delete-repository).
 */
export const ForkRepository = (deps: WorkerDeps): RepositoryServiceHandlers['ForkRepository'] =>
  unary('ForkRepository', deps, async (request) => {
    const target = repoPath(deps.root, projectIdOf(request));
    const source = existingRepo(deps.root, request.source?.projectId ?? 0);
    if (existsSync(join(target, 'HEAD'))) return {};
    // Objects a fork borrows must outlive the source's garbage collection, even once unreachable there.
    await gitAt(source).addConfig('gc.pruneExpire', 'never');
    const temp = `${target}.tmp-${process.pid}-${Date.now()}`;
    try {
      await gitAt(deps.root).clone(source, temp, ['--bare', '--shared', '--quiet']);
      await gitAt(temp).addConfig('http.receivepack', 'true');
      await rename(temp, target);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
    return {};
  });
