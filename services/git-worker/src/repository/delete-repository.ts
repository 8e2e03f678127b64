import { constants } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RepositoryServiceHandlers } from '@hub/protos';
import { repoPath } from '../git/run';
import { projectIdOf, unary, type WorkerDeps } from '../rpc';

/** Hard-links (or copies, across file systems) every object file of `from` into `to`. */
async function absorbObjects(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.name === 'info') continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      await mkdir(target, { recursive: true });
      await absorbObjects(source, target);
    } else {
      await link(source, target).catch((error: NodeJS.ErrnoException) =>
        error.code === 'EEXIST' ? undefined : copyFile(source, target, constants.COPYFILE_EXCL).catch(() => undefined),
      );
    }
  }
}

/**
 * Forks borrow their source's objects (alternates). Before a source goes, each fork that borrows
 * from it takes every object of it (hard links: no copying on one file system), so nothing a fork
 * or a fork of that fork needs is lost, and borrows what the source borrowed in its place.
 */
async function detachForks(root: string, source: string): Promise<void> {
  const objects = resolve(source, 'objects');
  const inherited = (await readFile(join(objects, 'info', 'alternates'), 'utf8').catch(() => ''))
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => resolve(objects, line));
  for (const entry of await readdir(root).catch(() => [] as string[])) {
    if (!entry.endsWith('.git') && !entry.includes('.git.tmp-')) continue;
    const repo = join(root, entry);
    const alternates = join(repo, 'objects', 'info', 'alternates');
    const lines = (await readFile(alternates, 'utf8').catch(() => ''))
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const own = lines.map((line) => resolve(repo, 'objects', line));
    if (!own.includes(objects)) continue;
    await absorbObjects(objects, join(repo, 'objects'));
    const kept = [...new Set([...own.filter((path) => path !== objects), ...inherited])];
    if (kept.length) await writeFile(alternates, kept.join('\n') + '\n');
    else await unlink(alternates);
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
