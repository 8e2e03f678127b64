import { resolve } from 'node:path';
import { Metadata, status } from '@grpc/grpc-js';
import {
  ANONYMOUS,
  createAccessClient,
  createCursors,
  createLogger,
  Visibility,
  type InternalClient,
  type Principal,
  type Sql,
} from '@hub/common';
import {
  createTestSchema,
  createTestSubgraph,
  errorCode,
  lookupBesideEntities,
  membershipStandIn,
  privateProject,
  userPrincipal,
} from '@hub/common/testing';
import { encodeErrorDetail, ERROR_DETAIL_TRAILER, gitShardsOver, type GitClients } from '@hub/protos';
import type { MergeRequestsContext } from './context';
import type { MergeRequestRow } from './db/merge-requests';
import { createMergeRequestsService } from './merge-requests-service';
import { createResolvers } from './resolvers';
import { stateOf } from './resolvers/MergeRequest';

const OWNER = 1;
const DEVELOPER = 2;
const REPORTER = 3;
const STRANGER = 4;
const MASTER = 5;
const OTHER_DEVELOPER = 6;
const LEVELS: Record<number, number> = { [DEVELOPER]: 30, [REPORTER]: 20, [MASTER]: 40, [OTHER_DEVELOPER]: 30 };
/** Project 11 has merge requests disabled, 12 is public; 13 is gone (membership knows nothing of it); 14's lists are paged. */
const NO_MERGE_REQUESTS = 11;
const PUBLIC = 12;
const GONE = 13;
const PAGED = 14;
const CURSOR_SECRET = 'a-secret-for-tests-only-0123456789';
/** Membership's answers (another service). */
const membership = membershipStandIn(
  [
    privateProject(10, OWNER),
    privateProject(NO_MERGE_REQUESTS, OWNER, { mergeRequestsEnabled: false }),
    privateProject(PUBLIC, OWNER, { visibilityLevel: Visibility.PUBLIC }),
    privateProject(PAGED, OWNER),
  ],
  LEVELS,
);
/** The repository service's protected branches (another service). */
const protectedBranches = new Set<string>(['master']);
const repository = {
  call: async () => ({ names: [...protectedBranches], developersCanPush: [] }),
  close: async () => {},
} as unknown as InternalClient;
/** The projects service's lookups (another service): project 10 is no fork, and is there unless a test deleted it. */
let projectDeleted = false;
const projects = {
  call: async () => ({ projects: projectDeleted ? [] : [{ id: 10, forkedFromProjectId: null }] }),
  close: async () => {},
} as unknown as InternalClient;

/** The notes service's answers (labels and milestones): project 10 has milestone 7; the label names it is asked to make. */
const ensured: string[][] = [];
const notes = {
  call: async (
    _endpoint: { path: string },
    body: { projectId: number; labels: string[]; milestoneId: number | null },
  ) => {
    if (body.labels.length) ensured.push(body.labels);
    return { milestoneId: body.projectId === 10 && body.milestoneId === 7 ? 7 : null };
  },
  close: async () => {},
} as unknown as InternalClient;

/** The git worker's answers, as its gRPC clients give them: branches that exist, merges that work. */
const BRANCHES = new Set(['master', 'feature', 'other', 'conflicting', 'slow']);
/** A merge of 'slow' waits for this gate (opened by the test), and says it has started. */
let slowGate: Promise<void> = Promise.resolve();
let slowStarted: () => void = () => {};
const failure = (kind: string) => {
  const metadata = new Metadata();
  metadata.set(ERROR_DETAIL_TRAILER, encodeErrorDetail({ kind, message: kind }));
  return Object.assign(new Error(kind), { code: status.NOT_FOUND, metadata });
};
const merges: string[] = [];
const commit = {
  id: 'c'.repeat(40),
  parentIds: [],
  treeId: 't'.repeat(40),
  message: 'tip\n',
  author: { name: 'A', email: 'a@x', date: '2026-01-01T00:00:00Z' },
  committer: null,
};
const git = {
  ref: {
    FindBranch: (
      request: { name: string },
      _options: unknown,
      done: (error: Error | null, response?: unknown) => void,
    ) => (BRANCHES.has(request.name) ? done(null, { name: request.name, commit }) : done(failure('REF_NOT_FOUND'))),
  },
  merge: {
    MergeBranch: (
      request: { source: string; target: string },
      _options: unknown,
      done: (error: Error | null, response?: unknown) => void,
    ) => {
      if (request.source === 'conflicting') return done(failure('MERGE_CONFLICT'));
      if (request.source === 'slow') slowStarted();
      void (request.source === 'slow' ? slowGate : Promise.resolve()).then(() => {
        merges.push(`${request.source}->${request.target}`);
        done(null, { commitId: 'm'.repeat(40) });
      });
    },
  },
} as unknown as GitClients;
const shards = gitShardsOver(git);

const CREATE = `mutation($source: String!, $target: String!, $title: String!) {
  createMergeRequest(input: { projectId: 10, sourceBranch: $source, targetBranch: $target, title: $title }) { mergeRequest { databaseId iid state author { databaseId } } errors { code path message v3Attribute v3Message } } }`;
const UPDATE = `mutation($id: Int!, $e: MergeRequestStateEvent, $v3e: String, $c: String) { updateMergeRequest(input: { clientMutationId: $c, projectId: 10, mergeRequestId: $id, stateEvent: $e, v3StateEvent: $v3e }) { clientMutationId mergeRequest { state } errors { code path message v3Attribute v3Message } } }`;
const ACCEPT = `mutation($id: Int!) { acceptMergeRequest(input: { projectId: 10, mergeRequestId: $id }) { mergeRequest { state mergeCommitSha } errors { code path message v3Attribute v3Message } } }`;

/** The code of an answer's expected refusal: the first of its payload's errors. */
const refusal = (result: { data?: Record<string, unknown> | null }) =>
  (Object.values(result.data ?? {})[0] as { errors?: Array<{ code: string }> } | null)?.errors?.[0]?.code;

describe('merge requests subgraph', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<MergeRequestsContext>>>;
  const as = (userId: number) => userPrincipal(userId);
  const open = async (source: string, title = `from ${source}`) =>
    (await subgraph.run(CREATE, { source, target: 'master', title }, as(DEVELOPER))).data!.createMergeRequest
      .mergeRequest;

  beforeAll(async () => {
    db = await createTestSchema('mergerequests', resolve(__dirname, '..', 'migrations'));
    const access = createAccessClient({ membership, ttlMs: 0 });
    const mergeRequests = createMergeRequestsService({
      sql: db.sql,
      access,
      git: shards,
      repository,
      projects,
      notes,
      logger: createLogger('mergerequests', 'silent'),
    });
    subgraph = await createTestSubgraph<MergeRequestsContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({ sql: db.sql, mergeRequests, git: shards, cursors: createCursors(CURSOR_SECRET) }),
      createContext: (principal) => ({ principal }),
    });
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  it('opens merge requests from Developer up, numbered per project; one open per source and target', async () => {
    const first = await open('feature');
    expect(first).toMatchObject({ iid: 1, state: 'OPENED', author: { databaseId: DEVELOPER } });
    expect(
      refusal(await subgraph.run(CREATE, { source: 'feature', target: 'master', title: 'again' }, as(DEVELOPER))),
    ).toBe('CONFLICT');
    expect(errorCode(await subgraph.run(CREATE, { source: 'other', target: 'master', title: 'r' }, as(REPORTER)))).toBe(
      'FORBIDDEN',
    );
    expect(errorCode(await subgraph.run(CREATE, { source: 'other', target: 'master', title: 's' }, as(STRANGER)))).toBe(
      'NOT_FOUND',
    );
    expect(
      refusal(await subgraph.run(CREATE, { source: 'master', target: 'master', title: 'same' }, as(DEVELOPER))),
    ).toBe('UNPROCESSABLE');
    const missing = await subgraph.run(CREATE, { source: 'nope', target: 'master', title: 'n' }, as(DEVELOPER));
    expect(missing.data?.createMergeRequest).toEqual({
      mergeRequest: null,
      errors: [
        {
          code: 'INVALID',
          path: ['input', 'sourceBranch'],
          message: 'Source branch does not exist',
          v3Attribute: 'source_branch',
          v3Message: 'does not exist',
        },
      ],
    });
  });

  it('answers a branch gone with its project (deleted while the request ran) as the project not found', async () => {
    projectDeleted = true;
    try {
      const gone = await subgraph.run(CREATE, { source: 'nope', target: 'master', title: 'late' }, as(DEVELOPER));
      expect([errorCode(gone), gone.errors?.[0]?.message]).toEqual(['NOT_FOUND', '404 Project Not Found']);
    } finally {
      projectDeleted = false;
    }
  });

  it('follows the state table: close, reopen (reopened), and no accepting a closed one', async () => {
    const mr = await open('other');
    expect(mr.iid).toBe(2);
    expect(
      (await subgraph.run(UPDATE, { id: mr.databaseId, e: 'CLOSE' }, as(DEVELOPER))).data?.updateMergeRequest
        .mergeRequest.state,
    ).toBe('CLOSED');
    // Not mergeable: NOT_ALLOWED in the payload, v3's wording kept for the facade.
    expect((await subgraph.run(ACCEPT, { id: mr.databaseId }, as(OWNER))).data?.acceptMergeRequest).toEqual({
      mergeRequest: null,
      errors: [
        {
          code: 'NOT_ALLOWED',
          path: null,
          message: 'Method Not Allowed',
          v3Attribute: null,
          v3Message: '405 Method Not Allowed',
        },
      ],
    });
    expect(
      (await subgraph.run(UPDATE, { id: mr.databaseId, e: 'REOPEN' }, as(DEVELOPER))).data?.updateMergeRequest
        .mergeRequest.state,
    ).toBe('REOPENED');
    // v3's raw state_event (the facade's internal v3StateEvent): an unknown one is refused in the
    // payload, which echoes clientMutationId; v3's close, raw, closes.
    expect((await subgraph.run(UPDATE, { id: mr.databaseId, v3e: 'sideways', c: 'mr-1' }, as(DEVELOPER))).data).toEqual(
      {
        updateMergeRequest: {
          clientMutationId: 'mr-1',
          mergeRequest: null,
          errors: [
            {
              code: 'INVALID',
              path: ['input', 'stateEvent'],
              message: 'State event is invalid',
              v3Attribute: 'state_event',
              v3Message: 'is invalid',
            },
          ],
        },
      },
    );
    expect(
      (await subgraph.run(UPDATE, { id: mr.databaseId, v3e: 'close' }, as(DEVELOPER))).data?.updateMergeRequest,
    ).toMatchObject({ clientMutationId: null, mergeRequest: { state: 'CLOSED' }, errors: [] });
    await subgraph.run(UPDATE, { id: mr.databaseId, e: 'REOPEN' }, as(DEVELOPER));
    // A merge request the project does not have stays a GraphQL error.
    const missing = await subgraph.run(UPDATE, { id: 999_999, v3e: 'sideways' }, as(DEVELOPER));
    expect([errorCode(missing), missing.data]).toEqual(['NOT_FOUND', null]);
  });

  it("lets the author, the assignee and Masters change a merge request (GitLab 7.14's modify_merge_request); another Developer gets FORBIDDEN", async () => {
    const assigned = (
      await subgraph.run(
        `mutation($a: Int!) { createMergeRequest(input: { projectId: 10, sourceBranch: "other", targetBranch: "feature", title: "assigned", assigneeId: $a }) { mergeRequest { databaseId } errors { code path message v3Attribute v3Message } } }`,
        { a: REPORTER },
        as(DEVELOPER),
      )
    ).data!.createMergeRequest.mergeRequest;
    const RENAME = `mutation($id: Int!, $t: String!) { updateMergeRequest(input: { projectId: 10, mergeRequestId: $id, title: $t }) { mergeRequest { title } errors { code path message v3Attribute v3Message } } }`;
    const rename = async (userId: number) => {
      const result = await subgraph.run(RENAME, { id: assigned.databaseId, t: `by ${userId}` }, as(userId));
      return errorCode(result) ?? result.data?.updateMergeRequest.mergeRequest.title;
    };
    const close = async (userId: number) =>
      errorCode(await subgraph.run(UPDATE, { id: assigned.databaseId, e: 'CLOSE' }, as(userId))) ?? 'closed';
    expect(await rename(OTHER_DEVELOPER)).toBe('FORBIDDEN');
    expect(await close(OTHER_DEVELOPER)).toBe('FORBIDDEN');
    expect(await rename(REPORTER)).toBe(`by ${REPORTER}`);
    expect(await rename(MASTER)).toBe(`by ${MASTER}`);
    expect(await rename(OWNER)).toBe(`by ${OWNER}`);
    expect(await rename(DEVELOPER)).toBe(`by ${DEVELOPER}`);
    expect(await close(REPORTER)).toBe('closed');
  });

  it('accepts with push rights on the target: UNAUTHENTICATED below Master on a protected branch, merged once', async () => {
    const mr = (
      await subgraph.run(
        `query { _entities(representations: [{ __typename: "Project", databaseId: 10 }]) { ... on Project { mergeRequests(iid: 1) { nodes { databaseId } } } } }`,
        {},
        as(DEVELOPER),
      )
    ).data!._entities[0].mergeRequests.nodes[0];
    expect(errorCode(await subgraph.run(ACCEPT, { id: mr.databaseId }, as(DEVELOPER)))).toBe('UNAUTHENTICATED');
    expect(
      (await subgraph.run(ACCEPT, { id: mr.databaseId }, as(OWNER))).data?.acceptMergeRequest.mergeRequest,
    ).toEqual({
      state: 'MERGED',
      mergeCommitSha: 'm'.repeat(40),
    });
    expect(refusal(await subgraph.run(ACCEPT, { id: mr.databaseId }, as(OWNER)))).toBe('NOT_ALLOWED');
    expect(merges).toEqual(['feature->master']);
  });

  it('never closes a merged merge request: a close while it is being merged leaves it locked, and it ends merged', async () => {
    const mr = await open('slow');
    let release!: () => void;
    slowGate = new Promise((resolve) => (release = resolve));
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const accepting = subgraph.run(ACCEPT, { id: mr.databaseId }, as(OWNER));
    await started;
    const closing = subgraph.run(UPDATE, { id: mr.databaseId, e: 'CLOSE' }, as(OWNER));
    // GitLab's state machine has no close from locked: the close changes nothing and says so.
    expect((await closing).data?.updateMergeRequest.mergeRequest.state).toBe('LOCKED');
    release();
    expect((await accepting).data?.acceptMergeRequest.mergeRequest.state).toBe('MERGED');
    const [row] = await db.sql`select state from merge_requests where id = ${mr.databaseId}`;
    expect(row.state).toBe('merged');
  });

  it('holds no lock while git merges: the merge request can be edited meanwhile, a second accept is refused, a stale claim is taken over', async () => {
    const mr = await open('slow', 'merging slowly');
    let release!: () => void;
    slowGate = new Promise((resolve) => (release = resolve));
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const accepting = subgraph.run(ACCEPT, { id: mr.databaseId }, as(OWNER));
    await started;
    // Git has not answered: an edit that locks the row answers anyway, and a second accept finds it claimed.
    const RENAME = `mutation($id: Int!) { updateMergeRequest(input: { projectId: 10, mergeRequestId: $id, title: "renamed while merging" }) { mergeRequest { state } errors { code path message v3Attribute v3Message } } }`;
    expect(
      (await subgraph.run(RENAME, { id: mr.databaseId }, as(OWNER))).data?.updateMergeRequest.mergeRequest.state,
    ).toBe('LOCKED');
    expect((await subgraph.run(ACCEPT, { id: mr.databaseId }, as(OWNER))).data?.acceptMergeRequest).toMatchObject({
      mergeRequest: null,
      errors: [{ code: 'NOT_ALLOWED', v3Message: '405 Method Not Allowed' }],
    });
    release();
    expect((await accepting).data?.acceptMergeRequest.mergeRequest.state).toBe('MERGED');
    expect((await db.sql`select title, merge_locked_at from merge_requests where id = ${mr.databaseId}`)[0]).toEqual({
      title: 'renamed while merging',
      mergeLockedAt: null,
    });

    // A claim left by a process that died mid-merge: refused while fresh, taken over once stale.
    const orphan = await open('slow', 'orphaned claim');
    await db.sql`update merge_requests set merge_locked_at = now() where id = ${orphan.databaseId}`;
    expect(refusal(await subgraph.run(ACCEPT, { id: orphan.databaseId }, as(OWNER)))).toBe('NOT_ALLOWED');
    await db.sql`update merge_requests set merge_locked_at = now() - interval '1 hour' where id = ${orphan.databaseId}`;
    // A stale claim locks nothing: the merge request reads open again.
    expect(
      (await subgraph.run(RENAME, { id: orphan.databaseId }, as(OWNER))).data?.updateMergeRequest.mergeRequest.state,
    ).toBe('OPENED');
    expect(
      (await subgraph.run(ACCEPT, { id: orphan.databaseId }, as(OWNER))).data?.acceptMergeRequest.mergeRequest.state,
    ).toBe('MERGED');
  });

  it('refuses conflicts and work in progress with 405', async () => {
    const conflicted = await open('conflicting');
    expect((await subgraph.run(ACCEPT, { id: conflicted.databaseId }, as(OWNER))).data?.acceptMergeRequest).toEqual({
      mergeRequest: null,
      errors: [
        {
          code: 'NOT_ALLOWED',
          path: null,
          message: 'Branch cannot be merged',
          v3Attribute: null,
          v3Message: 'Branch cannot be merged',
        },
      ],
    });
    // The failed merge gave its claim back: the next accept is refused by git again, not by a claim.
    expect(
      (await db.sql`select merge_locked_at from merge_requests where id = ${conflicted.databaseId}`)[0].mergeLockedAt,
    ).toBeNull();
    protectedBranches.delete('master');
    await subgraph.run(UPDATE, { id: conflicted.databaseId, e: 'CLOSE' }, as(DEVELOPER));
    // `other` still has its reopened merge request: a second open one is a conflict, reopened counting as open.
    expect(
      refusal(await subgraph.run(CREATE, { source: 'other', target: 'master', title: 'WIP: not yet' }, as(DEVELOPER))),
    ).toBe('CONFLICT');
    const draft = (
      await subgraph.run(CREATE, { source: 'conflicting', target: 'master', title: '[WIP] not yet' }, as(DEVELOPER))
    ).data!.createMergeRequest.mergeRequest;
    expect(refusal(await subgraph.run(ACCEPT, { id: draft.databaseId }, as(DEVELOPER)))).toBe('NOT_ALLOWED');
  });

  it('keeps labels and a milestone the notes service accepts for the project, and has the labels made', async () => {
    const made = await subgraph.run(
      `mutation { createMergeRequest(input: { projectId: 10, sourceBranch: "feature", targetBranch: "other", title: "m", labels: [" ui", "api"], milestoneId: 7 }) { mergeRequest { databaseId labels milestoneId milestone { databaseId } } errors { code path message v3Attribute v3Message } } }`,
      {},
      as(DEVELOPER),
    );
    expect(made.data?.createMergeRequest.mergeRequest).toMatchObject({
      labels: ['api', 'ui'],
      milestoneId: 7,
      milestone: { databaseId: 7 },
    });
    expect(ensured).toContainEqual(['api', 'ui']);
    const id = made.data!.createMergeRequest.mergeRequest.databaseId;
    const relabel = `mutation($id: Int!, $labels: [String!], $m: Int) { updateMergeRequest(input: { projectId: 10, mergeRequestId: $id, labels: $labels, milestoneId: $m }) { mergeRequest { labels milestoneId } errors { code path message v3Attribute v3Message } } }`;
    // Another project's milestone counts as none; 0 removes it.
    expect((await subgraph.run(relabel, { id, m: 8 }, as(DEVELOPER))).data?.updateMergeRequest.mergeRequest).toEqual({
      labels: ['api', 'ui'],
      milestoneId: null,
    });
    expect(
      (await subgraph.run(relabel, { id, m: 7 }, as(DEVELOPER))).data?.updateMergeRequest.mergeRequest.milestoneId,
    ).toBe(7);
    expect(
      (await subgraph.run(relabel, { id, m: 0 }, as(DEVELOPER))).data?.updateMergeRequest.mergeRequest.milestoneId,
    ).toBeNull();
    const refused = await subgraph.run(relabel, { id, labels: ['ok', 'a&b'] }, as(DEVELOPER));
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION',
      fields: { labels: { 'a&b': { title: ['is invalid'] } } },
    });
  });

  it('checks label names itself and has no labels made for a merge request it refuses: long names (400), duplicates and reopens onto an open pair (409)', async () => {
    const before = ensured.length;
    const long = 'l'.repeat(300);
    const create = `mutation($source: String!, $labels: [String!], $m: Int) { createMergeRequest(input: { projectId: 10, sourceBranch: $source, targetBranch: "master", title: "t", labels: $labels, milestoneId: $m }) { mergeRequest { id } errors { code path message v3Attribute v3Message } } }`;
    const tooLong = await subgraph.run(create, { source: 'feature', labels: ['fine', long] }, as(DEVELOPER));
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION',
      fields: { labels: { [long]: { title: ['is too long (maximum is 255 characters)'] } } },
    });
    // `other` into master is open already (reopened above).
    const duplicate = await subgraph.run(create, { source: 'other', labels: ['dup-made'], m: 7 }, as(DEVELOPER));
    expect(duplicate.data?.createMergeRequest.errors[0]).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('Cannot Create: This merge request already exists'),
    });
    // The closed `conflicting` one, while the `[WIP]` one from the same branch is open.
    const closed = (
      await subgraph.run(
        `query { _entities(representations: [{ __typename: "Project", databaseId: 10 }]) { ... on Project { mergeRequests(state: CLOSED) { nodes { databaseId sourceBranch } } } } }`,
        {},
        as(DEVELOPER),
      )
    ).data!._entities[0].mergeRequests.nodes;
    const conflicted = closed.find((mr: { sourceBranch: string }) => mr.sourceBranch === 'conflicting');
    const reopen = await subgraph.run(
      `mutation($id: Int!) { updateMergeRequest(input: { projectId: 10, mergeRequestId: $id, stateEvent: REOPEN, labels: ["reopen-made"], milestoneId: 7 }) { mergeRequest { state } errors { code path message v3Attribute v3Message } } }`,
      { id: conflicted.databaseId },
      as(DEVELOPER),
    );
    expect(reopen.data?.updateMergeRequest.errors[0]).toMatchObject({
      code: 'CONFLICT',
      message: 'Cannot Reopen: This merge request already exists',
    });
    const relabel = await subgraph.run(
      `mutation($id: Int!) { updateMergeRequest(input: { projectId: 10, mergeRequestId: $id, labels: ["ok", "${'m'.repeat(256)}"] }) { mergeRequest { state } errors { code path message v3Attribute v3Message } } }`,
      { id: conflicted.databaseId },
      as(DEVELOPER),
    );
    expect(relabel.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION',
      fields: { labels: { ['m'.repeat(256)]: { title: ['is too long (maximum is 255 characters)'] } } },
    });
    expect(ensured.slice(before)).toEqual([]);
  });

  describe('global ids', () => {
    const ENTITY = `query($r: [_Any!]!) { _entities(representations: $r) { ... on MergeRequest { id databaseId projectId iid title } } }`;
    const PROJECT_MR = `query($p: Int!, $id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { mergeRequest(id: $id) { iid } } } }`;
    /** `_entities` for one reference, as `node(id:)` in the projects subgraph asks it. */
    const byGlobalId = (id: unknown, principal: Principal) =>
      subgraph.run(ENTITY, { r: [{ __typename: 'MergeRequest', id }] }, principal);
    const resolved = async (id: unknown, principal: Principal) => {
      const result = await byGlobalId(id, principal);
      expect(result.errors).toBeUndefined();
      return result.data!._entities[0];
    };
    /** A merge request straight into the table, closed so no open pair collides; its numeric id. */
    const insert = async (projectId: number, iid: number) =>
      (
        await db.sql`insert into merge_requests (project_id, iid, source_project_id, source_branch, target_branch, title, state, author_id)
          values (${projectId}, ${iid}, ${projectId}, 'feature', 'master', ${`gid ${projectId}/${iid}`}, 'closed', ${DEVELOPER})
          returning id`
      )[0].id as number;
    let inPrivate: number, inDisabled: number, inPublic: number, inGone: number, missing: number;
    beforeAll(async () => {
      inPrivate = await insert(10, 900);
      inDisabled = await insert(NO_MERGE_REQUESTS, 1);
      inPublic = await insert(PUBLIC, 1);
      inGone = await insert(GONE, 1);
      missing = (await db.sql`select max(id) + 1000 as id from merge_requests`)[0].id;
    });

    it('shows id as the global id and databaseId as the number REST v3 shows', async () => {
      const created = await subgraph.run(
        `mutation { createMergeRequest(input: { projectId: 10, sourceBranch: "feature", targetBranch: "conflicting", title: "ids" }) { mergeRequest { id databaseId iid } errors { code path message v3Attribute v3Message } } }`,
        {},
        as(DEVELOPER),
      );
      const { id, databaseId } = created.data!.createMergeRequest.mergeRequest;
      expect(typeof databaseId).toBe('number');
      expect(id).toBe(`gid://hub/MergeRequest/${databaseId}`);
      const [row] =
        await db.sql`select id from merge_requests where project_id = 10 and iid = ${created.data!.createMergeRequest.mergeRequest.iid}`;
      expect(row.id).toBe(databaseId);
      expect(await resolved(id, as(DEVELOPER))).toEqual({
        id,
        databaseId,
        projectId: 10,
        iid: created.data!.createMergeRequest.mergeRequest.iid,
        title: 'ids',
      });
    });

    it('resolves a global id for whoever may read the project merge requests: members, admins, signed-in users on public projects', async () => {
      const expected = {
        id: `gid://hub/MergeRequest/${inPrivate}`,
        databaseId: inPrivate,
        projectId: 10,
        iid: 900,
        title: 'gid 10/900',
      };
      for (const principal of [as(OWNER), as(DEVELOPER), as(REPORTER), userPrincipal(99, { isAdmin: true })])
        expect(await resolved(`gid://hub/MergeRequest/${inPrivate}`, principal)).toEqual(expected);
      expect(await resolved(`gid://hub/MergeRequest/${inPublic}`, as(STRANGER))).toMatchObject({
        databaseId: inPublic,
        projectId: PUBLIC,
      });
    });

    it('answers null, never an error, for a malformed global id, one of another type, and one that does not exist', async () => {
      for (const id of [
        `gid://hub/Issue/${inPrivate}`,
        `gid://hub/Project/${inPrivate}`,
        `gid://hub/MergeRequest/${inPrivate}/`,
        `gid://hub/mergerequest/${inPrivate}`,
        `gid://other/MergeRequest/${inPrivate}`,
        'gid://hub/MergeRequest/0',
        'gid://hub/MergeRequest/abc',
        String(inPrivate),
        inPrivate,
        '',
        `gid://hub/MergeRequest/${missing}`,
      ])
        expect([id, await resolved(id, as(OWNER))]).toEqual([id, null]);
    });

    it("answers null, exactly as for one that does not exist, to a caller who may not read the merge request (Project.mergeRequest's rule)", async () => {
      const nothing = await byGlobalId(`gid://hub/MergeRequest/${missing}`, as(STRANGER));
      expect(nothing).toEqual({ data: { _entities: [null] } });
      // A private project's: strangers and anonymous callers, who get NOT_FOUND from Project.mergeRequest.
      for (const principal of [as(STRANGER), ANONYMOUS]) {
        expect(await byGlobalId(`gid://hub/MergeRequest/${inPrivate}`, principal)).toEqual(nothing);
        expect(errorCode(await subgraph.run(PROJECT_MR, { p: 10, id: inPrivate }, principal))).toBe('NOT_FOUND');
      }
      // A public project's: anonymous callers may see the project but not its merge requests (FORBIDDEN there).
      expect(await byGlobalId(`gid://hub/MergeRequest/${inPublic}`, ANONYMOUS)).toEqual(nothing);
      expect(errorCode(await subgraph.run(PROJECT_MR, { p: PUBLIC, id: inPublic }, ANONYMOUS))).toBe('FORBIDDEN');
      // Merge requests disabled: nobody reads them, the owner included (FORBIDDEN there).
      expect(await byGlobalId(`gid://hub/MergeRequest/${inDisabled}`, as(OWNER))).toEqual(nothing);
      expect(errorCode(await subgraph.run(PROJECT_MR, { p: NO_MERGE_REQUESTS, id: inDisabled }, as(OWNER)))).toBe(
        'FORBIDDEN',
      );
      // A project gone: its rows are nobody's.
      expect(await byGlobalId(`gid://hub/MergeRequest/${inGone}`, userPrincipal(99, { isAdmin: true }))).toEqual(
        nothing,
      );
    });

    it("answers mergeRequestNodes(ids:), the gateway's one-hop lookup, as _entities answers each global id", async () => {
      const ids = [inPrivate, inDisabled, inPublic, inGone, missing].map((id) => `gid://hub/MergeRequest/${id}`);
      const LOOKUP = {
        field: 'mergeRequestNodes',
        type: 'MergeRequest',
        selection: 'id databaseId projectId iid title',
      };
      for (const principal of [
        as(OWNER),
        as(DEVELOPER),
        as(STRANGER),
        ANONYMOUS,
        userPrincipal(99, { isAdmin: true }),
      ]) {
        const { errors, nodes, entities } = await lookupBesideEntities(subgraph, LOOKUP, ids, principal);
        expect(errors).toBeUndefined();
        expect(nodes).toEqual(entities);
      }
      const { nodes: owners } = await lookupBesideEntities(subgraph, LOOKUP, ids, as(OWNER));
      expect(owners?.map((found) => (found as { databaseId: number } | null)?.databaseId ?? null)).toEqual([
        inPrivate,
        null,
        inPublic,
        null,
        null,
      ]);
      const ISSUE_ID = `query { mergeRequestNodes(ids: ["gid://hub/Issue/${inPrivate}"]) { id } }`;
      expect(errorCode(await subgraph.run(ISSUE_ID, {}, as(OWNER)))).toBe('BAD_USER_INPUT');
    });

    it('resolves each reference of a batch on its own, and keeps the databaseId and projectId iid references as they were', async () => {
      const batch = await subgraph.run(
        ENTITY,
        {
          r: [
            { __typename: 'MergeRequest', id: `gid://hub/MergeRequest/${inPublic}` },
            { __typename: 'MergeRequest', id: `gid://hub/MergeRequest/${inPrivate}` },
            { __typename: 'MergeRequest', databaseId: inPublic },
          ],
        },
        as(STRANGER),
      );
      expect(batch.errors).toBeUndefined();
      expect(batch.data!._entities.map((e: { databaseId: number } | null) => e?.databaseId ?? null)).toEqual([
        inPublic,
        null,
        inPublic,
      ]);
      const byNumber = (databaseId: number, principal: Principal) =>
        subgraph.run(ENTITY, { r: [{ __typename: 'MergeRequest', databaseId }] }, principal);
      expect((await byNumber(inPrivate, as(REPORTER))).data!._entities[0].databaseId).toBe(inPrivate);
      // Other subgraphs' references still fail as before for a caller who may not see the project.
      expect(errorCode(await byNumber(inPrivate, as(STRANGER)))).toBe('NOT_FOUND');
      expect((await byNumber(missing, as(OWNER))).data!._entities).toEqual([null]);
      const byIid = await subgraph.run(
        ENTITY,
        { r: [{ __typename: 'MergeRequest', projectId: 10, iid: 900 }] },
        as(DEVELOPER),
      );
      expect(byIid.data!._entities[0].id).toBe(`gid://hub/MergeRequest/${inPrivate}`);
      expect(
        errorCode(
          await subgraph.run(ENTITY, { r: [{ __typename: 'MergeRequest', projectId: 10, iid: 900 }] }, ANONYMOUS),
        ),
      ).toBe('NOT_FOUND');
    });

    it("shows the references it returns by their databaseId keys: the author, the assignee, the milestone, a project's", async () => {
      const made = await subgraph.run(
        `mutation($a: Int!) { createMergeRequest(input: { projectId: 10, sourceBranch: "other", targetBranch: "conflicting", title: "refs", assigneeId: $a, milestoneId: 7 }) { mergeRequest { author { databaseId } assignee { databaseId } milestone { databaseId } } errors { code path message v3Attribute v3Message } } }`,
        { a: REPORTER },
        as(DEVELOPER),
      );
      expect(made).toEqual({
        data: {
          createMergeRequest: {
            mergeRequest: {
              author: { databaseId: DEVELOPER },
              assignee: { databaseId: REPORTER },
              milestone: { databaseId: 7 },
            },
            errors: [],
          },
        },
      });
      const project = await subgraph.run(
        `query { _entities(representations: [{ __typename: "Project", databaseId: 10 }]) { ... on Project { databaseId } } }`,
        {},
        as(DEVELOPER),
      );
      expect(project.data!._entities).toEqual([{ databaseId: 10 }]);
    });
  });
  describe('states', () => {
    const STATES = `query($p: Int!, $id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { mergeRequest(id: $id) { state v3State } mergeRequests(iid: 0, perPage: 100) { nodes { databaseId state v3State } } } } }`;

    it("shows the public state as MergeRequestState and v3's spelling as v3State, locked while a merge runs", async () => {
      const ids: Record<string, number> = {};
      for (const [i, state] of (['opened', 'closed', 'merged', 'reopened', 'locked'] as const).entries()) {
        const [{ id }] = await db.sql<{ id: number }[]>`
          insert into merge_requests (project_id, iid, source_project_id, source_branch, target_branch, title, state, author_id, merge_locked_at)
          values (${PUBLIC}, ${500 + i}, ${PUBLIC}, ${`state-${state}`}, 'master', ${state},
            ${state === 'locked' ? 'opened' : state}, ${DEVELOPER}, ${state === 'locked' ? db.sql`now()` : null})
          returning id`;
        ids[state] = id;
      }
      const expected = {
        opened: { state: 'OPENED', v3State: 'opened' },
        closed: { state: 'CLOSED', v3State: 'closed' },
        merged: { state: 'MERGED', v3State: 'merged' },
        reopened: { state: 'REOPENED', v3State: 'reopened' },
        locked: { state: 'LOCKED', v3State: 'locked' },
      };
      for (const [state, id] of Object.entries(ids)) {
        const result = await subgraph.run(STATES, { p: PUBLIC, id }, as(DEVELOPER));
        expect(result.errors).toBeUndefined();
        const { mergeRequest, mergeRequests } = result.data!._entities[0];
        expect([state, mergeRequest]).toEqual([state, expected[state as keyof typeof expected]]);
        expect(mergeRequests.nodes).toContainEqual({ databaseId: id, ...expected[state as keyof typeof expected] });
      }
      // A stale claim (its merge died) locks nothing: the merge request reads open again.
      await db.sql`update merge_requests set merge_locked_at = now() - interval '1 hour' where id = ${ids.locked}`;
      expect(
        (await subgraph.run(STATES, { p: PUBLIC, id: ids.locked }, as(DEVELOPER))).data!._entities[0].mergeRequest,
      ).toEqual({ state: 'OPENED', v3State: 'opened' });
    });

    it('refuses to guess the public state of a stored state it does not know', () => {
      const row = { id: 77, state: 'archived', mergeLockedAt: null } as unknown as MergeRequestRow;
      expect(() => stateOf(row)).toThrow('MergeRequestState has no value for "archived"');
    });
  });

  describe('lists with cursors', () => {
    const LIST = `query($first: Int, $after: String, $last: Int, $before: String, $orderBy: MergeRequestOrder, $sort: SortDirection, $state: MergeRequestStateFilter, $iid: Int) {
      _entities(representations: [{ __typename: "Project", databaseId: ${PAGED} }]) { ... on Project {
        mergeRequests(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy, sort: $sort, state: $state, iid: $iid) {
          count
          edges { cursor node { databaseId } }
          nodes { databaseId }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        } } } }`;
    const BY_NUMBER = `query($page: Int, $perPage: Int, $orderBy: MergeRequestOrder, $sort: SortDirection, $state: MergeRequestStateFilter) {
      _entities(representations: [{ __typename: "Project", databaseId: ${PAGED} }]) { ... on Project {
        mergeRequests(page: $page, perPage: $perPage, orderBy: $orderBy, sort: $sort, state: $state) { total nodes { databaseId } } } } }`;
    interface Page {
      count: number;
      edges: Array<{ cursor: string; node: { databaseId: number } }>;
      nodes: Array<{ databaseId: number }>;
      pageInfo: {
        hasNextPage: boolean;
        hasPreviousPage: boolean;
        startCursor: string | null;
        endCursor: string | null;
      };
    }
    const list = async (variables: Record<string, unknown>): Promise<Page> => {
      const result = await subgraph.run(LIST, variables, as(REPORTER));
      expect(result.errors).toBeUndefined();
      return result.data!._entities[0].mergeRequests;
    };
    type Order = { orderBy: 'CREATED_AT' | 'UPDATED_AT'; sort: 'ASC' | 'DESC'; state?: 'OPENED' | 'ALL' };
    const STATE_SQL = { OPENED: ['opened', 'reopened'], ALL: ['opened', 'closed', 'merged', 'reopened'] };
    /** The list as v3 orders it: the timestamp asked for, ties by id, one direction. */
    const expected = async ({ orderBy, sort, state = 'ALL' }: Order) => {
      const column = orderBy === 'UPDATED_AT' ? 'updated_at' : 'created_at';
      const direction = sort === 'ASC' ? db.sql`asc` : db.sql`desc`;
      return (
        await db.sql<
          { id: number }[]
        >`select id from merge_requests where project_id = ${PAGED} and state in ${db.sql(STATE_SQL[state])}
          order by ${db.sql(column)} ${direction}, id ${direction}`
      ).map((row) => row.id);
    };
    let made = 0;
    /** A merge request straight into the table, with the timestamps given (SQL), or now. */
    const insert = () =>
      db.sql`insert into merge_requests (project_id, iid, source_project_id, source_branch, target_branch, title, state, author_id)
        values (${PAGED}, ${1000 + ++made}, ${PAGED}, ${`churn-${made}`}, 'master', 'churn', 'opened', ${DEVELOPER})`;

    beforeAll(async () => {
      // 60 merge requests in every state; created_at shared by fours, updated_at by twelves and a
      // microsecond apart within them (which a millisecond cursor would confuse).
      await db.sql`insert into merge_requests (project_id, iid, source_project_id, source_branch, target_branch, title, state, author_id, created_at, updated_at)
        select ${PAGED}, g, ${PAGED}, 'b' || g, 'master', 'mr ' || g, (array['opened', 'closed', 'merged', 'reopened'])[1 + g % 4], ${DEVELOPER},
          '2026-01-01 00:00:00+00'::timestamptz + (g / 4) * interval '1 second',
          '2026-02-01 00:00:00+00'::timestamptz + (g % 5) * interval '1 second' + (g % 3) * interval '1 microsecond'
        from generate_series(1, 60) as g`;
    });

    /** Every page from one end with `first`/`after` (start) or `last`/`before` (end), inserting and deleting rows between pages when `churn`. */
    async function pageThrough(order: Order, from: 'start' | 'end', churn: boolean) {
      const seen: number[] = [];
      const deleted = new Set<number>();
      let cursor: string | null = null;
      for (let pages = 0; pages < 100; pages++) {
        const page: Page = await list({
          ...order,
          ...(from === 'start' ? { first: 7, after: cursor } : { last: 7, before: cursor }),
        });
        expect(page.nodes).toEqual(page.edges.map((edge) => edge.node));
        expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
        expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
        expect(from === 'start' ? page.pageInfo.hasPreviousPage : page.pageInfo.hasNextPage).toBe(cursor !== null);
        seen.push(...(from === 'start' ? page.nodes : [...page.nodes].reverse()).map((node) => node.databaseId));
        const more = from === 'start' ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage;
        if (!more) return { seen, deleted };
        cursor = from === 'start' ? page.pageInfo.endCursor : page.pageInfo.startCursor;
        if (churn) {
          await insert();
          const [gone] = await db.sql<{ id: number }[]>`
            delete from merge_requests where id = (select id from merge_requests where project_id = ${PAGED} order by random() limit 1) returning id`;
          if (gone) deleted.add(gone.id);
        }
      }
      throw new Error('more than 100 pages');
    }

    const orders: Order[] = (['CREATED_AT', 'UPDATED_AT'] as const).flatMap((orderBy) =>
      (['ASC', 'DESC'] as const).map((sort) => ({ orderBy, sort })),
    );
    orders.push({ orderBy: 'UPDATED_AT', sort: 'DESC', state: 'OPENED' });

    it.each(orders.map((order) => [`${order.orderBy} ${order.sort} ${order.state ?? 'ALL'}`, order] as const))(
      'pages %s forward and backward: every merge request once, in order, also while others are opened and deleted',
      async (_name, order) => {
        // Without churn, both ways give the whole list in v3's order, and count counts it.
        const all = await expected(order);
        expect(all.length).toBeGreaterThan(14);
        expect((await pageThrough(order, 'start', false)).seen).toEqual(all);
        expect((await pageThrough(order, 'end', false)).seen).toEqual([...all].reverse());
        expect((await list({ ...order, first: 1 })).count).toBe(all.length);
        for (const from of ['start', 'end'] as const) {
          const before = await expected(order);
          const { seen, deleted } = await pageThrough(order, from, true);
          expect(seen.length).toBe(new Set(seen).size);
          const stayed = new Set(await expected(order));
          expect({
            from,
            missed: before.filter((id) => !deleted.has(id) && stayed.has(id) && !seen.includes(id)),
          }).toEqual({ from, missed: [] });
        }
      },
    );

    it('keeps the filters: iid and state narrow a cursor page as they narrow a numbered one', async () => {
      const [{ iid, id }] = await db.sql<{ iid: number; id: number }[]>`
        select iid, id from merge_requests where project_id = ${PAGED} order by id limit 1`;
      expect((await list({ iid, first: 5 })).nodes).toEqual([{ databaseId: id }]);
      const open = await list({ state: 'OPENED', first: 100 });
      expect(open.nodes.map((node) => node.databaseId)).toEqual(
        await expected({ orderBy: 'CREATED_AT', sort: 'DESC', state: 'OPENED' }),
      );
      expect(open.count).toBe(open.nodes.length);
    });

    it('gives the facade the same numbered pages as before: page and perPage, v3 order, the total', async () => {
      for (const order of orders) {
        const all = await expected(order);
        const result = await subgraph.run(BY_NUMBER, { ...order, page: 2, perPage: 5 }, as(REPORTER));
        expect(result.errors).toBeUndefined();
        expect(result.data!._entities[0].mergeRequests).toEqual({
          total: all.length,
          nodes: all.slice(5, 10).map((databaseId) => ({ databaseId })),
        });
      }
      // perPage alone asks for numbers too (page 1), and a numbered page has no cursors.
      const alone = await subgraph.run(BY_NUMBER, { perPage: 3 }, as(REPORTER));
      expect(alone.data!._entities[0].mergeRequests.nodes).toEqual(
        (await expected({ orderBy: 'CREATED_AT', sort: 'DESC' })).slice(0, 3).map((databaseId) => ({ databaseId })),
      );
      const noCursors = await subgraph.run(
        `{ _entities(representations: [{ __typename: "Project", databaseId: ${PAGED} }]) { ... on Project { mergeRequests(page: 1) { pageInfo { endCursor } } } } }`,
        {},
        as(REPORTER),
      );
      expect(noCursors.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'page' });
    });

    it('refuses more than 100 a page, a tampered cursor and one of another list, naming the argument', async () => {
      const refusal = async (variables: Record<string, unknown>, argument: string, message: RegExp) => {
        const result = await subgraph.run(LIST, variables, as(REPORTER));
        expect(result.errors?.[0]).toMatchObject({
          message: expect.stringMatching(message),
          extensions: { code: 'BAD_USER_INPUT', argument },
        });
      };
      await refusal({ first: 101 }, 'first', /"first" must be between 0 and 100, got 101/);
      await refusal({ last: 101 }, 'last', /"last" must be between 0 and 100, got 101/);
      const cursor = (await list({ first: 2 })).pageInfo.endCursor!;
      await refusal({ first: 2, after: 'not-a-cursor' }, 'after', /"after" is not a cursor of this list/);
      const [payload, signature] = cursor.split('.');
      const forged = Buffer.from(
        Buffer.from(payload, 'base64url')
          .toString()
          .replace(/"\d+"\]\]$/, '"1"]]'),
      ).toString('base64url');
      expect(forged).not.toBe(payload);
      await refusal({ first: 2, after: `${forged}.${signature}` }, 'after', /not a cursor of this list/);
      // A cursor of another order, or of another list (signed with the same secret), names no place in this one.
      await refusal({ first: 2, before: cursor, orderBy: 'UPDATED_AT' }, 'before', /not a cursor of this list/);
      await refusal({ first: 2, after: cursor, sort: 'ASC' }, 'after', /not a cursor of this list/);
      const issues = createCursors(CURSOR_SECRET).encode('issues:created_at:desc', ['1']);
      await refusal({ first: 2, after: issues }, 'after', /not a cursor of this list/);
    });
  });
});
