import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DatabaseSnapshot } from './database';
import { sha256Of, type FileEntry } from './files';
import type { RepositoryEntry } from './repositories';

export const MANIFEST_FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';

/**
 * What one backup holds, written last (so a backup without it did not finish). Paths are under
 * the backup set's folder, the one `--to` names: an incremental backup's repositories point at
 * bundles of the backups before it.
 */
export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  /** The backup's folder under the set, e.g. 20261127T180102Z: sorts by time. */
  id: string;
  /** The backup this one's repository bundles build on; null for a full one. */
  previous: string | null;
  startedAt: string;
  finishedAt: string;
  versions: { postgresServer: string; pgDump: string; git: string; node: string };
  database: FileEntry & Pick<DatabaseSnapshot, 'schemas' | 'events'>;
  /** The shards as backed up, by name; a restore may have other ones. */
  shards: string[];
  repositories: RepositoryEntry[];
}

/** A backup's folder name (the set also holds `mirrors/`). */
const BACKUP_ID = /^\d{8}T\d{6}Z(-\d+)?$/;

/** A folder name for a backup started at `at`: sortable, unique within the set. */
export function backupId(setRoot: string, at: Date): string {
  const base = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let id = base;
  for (let n = 2; existsSync(join(setRoot, id)); n++) id = `${base}-${n}`;
  return id;
}

export function writeManifest(setRoot: string, manifest: Manifest): void {
  const file = join(setRoot, manifest.id, MANIFEST_FILE);
  writeFileSync(`${file}.partial`, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(`${file}.partial`, file);
}

function parseManifest(file: string): Manifest {
  let parsed: Manifest;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(`${file} is damaged: ${(error as Error).message}`, { cause: error });
  }
  if (parsed?.format !== MANIFEST_FORMAT) {
    throw new Error(`${file} is of format ${String(parsed?.format)}; this release reads format ${MANIFEST_FORMAT}`);
  }
  if (!parsed.database?.path || !Array.isArray(parsed.repositories) || typeof parsed.id !== 'string') {
    throw new Error(`${file} is damaged: it lacks the database or the repositories`);
  }
  return parsed;
}

/** The finished backups of a set, oldest first. */
function finishedBackups(setRoot: string): string[] {
  if (!existsSync(setRoot)) return [];
  return readdirSync(setRoot)
    .filter((name) => BACKUP_ID.test(name) && existsSync(join(setRoot, name, MANIFEST_FILE)))
    .sort();
}

/** The newest finished backup of a set, to build the next incremental one on; null for none. */
export function latestManifest(setRoot: string): Manifest | null {
  const ids = finishedBackups(setRoot);
  return ids.length ? parseManifest(join(setRoot, ids[ids.length - 1], MANIFEST_FILE)) : null;
}

/**
 * The backup `from` names: a backup's folder (with its manifest), or a set's folder (its newest
 * finished backup). Refuses, saying why, when there is none.
 */
export function locateBackup(from: string): { setRoot: string; manifest: Manifest } {
  if (!existsSync(from) || !statSync(from).isDirectory()) throw new Error(`${from} is not a folder`);
  if (existsSync(join(from, MANIFEST_FILE))) {
    const manifest = parseManifest(join(from, MANIFEST_FILE));
    if (manifest.id !== basename(from)) {
      throw new Error(`${join(from, MANIFEST_FILE)} is of backup ${manifest.id}, not of its folder ${basename(from)}`);
    }
    return { setRoot: dirname(from), manifest };
  }
  const manifest = latestManifest(from);
  if (!manifest) {
    const unfinished = readdirSync(from).filter((name) => BACKUP_ID.test(name));
    throw new Error(
      unfinished.length
        ? `${from} holds no finished backup: ${unfinished.join(', ')} lack ${MANIFEST_FILE} (a backup that was cut short)`
        : `${from} holds no backup`,
    );
  }
  return { setRoot: from, manifest };
}

/**
 * Every file the manifest names, present with its size and checksum: a damaged or partial backup
 * is refused here, before anything is written. Lists every fault, not only the first.
 */
export async function verifyFiles(setRoot: string, manifest: Manifest): Promise<void> {
  const files = new Map<string, FileEntry>();
  files.set(manifest.database.path, manifest.database);
  for (const repo of manifest.repositories) for (const bundle of repo.bundles) files.set(bundle.path, bundle);
  const faults: string[] = [];
  for (const entry of files.values()) {
    const full = join(setRoot, entry.path);
    if (!existsSync(full)) {
      faults.push(`${entry.path} is missing`);
      continue;
    }
    const bytes = statSync(full).size;
    if (bytes !== entry.bytes) {
      faults.push(`${entry.path} has ${bytes} bytes, the manifest says ${entry.bytes}`);
      continue;
    }
    if ((await sha256Of(full)) !== entry.sha256) faults.push(`${entry.path} does not match its checksum`);
  }
  if (faults.length) {
    const shown = faults.slice(0, 10).join('; ');
    throw new Error(
      `backup ${manifest.id} is damaged or incomplete, nothing was restored: ${shown}${faults.length > 10 ? ` (and ${faults.length - 10} more)` : ''}`,
    );
  }
}
