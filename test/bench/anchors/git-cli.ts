import { commandProbe, sequence, type Probe } from '../measure';

/**
 * The floor of the work: the git CLI doing what each route does, on the same bare repository on
 * disk, spawned per call (what a route that shells out per request pays at least).
 */
export function gitCli(repo: string) {
  const git = (...args: string[]) => commandProbe('git', ['-C', repo, ...args]);
  return {
    rawBlob: (blob: string): Probe => git('cat-file', '-p', blob),
    blobAtPath: (ref: string, path: string): Probe => git('cat-file', '-p', `${ref}:${path}`),
    tree: (ref: string): Probe => git('ls-tree', ref),
    compare: (from: string, to: string): Probe => sequence(git('diff', from, to), git('log', `${from}..${to}`)),
    logNumstat: (ref: string): Probe => git('log', '--numstat', ref),
    shortlog: (ref: string): Probe => git('shortlog', '-sne', ref),
    /** tar then gzip, as a tar.gz download does. */
    archive: (ref: string): Probe =>
      commandProbe('sh', ['-c', `git -C '${repo}' archive --format=tar ${ref} | gzip -n`]),
  };
}
