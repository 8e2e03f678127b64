import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchApi } from './api';
import { ASSET_PATH, COMPARE_SPAN, fastImportStream, type RepositorySpec } from './fast-import';
import { git, gitWithInput } from './git';

export interface SeededRepository {
  projectId: number;
  pathWithNamespace: string;
  /** The bare repository the git worker keeps on disk (what the git CLI and cgit anchors read). */
  diskPath: string;
  head: string;
  /** COMPARE_SPAN commits before head. */
  compareFrom: string;
  assetBlob: string;
  assetPath: string;
  /** A text file at the root, for blobs/:sha?filepath=. */
  textPath: string;
  commits: number;
  /** Bytes of the packed repository (what a clone moves). */
  packBytes: number;
}

/** Sum of file sizes under a folder. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

/** The bare repository under the worker's root whose master is `head` (the layout is the worker's business). */
async function findOnDisk(root: string, head: string, depth = 3): Promise<string | null> {
  if (!existsSync(root)) return null;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(root, entry.name);
    if (existsSync(join(path, 'objects')) && existsSync(join(path, 'HEAD'))) {
      const tip = await git(['rev-parse', '--verify', '-q', 'refs/heads/master'], path).catch(() => '');
      if (tip === head) return path;
    } else if (depth > 1) {
      const found = await findOnDisk(path, head, depth - 1);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Generates the repository with `git fast-import` in `work` (seconds, same ids every run), creates
 * a project and pushes master to it with a real `git push` over the facade's git HTTP, the way a
 * user's repository arrives.
 */
export async function seedRepository(
  api: BenchApi,
  spec: RepositorySpec,
  work: string,
  reposRoot: string,
): Promise<SeededRepository> {
  const source = join(work, 'source.git');
  await git(['init', '-q', '--bare', '-b', 'master', source]);
  await gitWithInput(['fast-import', '--quiet'], source, fastImportStream(spec));
  await git(['repack', '-adq'], source);
  const head = await git(['rev-parse', 'refs/heads/master'], source);
  const project = await api.post<{ id: number; path_with_namespace: string }>('/projects', { name: 'bench-repo' });
  const remote = api.gitUrl(project.path_with_namespace);
  await git(['push', '-q', remote, 'refs/heads/master:refs/heads/master'], source);
  const diskPath = await findOnDisk(reposRoot, head);
  if (!diskPath)
    throw new Error(
      `pushed ${head} to ${project.path_with_namespace}, but found no bare repository with that master under ${reposRoot}`,
    );
  return {
    projectId: project.id,
    pathWithNamespace: project.path_with_namespace,
    diskPath,
    head,
    compareFrom: await git(['rev-parse', `refs/heads/master~${COMPARE_SPAN}`], source),
    assetBlob: await git(['rev-parse', `refs/heads/master:${ASSET_PATH}`], source),
    assetPath: ASSET_PATH,
    textPath: 'file-007.txt',
    commits: Number(await git(['rev-list', '--count', 'refs/heads/master'], source)),
    packBytes: folderBytes(join(diskPath, 'objects')),
  };
}
