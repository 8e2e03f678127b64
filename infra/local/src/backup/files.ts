import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

/** A file of a backup set, by its path under the set's folder: the manifest checks it on restore. */
export interface FileEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The entry of `path` (relative to `root`), read back from disk. */
export async function fileEntry(root: string, path: string): Promise<FileEntry> {
  const full = join(root, path);
  return { path, bytes: statSync(full).size, sha256: await sha256Of(full) };
}

/**
 * Runs a command at a lower CPU priority (the backup shares the machine with the system it copies)
 * and gives its standard output; rejects with its standard error when it fails.
 */
export function capture(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (child.pid) {
      try {
        // The system being copied goes first; what niceness cannot do, bounded work (one dump,
        // one bundle at a time, one pack thread) does.
        setPriority(child.pid, 10);
      } catch {
        // gone already, or not allowed: it still runs, at the normal priority
      }
    }
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${err.trim() || out.trim()}`)),
    );
    if (child.stdin) {
      // A command that exits before reading all of it says why in its exit code and stderr.
      child.stdin.on('error', () => {});
      child.stdin.end(options.input);
    }
  });
}
