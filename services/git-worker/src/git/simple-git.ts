import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * simple-git, with its guards against unsafe options and arguments (left on) and an inactivity
 * timeout, for the commands with small, structured output: config, fork clones and import
 * fetches. The runner in run.ts keeps the rest (ref listings and new repositories' init too,
 * which run often enough to go through the launcher); see the note there.
 */
export const gitAt = (dir: string, options: { timeoutMs?: number; config?: string[] } = {}): SimpleGit =>
  simpleGit({
    baseDir: dir,
    timeout: { block: options.timeoutMs ?? 60_000 },
    config: options.config ?? [],
    maxConcurrentProcesses: 16,
    trimmed: false,
  });
