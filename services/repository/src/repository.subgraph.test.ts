import { resolve } from 'node:path';
import { Metadata, status } from '@grpc/grpc-js';
import { createAccessClient, createTestSchema, createTestSubgraph, errorCode, membershipStandIn, privateProject, userPrincipal, type Sql } from '@hub/common';
import { encodeErrorDetail, ERROR_DETAIL_TRAILER, type GitClients } from '@hub/protos';
import { createLoaders, type RepositoryContext } from './context';
import { createGit } from './git';
import { createResolvers } from './resolvers';

const OWNER = 1;
const MASTER = 2;
const DEVELOPER = 3;
const STRANGER = 4;
const LEVELS: Record<number, number> = { [MASTER]: 40, [DEVELOPER]: 30 };
/** Membership's answers (another service). */
const membership = membershipStandIn([privateProject(10, OWNER)], LEVELS);

/** The git worker's answers, as its gRPC clients give them. */
const failure = (kind: string, field = '') => {
  const metadata = new Metadata();
  metadata.set(ERROR_DETAIL_TRAILER, encodeErrorDetail({ kind, message: kind, field }));
  return Object.assign(new Error(kind), { code: kind === 'ALREADY_EXISTS' ? status.ALREADY_EXISTS : status.INVALID_ARGUMENT, metadata });
};
const commit = { id: 'c'.repeat(40), parentIds: [], treeId: 't'.repeat(40), message: 'tip\n', author: { name: 'A', email: 'a@x', date: '2026-01-01T00:00:00Z' }, committer: { name: 'A', email: 'a@x', date: '2026-01-01T00:00:00Z' } };
const BRANCHES = ['feature', 'master'];
type Done = (error: Error | null, response?: unknown) => void;
const clients = {
  ref: {
    ListBranches: (_r: unknown, _o: unknown, done: Done) => done(null, { branches: BRANCHES.map((name) => ({ name, commit })) }),
    FindBranch: (r: { name: string }, _o: unknown, done: Done) => (BRANCHES.includes(r.name) ? done(null, { name: r.name, commit }) : done(failure('REF_NOT_FOUND', 'branch'))),
    CreateTag: (r: { name: string; ref: string }, _o: unknown, done: Done) => {
      if (r.name === 'exists') return done(failure('ALREADY_EXISTS', 'tag_name'));
      if (r.name.includes(' ')) return done(failure('INVALID_ARGUMENT', 'tag_name'));
      if (!BRANCHES.includes(r.ref)) return done(failure('INVALID_ARGUMENT', 'ref'));
      done(null, { name: r.name, message: '', annotated: false, commit });
    },
  },
} as unknown as GitClients;

const BRANCH_LIST = `query { _entities(representations: [{ __typename: "Project", id: 10, defaultBranch: "master" }]) { ... on Project { repository { branches { name protected } } } } }`;
const PROTECT = `mutation($b: String!) { protectBranch(projectId: 10, branch: $b) { name protected } }`;
const UNPROTECT = `mutation($b: String!) { unprotectBranch(projectId: 10, branch: $b) { name protected } }`;
const TAG = `mutation($n: String!, $r: String!) { createTag(projectId: 10, tagName: $n, ref: $r) { name } }`;

describe('repository subgraph', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<RepositoryContext>>>;
  const as = (userId: number) => userPrincipal(userId);

  beforeAll(async () => {
    db = await createTestSchema('repository', resolve(__dirname, '..', 'migrations'));
    const access = createAccessClient({ membership, ttlMs: 0 });
    subgraph = await createTestSubgraph<RepositoryContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({ sql: db.sql, git: createGit(clients) }),
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
    for (let i = 0; i < 2; i++) expect((await subgraph.run(PROTECT, { b: 'feature' }, as(MASTER))).data?.protectBranch).toEqual({ name: 'feature', protected: true });
    expect((await subgraph.run(BRANCH_LIST, {}, as(DEVELOPER))).data?._entities[0].repository.branches).toEqual([
      { name: 'feature', protected: true },
      { name: 'master', protected: false },
    ]);
    for (let i = 0; i < 2; i++) expect((await subgraph.run(UNPROTECT, { b: 'feature' }, as(OWNER))).data?.unprotectBranch).toEqual({ name: 'feature', protected: false });
  });

  it('answers GitLab\'s 404s for a branch that is not there', async () => {
    expect(await subgraph.run(PROTECT, { b: 'nope' }, as(MASTER))).toMatchObject({ errors: [{ message: '404 Branch Not Found' }] });
    expect(await subgraph.run(UNPROTECT, { b: 'nope' }, as(MASTER))).toMatchObject({ errors: [{ message: '404 Branch does not exist Not Found' }] });
  });

  it('tags for Developers, and answers each refusal with 405 and the spec\'s reason', async () => {
    expect((await subgraph.run(TAG, { n: 'v1', r: 'master' }, as(DEVELOPER))).data?.createTag).toEqual({ name: 'v1' });
    const refusal = async (n: string, r: string) => {
      const result = await subgraph.run(TAG, { n, r }, as(DEVELOPER));
      return [result.errors?.[0]?.extensions?.code, result.errors?.[0]?.message];
    };
    expect(await refusal('exists', 'master')).toEqual(['METHOD_NOT_ALLOWED', 'Tag exists already exists']);
    expect(await refusal('bad name', 'master')).toEqual(['METHOD_NOT_ALLOWED', 'Tag name invalid']);
    expect(await refusal('v2', 'nowhere')).toEqual(['METHOD_NOT_ALLOWED', 'Invalid reference name']);
  });
});
