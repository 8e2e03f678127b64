import type { RepositoryServiceHandlers } from '@hub/protos';
import { gitError } from '../git/errors';
import { existingRepo, launchGit } from '../git/run';
import { pipeToCall } from '../git/stream';
import { validateRef } from '../git/validate';
import { streaming, projectIdOf, type WorkerDeps } from '../rpc';

/** git archive's formats; bzip2 through a filter command, as git itself documents. */
const FORMATS: Record<string, string[]> = {
  'tar.gz': ['--format=tar.gz'],
  tar: ['--format=tar'],
  zip: ['--format=zip'],
  'tar.bz2': ['-c', 'tar.tar.bz2.command=bzip2 -c', '--format=tar.bz2'],
};

export const GetArchive = (deps: WorkerDeps): RepositoryServiceHandlers['GetArchive'] =>
  streaming('GetArchive', deps, async (request, call) => {
    const repo = existingRepo(deps.root, projectIdOf(request));
    const format = FORMATS[request.format || 'tar.gz'];
    if (!format) throw gitError('INVALID_ARGUMENT', 'format is invalid', 'format');
    // Resolved in the warm reader: a lookup, not a process, before the archive's own.
    const commit = await deps.readers.get(repo).info(`${validateRef(request.ref, 'sha')}^{commit}`);
    if (!commit) throw gitError('REF_NOT_FOUND', 'sha names no commit', 'sha');
    const sha = commit.oid;
    const prefix = request.prefix.replace(/[^A-Za-z0-9._-]/g, '-');
    // `-c` options go before the subcommand; the rest after it.
    const config = format[0] === '-c' ? format.slice(0, 2) : [];
    const args = [...config, 'archive', ...format.slice(config.length), `--prefix=${prefix}/`, sha];
    await pipeToCall(launchGit(repo, args), call, (data) => ({ data }));
  });
