import { gitAt } from '../git/simple-git';

/** `name → oid` of the refs under `prefix` (refs/heads or refs/tags), sorted by name. */
export async function listRefs(repo: string, prefix: 'refs/heads' | 'refs/tags'): Promise<Array<{ name: string; oid: string }>> {
  const out = await gitAt(repo).raw(['for-each-ref', '--sort=refname', '--format=%(objectname) %(refname)', prefix]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(' ');
      return { oid: line.slice(0, space), name: line.slice(space + 1 + prefix.length + 1) };
    });
}
