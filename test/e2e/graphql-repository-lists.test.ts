import { createProject, createUser, graphql, type TestProject, type TestUser } from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';

// The repository's lists as connections in the public schema: branches, tags, a folder's entries,
// contributors, a history and a comparison's commits, over a real repository pushed with git.
// A history's cursors name the commit its first page started from, so a push in between never
// shifts a page; every list refuses a cursor that is not one of its own.

type Page = { nodes: Array<Record<string, unknown>>; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

describe('repository lists as connections (public GraphQL)', () => {
  let owner: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let clone: string;
  let remote: string;
  const shas: string[] = [];

  beforeAll(async () => {
    [owner, stranger] = await Promise.all([createUser(), createUser()]);
    project = await createProject(owner.token);
    clone = await workingCopy({ 'README.md': 'one\n', 'src/a.ts': 'a\n', 'docs/b.md': 'b\n', 'z.txt': 'z\n' });
    for (let i = 2; i <= 5; i++) await commitFiles(clone, { [`f${i}.txt`]: `${i}\n` }, `commit ${i}`);
    // A second author, with two commits, for the contributors.
    for (let i = 6; i <= 7; i++) {
      await commitFiles(clone, { [`g${i}.txt`]: `${i}\n` }, `commit ${i}`);
      ok(await git(clone, 'commit', '-q', '--amend', '--no-edit', '--author', 'Other Author <other@example.com>'));
    }
    const log = ok(await git(clone, 'rev-list', 'master'))
      .stdout.trim()
      .split('\n');
    shas.push(...log); // newest first
    for (const name of ['alpha', 'bravo', 'charlie']) ok(await git(clone, 'branch', name, shas[3]));
    for (const name of ['v1', 'v2', 'v10']) ok(await git(clone, 'tag', name, shas[1]));
    remote = remoteUrl(project.path_with_namespace, owner.username, owner.password);
    ok(await git(clone, 'push', '-q', remote, '--all'));
    ok(await git(clone, 'push', '-q', remote, '--tags'));
  });

  const ask = async (query: string, variables: Record<string, unknown>, token = owner.token) => {
    const answer = await graphql(
      query,
      { path: project.path_with_namespace, ...variables },
      { 'PRIVATE-TOKEN': token },
    );
    return answer.body;
  };
  const VARIABLE_TYPES = { first: 'Int', after: 'String', last: 'Int', before: 'String', ref: 'String' };
  /** The variables a field's arguments use, declared (GraphQL refuses unused ones). */
  const declarations = (field: string) =>
    Object.entries(VARIABLE_TYPES)
      .filter(([name]) => field.includes(`$${name}`))
      .map(([name, type]) => `, $${name}: ${type}`)
      .join('');
  const repositoryList = async (field: string, selection: string, variables: Record<string, unknown>) => {
    const body = await ask(
      `query ($path: String!${declarations(field)}) {
        project(fullPath: $path) { repository { ${field} { nodes { ${selection} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } count } } }
      }`,
      variables,
    );
    expect(body.errors).toBeUndefined();
    return body.data.project.repository[field.replace(/\(.*$/s, '')] as Page & { count: number };
  };
  /** Every item of a list, two at a time, following endCursor. */
  const walk = async (field: string, selection: string, key: string) => {
    const seen: unknown[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 20; guard++) {
      const page = await repositoryList(field, selection, { first: 2, after });
      seen.push(...page.nodes.map((node) => node[key]));
      if (!page.pageInfo.hasNextPage) return seen;
      after = page.pageInfo.endCursor;
    }
    throw new Error('the list never ended');
  };
  const ARGS = '(first: $first, after: $after, last: $last, before: $before)';

  it('pages branches by name and tags by name in reverse, two at a time', async () => {
    expect(await walk(`branches${ARGS}`, 'name', 'name')).toEqual(['alpha', 'bravo', 'charlie', 'master']);
    expect(await walk(`tags${ARGS}`, 'name', 'name')).toEqual(['v2', 'v10', 'v1']);
    const last = await repositoryList(`branches${ARGS}`, 'name', { last: 2 });
    expect(last.nodes).toEqual([{ name: 'charlie' }, { name: 'master' }]);
    expect(last.count).toBe(4);
  });

  it("pages a folder's entries: folders first, then files, each by name", async () => {
    expect(await walk(`tree(ref: $ref, first: $first, after: $after)`, 'name type', 'name')).toEqual([
      'docs',
      'src',
      'README.md',
      'f2.txt',
      'f3.txt',
      'f4.txt',
      'f5.txt',
      'g6.txt',
      'g7.txt',
      'z.txt',
    ]);
  });

  it('pages contributors, most commits first', async () => {
    expect(await walk(`contributors${ARGS}`, 'email commits', 'email')).toEqual([
      'pusher@example.com',
      'other@example.com',
    ]);
  });

  it('pages a history from the commit its first page started at, even after a push', async () => {
    const first = await repositoryList(`commits(ref: $ref, first: $first, after: $after)`, 'id', {
      ref: 'master',
      first: 3,
    });
    expect(first.nodes.map((node) => node.id)).toEqual(shas.slice(0, 3));
    expect(first.count).toBe(7);
    // Someone pushes to master in between; the pages that follow still read the history asked for.
    await commitFiles(clone, { 'later.txt': 'later\n' }, 'pushed meanwhile');
    ok(await git(clone, 'push', '-q', remote, 'master'));
    const seen = first.nodes.map((node) => node.id);
    let after = first.pageInfo.endCursor;
    for (let guard = 0; after && guard < 10; guard++) {
      const page = await repositoryList(`commits(ref: $ref, first: $first, after: $after)`, 'id', {
        ref: 'master',
        first: 3,
        after,
      });
      seen.push(...page.nodes.map((node) => node.id));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    }
    expect(seen).toEqual(shas);
    // A new first page starts from the new tip.
    const fresh = await repositoryList(`commits(ref: $ref, first: $first)`, 'title', { ref: 'master', first: 1 });
    expect(fresh.nodes).toEqual([{ title: 'pushed meanwhile' }]);
  });

  it("pages backward through a comparison's commits", async () => {
    const body = await ask(
      `query ($path: String!, $last: Int, $before: String) {
        project(fullPath: $path) { repository { compare(from: "${shas[6]}", to: "${shas[0]}") {
          commits(last: $last, before: $before) { nodes { id } pageInfo { hasPreviousPage startCursor } }
        } } }
      }`,
      { last: 4 },
    );
    expect(body.errors).toBeUndefined();
    const page = body.data.project.repository.compare.commits;
    // Oldest first: the newest four of the six commits after the root.
    expect(page.nodes.map((node: { id: string }) => node.id)).toEqual(shas.slice(0, 4).reverse());
    expect(page.pageInfo.hasPreviousPage).toBe(true);
  });

  it("refuses another list's cursor, a tampered one and pages over 100, naming the argument", async () => {
    const branches = await repositoryList(`branches${ARGS}`, 'name', { first: 1 });
    const refusals = [
      [`tags${ARGS}`, { after: branches.pageInfo.endCursor }, 'after'],
      [`branches${ARGS}`, { after: `${branches.pageInfo.endCursor}x` }, 'after'],
      [`commits(ref: $ref, first: $first, after: $after)`, { after: branches.pageInfo.endCursor }, 'after'],
      [`branches${ARGS}`, { first: 101 }, 'first'],
    ] as const;
    for (const [field, variables, argument] of refusals) {
      const body = await ask(
        `query ($path: String!${declarations(field)}) {
          project(fullPath: $path) { repository { ${field} { nodes { __typename } } } }
        }`,
        variables,
      );
      expect({ field, extensions: body.errors?.[0]?.extensions }).toMatchObject({
        field,
        extensions: { code: 'BAD_USER_INPUT', argument },
      });
    }
  });

  it('keeps a private repository from strangers', async () => {
    const body = await ask(
      `query ($path: String!) { project(fullPath: $path) { repository { branches { nodes { name } } } } }`,
      {},
      stranger.token,
    );
    expect(body.data?.project ?? null).toBeNull();
  });
});
