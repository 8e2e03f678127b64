import { mkdir, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { buildingPath, gitText, repoPath } from '../git/run';
import { validateBranchName } from '../git/validate';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** Creates the bare repository, with HEAD on the default branch; an existing one is left alone. */
export async function createRepository(deps: WorkerDeps, projectId: number, defaultBranch: string): Promise<string> {
  const path = repoPath(deps.root, projectId);
  if (existsSync(join(path, 'HEAD'))) return path;
  const branch = validateBranchName(defaultBranch || 'master');
  // Built beside its final place and renamed, so a crash never leaves a half-made repository.
  // One git process, started by the launcher: a burst of new projects is a burst of these.
  const temp = buildingPath(path);
  await mkdir(deps.root, { recursive: true });
  try {
    await gitText(deps.root, ['init', '--bare', '--quiet', `--initial-branch=${branch}`, '--', temp], {
      start: deps.startGit,
    });
    await rename(temp, path).catch(async (error) => {
      if (!existsSync(join(path, 'HEAD'))) throw error;
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return path;
}

export const CreateRepository = (deps: WorkerDeps): RepositoryServiceHandlers['CreateRepository'] =>
  unary('CreateRepository', deps, async (request) => {
    await createRepository(deps, projectIdOf(request), request.defaultBranch);
    return {};
  });
