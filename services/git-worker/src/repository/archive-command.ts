import { gitError } from '../git/errors';
import { existingRepo } from '../git/run';
import { validateRef } from '../git/validate';
import type { WorkerDeps } from '../rpc';

/**
 * What bounds git archive's own memory, whatever the tree holds: blobs past 1 MiB stream through
 * instead of being read whole (git's default threshold is 512 MiB), and packs are mapped a MiB at a
 * time, at most 16 MiB at once. With the defaults, a 1 GiB tree of 16 MiB files took git 17 MiB
 * of heap and 20 MiB of mapped pack beside the worker (issue 14: at most 64 MiB of RSS growth).
 */
const BOUNDED = [
  '-c',
  'core.bigFileThreshold=1m',
  '-c',
  'core.packedGitWindowSize=1m',
  '-c',
  'core.packedGitLimit=16m',
];

/** git archive's formats; bzip2 through a filter command, as git itself documents. */
const FORMATS: Record<string, string[]> = {
  'tar.gz': ['--format=tar.gz'],
  tar: ['--format=tar'],
  zip: ['--format=zip'],
  'tar.bz2': ['-c', 'tar.tar.bz2.command=bzip2 -c', '--format=tar.bz2'],
};

/**
 * The `git archive` run of a download: the format checked, the ref resolved to a commit in the
 * warm reader (a lookup, not a process, before the archive's own), the prefix kept to safe
 * characters. Fields are named as the v3 route names them (`sha`).
 */
export async function archiveCommand(
  deps: Pick<WorkerDeps, 'root' | 'readers'>,
  projectId: number,
  request: { ref: string; format: string; prefix: string },
): Promise<{ repo: string; args: string[] }> {
  const repo = existingRepo(deps.root, projectId);
  const format = FORMATS[request.format || 'tar.gz'];
  if (!format) throw gitError('INVALID_ARGUMENT', 'format is invalid', 'format');
  const commit = await deps.readers.get(repo).info(`${validateRef(request.ref, 'sha')}^{commit}`);
  if (!commit) throw gitError('REF_NOT_FOUND', 'sha names no commit', 'sha');
  const prefix = request.prefix.replace(/[^A-Za-z0-9._-]/g, '-');
  // `-c` options go before the subcommand; the rest after it.
  const config = format[0] === '-c' ? format.slice(0, 2) : [];
  return {
    repo,
    args: [...BOUNDED, ...config, 'archive', ...format.slice(config.length), `--prefix=${prefix}/`, commit.oid],
  };
}
