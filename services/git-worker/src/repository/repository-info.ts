import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { headBranch, isEmptyRepo, repoPath } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

export const RepositoryInfo = (deps: WorkerDeps): RepositoryServiceHandlers['RepositoryInfo'] =>
  unary('RepositoryInfo', deps, async (request) => {
    const path = repoPath(deps.root, projectIdOf(request));
    if (!existsSync(join(path, 'HEAD'))) return { exists: false, empty: true, defaultBranch: '' };
    return { exists: true, empty: await isEmptyRepo(path), defaultBranch: await headBranch(path) };
  });
