import { gitText, type StartGit } from '../git/run';

/** `name → oid` of the refs under `prefix` (refs/heads or refs/tags), sorted by name; one run through the launcher. */
export async function listRefs(
  repo: string,
  prefix: 'refs/heads' | 'refs/tags',
  start: StartGit,
): Promise<Array<{ name: string; oid: string }>> {
  const out = await gitText(repo, ['for-each-ref', '--sort=refname', '--format=%(objectname) %(refname)', prefix], {
    start,
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(' ');
      return { oid: line.slice(0, space), name: line.slice(space + 1 + prefix.length + 1) };
    });
}
