import { resolve } from 'node:path';
import { Metadata, status } from '@grpc/grpc-js';
import { createAccessClient, createCursors, type InternalClient, type Sql } from '@hub/common';
import {
  createTestSchema,
  createTestSubgraph,
  errorCode,
  membershipStandIn,
  privateProject,
  userPrincipal,
} from '@hub/common/testing';
import { encodeErrorDetail, ERROR_DETAIL_TRAILER, gitShardsOver, type GitClients } from '@hub/protos';
import { createLoaders, type RepositoryContext } from './context';
import { branchProtectionOf, forgetProject, protect, unprotect } from './db/protected-branches';
import { createGit } from './git';
import { createResolvers } from './resolvers';

const OWNER = 1;
const MASTER = 2;
const DEVELOPER = 3;
const STRANGER = 4;
const LEVELS: Record<number, number> = { [MASTER]: 40, [DEVELOPER]: 30 };
const CURSORS = createCursors('a-secret-for-tests-only-0123456789');
/** Membership's answers (another service). */
const membership = membershipStandIn([privateProject(10, OWNER)], LEVELS);

/** The git worker's answers, as its gRPC clients give them. */
const failure = (kind: string, field = '') => {
  const metadata = new Metadata();
  metadata.set(ERROR_DETAIL_TRAILER, encodeErrorDetail({ kind, message: kind, field }));
  return Object.assign(new Error(kind), {
    code: kind === 'ALREADY_EXISTS' ? status.ALREADY_EXISTS : status.INVALID_ARGUMENT,
    metadata,
  });
};
const commit = {
  id: 'c'.repeat(40),
  parentIds: [],
  treeId: 't'.repeat(40),
  message: 'tip\n',
  author: { name: 'A', email: 'a@x', date: '2026-01-01T00:00:00Z' },
  committer: { name: 'A', email: 'a@x', date: '2026-01-01T00:00:00Z' },
};
const BRANCHES = ['feature', 'master'];
type Done = (error: Error | null, response?: unknown) => void;
const clients = {
  ref: {
    ListBranches: (_r: unknown, _o: unknown, done: Done) =>
      done(null, { branches: BRANCHES.map((name) => ({ name, commit })) }),
    FindBranch: (r: { name: string }, _o: unknown, done: Done) =>
      BRANCHES.includes(r.name) ? done(null, { name: r.name, commit }) : done(failure('REF_NOT_FOUND', 'branch')),
    CreateBranch: (r: { name: string; ref: string }, _o: unknown, done: Done) => {
      if (r.name.includes(' ')) return done(failure('INVALID_ARGUMENT', 'branch_name'));
      if (BRANCHES.includes(r.name)) return done(failure('ALREADY_EXISTS', 'branch_name'));
      if (!BRANCHES.includes(r.ref)) return done(failure('REF_NOT_FOUND', 'ref'));
      done(null, { name: r.name, commit });
    },
    DeleteBranch: (r: { name: string }, _o: unknown, done: Done) => {
      deleted.push(r.name);
      done(null, {});
    },
    CreateTag: (r: { name: string; ref: string }, _o: unknown, done: Done) => {
      if (r.name === 'exists') return done(failure('ALREADY_EXISTS', 'tag_name'));
      if (r.name.includes(' ')) return done(failure('INVALID_ARGUMENT', 'tag_name'));
      if (!BRANCHES.includes(r.ref)) return done(failure('INVALID_ARGUMENT', 'ref'));
      done(null, { name: r.name, message: '', annotated: false, commit });
    },
  },
  repository: {
    RepositoryInfo: (_r: unknown, _o: unknown, done: Done) =>
      done(null, { exists: true, empty: false, defaultBranch: 'master' }),
  },
  commit: {
    // The worker's refusals by path, so each of GitLab's wordings can be asked for.
    CommitFile: (
      r: { path: string; branch: string; author: { name: string; email: string } },
      _o: unknown,
      done: Done,
    ) => {
      const refusal = {
        'taken.txt': 'ALREADY_EXISTS',
        'missing.txt': 'PATH_NOT_FOUND',
        'racing.txt': 'CONCURRENT_UPDATE',
      }[r.path];
      if (!BRANCHES.includes(r.branch)) return done(failure('REF_NOT_FOUND', 'branch_name'));
      if (refusal) return done(failure(refusal, 'file_path'));
      authors.push(r.author);
      done(null, { commitId: 'd'.repeat(40) });
    },
  },
} as unknown as GitClients;
const authors: Array<{ name: string; email: string }> = [];
const deleted: string[] = [];
/** Identity's answer: every user's profile. */
const identity = {
  call: async (_contract: unknown, { ids }: { ids: number[] }) => ({
    users: ids.map((id) => ({
      id,
      username: `u${id}`,
      name: `User ${id}`,
      state: 'active',
      email: `u${id}@example.com`,
      avatarUrl: null,
    })),
  }),
  close: async () => {},
} as unknown as InternalClient;

const BRANCH_LIST = `query { _entities(representations: [{ __typename: "Project", databaseId: 10, defaultBranch: "master" }]) { ... on Project { repository { branches { nodes { name protected } } } } } }`;
const PROTECT = `mutation($b: String!) { protectBranch(input: { projectId: 10, branch: $b }) { branch { name protected } errors { code } } }`;
const UNPROTECT = `mutation($b: String!) { unprotectBranch(input: { projectId: 10, branch: $b }) { branch { name protected } errors { code } } }`;
const TAG = `mutation($n: String!, $r: String!, $c: String) { createTag(input: { clientMutationId: $c, projectId: 10, tagName: $n, ref: $r }) { clientMutationId tag { name } errors { code path message v3Attribute v3Message } } }`;

/**
 * A mutation's outcome: the payload's entity, or the refusal as [code, message], whether the
 * payload's errors hold it (expected refusals) or it is a GraphQL error (the rest).
 */
const outcome = (
  result: { data?: Record<string, any> | null; errors?: ReadonlyArray<{ message: string; extensions?: any }> },
  entity: string,
) => {
  if (result.errors) return [result.errors[0].extensions?.code, result.errors[0].message];
  const payload = Object.values(result.data!)[0];
  return payload.errors.length ? [payload.errors[0].code, payload.errors[0].v3Message] : payload[entity];
};

describe('repository subgraph', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<RepositoryContext>>>;
  const as = (userId: number) => userPrincipal(userId);

  beforeAll(async () => {
    db = await createTestSchema('repository', resolve(__dirname, '..', 'migrations'));
    const access = createAccessClient({ membership, ttlMs: 0 });
    subgraph = await createTestSubgraph<RepositoryContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({ sql: db.sql, git: createGit(gitShardsOver(clients)), identity, cursors: CURSORS }),
      createContext: (principal) => ({ principal, loaders: createLoaders(db.sql, access, principal) }),
    });
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  it('protects and unprotects idempotently, Masters only, and shows it on the branch list', async () => {
    expect(errorCode(await subgraph.run(PROTECT, { b: 'feature' }, as(DEVELOPER)))).toBe('FORBIDDEN');
    expect(errorCode(await subgraph.run(PROTECT, { b: 'feature' }, as(STRANGER)))).toBe('NOT_FOUND');
    for (let i = 0; i < 2; i++)
      expect((await subgraph.run(PROTECT, { b: 'feature' }, as(MASTER))).data?.protectBranch).toEqual({
        branch: { name: 'feature', protected: true },
        errors: [],
      });
    expect((await subgraph.run(BRANCH_LIST, {}, as(DEVELOPER))).data?._entities[0].repository.branches.nodes).toEqual([
      { name: 'feature', protected: true },
      { name: 'master', protected: false },
    ]);
    for (let i = 0; i < 2; i++)
      expect((await subgraph.run(UNPROTECT, { b: 'feature' }, as(OWNER))).data?.unprotectBranch).toEqual({
        branch: { name: 'feature', protected: false },
        errors: [],
      });
  });

  it("answers GitLab's 404s for a branch that is not there: GraphQL errors, not the payload's", async () => {
    expect(await subgraph.run(PROTECT, { b: 'nope' }, as(MASTER))).toMatchObject({
      data: null,
      errors: [{ message: '404 Branch Not Found', extensions: { code: 'NOT_FOUND' } }],
    });
    expect(await subgraph.run(UNPROTECT, { b: 'nope' }, as(MASTER))).toMatchObject({
      data: null,
      errors: [{ message: '404 Branch does not exist Not Found', extensions: { code: 'NOT_FOUND' } }],
    });
  });

  it("tags for Developers, and answers each refusal in the payload's errors with the spec's reason", async () => {
    expect((await subgraph.run(TAG, { n: 'v1', r: 'master', c: 'tag-1' }, as(DEVELOPER))).data?.createTag).toEqual({
      clientMutationId: 'tag-1',
      tag: { name: 'v1' },
      errors: [],
    });
    // An expected refusal: no tag, the reason in errors, the caller's id echoed.
    expect((await subgraph.run(TAG, { n: 'exists', r: 'master', c: 'tag-2' }, as(DEVELOPER))).data?.createTag).toEqual({
      clientMutationId: 'tag-2',
      tag: null,
      errors: [
        {
          code: 'NOT_ALLOWED',
          path: null,
          message: 'Tag already exists',
          v3Attribute: null,
          v3Message: 'Tag already exists',
        },
      ],
    });
    const refusal = async (n: string, r: string) => outcome(await subgraph.run(TAG, { n, r }, as(DEVELOPER)), 'tag');
    expect(await refusal('bad name', 'master')).toEqual(['NOT_ALLOWED', 'Tag name invalid']);
    expect(await refusal('v2', 'nowhere')).toEqual(['NOT_ALLOWED', 'Invalid reference name']);
    // Access stays a GraphQL error: a project the caller may not see is not found, and there is no payload.
    expect(await subgraph.run(TAG, { n: 'v3', r: 'master', c: 'tag-3' }, as(STRANGER))).toMatchObject({
      data: null,
      errors: [{ message: '404 Project Not Found', extensions: { code: 'NOT_FOUND' } }],
    });
  });

  it("commits a file as the viewer, refusing in GitLab 7.14's words for each action", async () => {
    const FILE = `mutation($a: FileAction!, $b: String!, $p: String!) { commitFile(input: { projectId: 10, action: $a, branch: $b, path: $p, content: "aGk=", encoding: "base64", commitMessage: "m" }) { fileCommit { filePath branchName commitId } errors { code v3Message } } }`;
    const answer = async (a: string, p: string, who: number, b = 'master') =>
      outcome(await subgraph.run(FILE, { a, b, p }, as(who)), 'fileCommit');
    expect(await answer('CREATE', 'new.txt', DEVELOPER)).toEqual({
      filePath: 'new.txt',
      branchName: 'master',
      commitId: 'd'.repeat(40),
    });
    expect(authors.at(-1)).toEqual({ name: `User ${DEVELOPER}`, email: `u${DEVELOPER}@example.com` });
    expect(await answer('CREATE', 'new.txt', STRANGER)).toEqual(['NOT_FOUND', '404 Project Not Found']);
    expect(await answer('CREATE', 'dir/bad name.txt', DEVELOPER)).toEqual([
      'INVALID',
      "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-' and '.'. ",
    ]);
    expect(await answer('CREATE', 'taken.txt', DEVELOPER)).toEqual([
      'INVALID',
      'Your changes could not be committed, because file with such name exists',
    ]);
    expect(await answer('UPDATE', 'missing.txt', DEVELOPER)).toEqual(['INVALID', 'You can only edit text files']);
    expect(await answer('DELETE', 'missing.txt', DEVELOPER)).toEqual(['INVALID', 'You can only edit text files']);
    expect(await answer('UPDATE', 'taken.txt', DEVELOPER)).toEqual([
      'CONFLICT',
      'Your changes could not be committed. Maybe there was nothing to commit?',
    ]);
    expect(await answer('UPDATE', 'racing.txt', DEVELOPER)).toEqual([
      'CONFLICT',
      'Your changes could not be committed. Maybe the file was changed by another process?',
    ]);
    expect(await answer('CREATE', 'x.txt', DEVELOPER, 'nowhere')).toEqual([
      'INVALID',
      'You can only create files if you are on top of a branch',
    ]);
    // A protected branch: Masters only, in the words of each action.
    await subgraph.run(PROTECT, { b: 'feature' }, as(MASTER));
    expect(await answer('CREATE', 'x.txt', DEVELOPER, 'feature')).toEqual([
      'INVALID',
      'You are not allowed to create file in this branch',
    ]);
    expect(await answer('UPDATE', 'x.txt', DEVELOPER, 'feature')).toEqual([
      'INVALID',
      'You are not allowed to push into this branch',
    ]);
    expect((await answer('CREATE', 'x.txt', MASTER, 'feature')) as { commitId: string }).toMatchObject({
      branchName: 'feature',
    });
    await subgraph.run(UNPROTECT, { b: 'feature' }, as(MASTER));
  });

  it("creates and deletes branches for Developers, refusing in GitLab 7.14's words", async () => {
    const CREATE = `mutation($n: String!, $r: String!) { createBranch(input: { projectId: 10, name: $n, ref: $r }) { branch { name } errors { code v3Message } } }`;
    const DELETE = `mutation($n: String!) { deleteBranch(input: { projectId: 10, name: $n }) { branchName errors { code v3Message } } }`;
    const answer = async (query: string, variables: Record<string, unknown>, who = DEVELOPER) =>
      outcome(await subgraph.run(query, variables, as(who)), query === CREATE ? 'branch' : 'branchName');
    expect(await answer(CREATE, { n: 'topic', r: 'master' })).toEqual({ name: 'topic' });
    expect(await answer(CREATE, { n: 'bad name', r: 'master' })).toEqual(['INVALID', 'Branch name invalid']);
    expect(await answer(CREATE, { n: 'feature', r: 'master' })).toEqual(['INVALID', 'Branch already exists']);
    expect(await answer(CREATE, { n: 'topic', r: 'nowhere' })).toEqual(['INVALID', 'Invalid reference name']);
    expect(await answer(CREATE, { n: 'topic', r: 'master' }, STRANGER)).toEqual(['NOT_FOUND', '404 Project Not Found']);
    expect(await answer(DELETE, { n: 'nope' })).toEqual(['NOT_FOUND', 'No such branch']);
    expect(await answer(DELETE, { n: 'master' })).toEqual(['NOT_ALLOWED', 'Cannot remove HEAD branch']);
    await subgraph.run(PROTECT, { b: 'feature' }, as(MASTER));
    expect(await answer(DELETE, { n: 'feature' })).toEqual(['NOT_ALLOWED', 'Protected branch cant be removed']);
    await subgraph.run(UNPROTECT, { b: 'feature' }, as(MASTER));
    expect(await answer(DELETE, { n: 'feature' })).toEqual('feature');
    expect(deleted).toEqual(['feature']);
  });

  it('reads protected branches and the developers_can_push ones in one query per request, for GitAccess, branches and the files API', async () => {
    await protect(db.sql, 10, 'feature', true);
    await protect(db.sql, 10, 'master');
    let statements = 0;
    // Counts the statements the loaders run (tagged templates), not the helpers they build them with.
    const counting = new Proxy(db.sql, {
      apply: (target, self, args) => {
        if (Array.isArray(args[0]) && 'raw' in args[0]) statements++;
        return Reflect.apply(target, self, args);
      },
    });
    const access = createAccessClient({ membership, ttlMs: 0 });
    const counted = await createTestSubgraph<RepositoryContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({ sql: counting, git: createGit(gitShardsOver(clients)), identity, cursors: CURSORS }),
      createContext: (principal) => ({ principal, loaders: createLoaders(counting, access, principal) }),
    });
    try {
      const GIT_ACCESS = `query { _entities(representations: [{ __typename: "Project", databaseId: 10, defaultBranch: "master" }]) { ... on Project { gitAccess { push pushProtected protectedBranches developersCanPush } repository { v3Branches { name protected } } } } }`;
      expect((await counted.run(GIT_ACCESS, {}, as(DEVELOPER))).data?._entities[0]).toEqual({
        gitAccess: {
          push: true,
          pushProtected: false,
          protectedBranches: ['feature', 'master'],
          developersCanPush: ['feature'],
        },
        repository: {
          v3Branches: [
            { name: 'feature', protected: true },
            { name: 'master', protected: true },
          ],
        },
      });
      expect(statements).toBe(1);

      const FILE = `mutation($b: String!) { commitFile(input: { projectId: 10, action: CREATE, branch: $b, path: "n.txt", content: "aGk=", encoding: "base64", commitMessage: "m" }) { fileCommit { branchName } errors { message } } }`;
      statements = 0;
      expect((await counted.run(FILE, { b: 'feature' }, as(DEVELOPER))).data?.commitFile).toEqual({
        fileCommit: { branchName: 'feature' },
        errors: [],
      });
      expect(statements).toBe(1);
      expect((await counted.run(FILE, { b: 'master' }, as(DEVELOPER))).data?.commitFile.errors[0]?.message).toBe(
        'You are not allowed to create file in this branch',
      );

      expect(await branchProtectionOf(db.sql, 10)).toEqual({
        protected: ['feature', 'master'],
        developersCanPush: ['feature'],
      });
      expect(await branchProtectionOf(db.sql, 11)).toEqual({ protected: [], developersCanPush: [] });
    } finally {
      await counted.stop();
      await unprotect(db.sql, 10, 'feature');
      await unprotect(db.sql, 10, 'master');
    }
  });

  it('keeps no rule for a deleted project: a protect arriving after the deletion (a late first push) stores nothing', async () => {
    await protect(db.sql, 77, 'master');
    await forgetProject(db.sql, 77);
    await protect(db.sql, 77, 'master');
    expect(await branchProtectionOf(db.sql, 77)).toEqual({ protected: [], developersCanPush: [] });
  });

  it('reads a project reference by its databaseId key, and shows that key back', async () => {
    const ACCESS = `query { _entities(representations: [{ __typename: "Project", databaseId: 10, defaultBranch: "master" }]) { ... on Project { databaseId gitAccess { download } } } }`;
    expect((await subgraph.run(ACCESS, {}, as(DEVELOPER))).data?._entities).toEqual([
      { databaseId: 10, gitAccess: { download: true } },
    ]);
    expect((await subgraph.run(ACCESS, {}, as(STRANGER))).data?._entities).toEqual([
      { databaseId: 10, gitAccess: { download: false } },
    ]);
  });
});
