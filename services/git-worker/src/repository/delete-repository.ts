import { readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { gitText, repoPath } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/**
 * Forks borrow their source's objects (alternates). Before a source goes, each fork that borrows
 * from it takes its own copy of what it needs (`repack -a`), then stops borrowing.
 */
async function detachForks(root: string, source: string): Promise<void> {
  const objects = resolve(source, 'objects');
  for (const entry of await readdir(root).catch(() => [] as string[])) {
    if (!entry.endsWith('.git')) continue;
    const repo = join(root, entry);
    const alternates = join(repo, 'objects', 'info', 'alternates');
    const lines = (await readFile(alternates, 'utf8').catch(() => '')).split('\n').map((l) => l.trim());
    if (!lines.some((line) => line && resolve(repo, 'objects', line) === objects)) continue;
    await gitText(repo, ['repack', '-a', '-d', '-q']);
    await unlink(alternates);
  }
}

export async function deleteRepository(deps: WorkerDeps, projectId: number): Promise<void> {
  const path = repoPath(deps.root, projectId);
  deps.readers.evict(path);
  await detachForks(deps.root, path);
  await rm(path, { recursive: true, force: true });
}

export const DeleteRepository = (deps: WorkerDeps): RepositoryServiceHandlers['DeleteRepository'] =>
  unary('DeleteRepository', deps, async (request) => {
    await deleteRepository(deps, projectIdOf(request));
    return {};
  });
