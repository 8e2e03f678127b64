import { type InternalClient } from '@hub/common';
import { errorCode, membershipStandIn, privateProject, userPrincipal } from '@hub/common/testing';
import { deleteProjectRows } from './db/project-rows';
import { notesTestSubgraph } from './testing/notes-subgraph';

const OWNER = 1;
const REPORTER = 2;
const GUEST = 3;
const STRANGER = 4;
const ASSIGNED_GUEST = 5;
const LEVELS: Record<number, number> = { [REPORTER]: 20, [GUEST]: 10, [ASSIGNED_GUEST]: 10 };

/** Membership's answers (another service): project 11 has issues and snippets off. */
const membership = membershipStandIn(
  [
    privateProject(10, OWNER),
    privateProject(11, OWNER, { issuesEnabled: false, snippetsEnabled: false }),
    privateProject(12, OWNER),
  ],
  LEVELS,
);
/** The merge requests service's answer: project 10 has merge request 5. */
const MERGE_REQUEST = {
  id: 5,
  iid: 1,
  project_id: 10,
  target_project_id: 10,
  source_project_id: 10,
  target_branch: 'master',
  source_branch: 'feature',
  title: 'mr',
  description: '',
  state: 'opened',
  author_id: OWNER,
  assignee_id: null,
  milestone_id: null,
  merge_status: 'can_be_merged',
  merge_commit_sha: null,
  work_in_progress: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_commit: null,
};
/** The repository service's answer: project 10's commit 'c' * 40 (also by the name "master"). */
const COMMIT = {
  id: 'c'.repeat(40),
  message: 'tip\n',
  timestamp: '2026-01-01T00:00:00+00:00',
  author: { name: 'A', email: 'a@x' },
};
const repository = {
  call: async (_contract: unknown, { projectId, ref }: { projectId: number; ref: string }) => ({
    commit: projectId === 10 && (ref === COMMIT.id || ref === 'master') ? COMMIT : null,
  }),
  close: async () => {},
} as unknown as InternalClient;
/** Identity's answers (users 1 and up exist); a request its contract refuses is the 400 the real endpoint gives. */
const identity = {
  call: async (contract: { request: { parse: (input: unknown) => unknown } }, request: { ids: number[] }) => {
    contract.request.parse(request);
    return {
      users: request.ids
        .filter((id) => id >= 1)
        .map((id) => ({
          id,
          username: `u${id}`,
          name: `User ${id}`,
          state: 'active',
          email: `u${id}@x`,
          avatarUrl: null,
        })),
    };
  },
  close: async () => {},
} as unknown as InternalClient;
const mergeRequests = {
  call: async (_contract: unknown, { projectId, id }: { projectId: number; id: number }) =>
    projectId === 10 && id === 5 ? { found: true, attributes: MERGE_REQUEST } : { found: false, attributes: null },
  close: async () => {},
} as unknown as InternalClient;

const CREATE_ISSUE = `mutation($p: Int!, $title: String!) { createIssue(input: { projectId: $p, title: $title, labels: ["bug", "bug", "ui"] }) { issue { databaseId iid state v3State labels author { databaseId } } } }`;
const UPDATE_ISSUE = `mutation($p: Int!, $id: Int!, $e: IssueStateEvent, $v3e: String, $title: String, $c: String) { updateIssue(input: { clientMutationId: $c, projectId: $p, issueId: $id, stateEvent: $e, v3StateEvent: $v3e, title: $title }) { clientMutationId issue { state v3State title } errors { code path message v3Attribute v3Message } } }`;
const ISSUE_NOTES = `query($p: Int!, $id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { issue(id: $id) { notes { total nodes { body system author { databaseId } } } } } } }`;
const ISSUES = `query($p: Int!, $state: IssueStateFilter, $labels: [String!]) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { issues(state: $state, labels: $labels) { total nodes { title state } } } } }`;
const CREATE_SNIPPET = `mutation($p: Int!) { createSnippet(input: { projectId: $p, title: "t", fileName: "a.rb", code: "puts 1", visibility: PRIVATE }) { snippet { id: databaseId author { databaseId } } } }`;
const UPDATE_NOTE = `mutation($p: Int!, $k: NoteableKind = ISSUE, $i: Int!, $n: Int!, $body: String!) { updateNote(input: { projectId: $p, noteable: $k, noteableId: $i, noteId: $n, body: $body }) { note { body } } }`;
const CREATE_NOTE = `mutation($p: Int!, $k: NoteableKind = ISSUE, $i: Int!, $body: String!) { createNote(input: { projectId: $p, noteable: $k, noteableId: $i, body: $body }) { note { id: databaseId upvote downvote system noteableType v3NoteableType noteableId } } }`;
const NOTEABLE = `query($p: Int!, $k: NoteableKind!, $i: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { noteable(kind: $k, id: $i) { kind id notes { total nodes { body noteableType v3NoteableType } } } } } }`;

describe('notes subgraph: issues, snippets and notes', () => {
  const { db, subgraph, start, stop } = notesTestSubgraph({ membership, identity, mergeRequests, repository });
  const as = (userId: number) => userPrincipal(userId);

  beforeAll(start);
  afterAll(stop);

  it('opens issues with per-project iids and distinct labels; Guests may, strangers may not', async () => {
    const first = await subgraph.run(CREATE_ISSUE, { p: 10, title: 'one' }, as(GUEST));
    const second = await subgraph.run(CREATE_ISSUE, { p: 10, title: 'two' }, as(OWNER));
    expect(first.data?.createIssue.issue).toMatchObject({
      iid: 1,
      state: 'OPENED',
      v3State: 'opened',
      labels: ['bug', 'ui'],
      author: { databaseId: GUEST },
    });
    expect(second.data?.createIssue.issue.iid).toBe(2);
    expect(errorCode(await subgraph.run(CREATE_ISSUE, { p: 10, title: 'x' }, as(STRANGER)))).toBe('NOT_FOUND');
    // Issues disabled: GitLab's 403, even for the owner.
    expect(errorCode(await subgraph.run(CREATE_ISSUE, { p: 11, title: 'x' }, as(OWNER)))).toBe('FORBIDDEN');
  });

  it('closes and reopens (reopened, not opened), each leaving a system note; only the author or Reporters edit', async () => {
    const { databaseId: id } = (await subgraph.run(CREATE_ISSUE, { p: 10, title: 'lifecycle' }, as(GUEST))).data!
      .createIssue.issue;
    expect(errorCode(await subgraph.run(UPDATE_ISSUE, { p: 10, id, e: 'CLOSE' }, as(STRANGER)))).toBe('NOT_FOUND');
    // Found by the fuzz: a stranger's answer named the project for an issue that exists and the
    // record for one that does not, which told which issue ids a private project holds.
    const [existing, absent] = await Promise.all([
      subgraph.run(UPDATE_ISSUE, { p: 10, id, title: 'x' }, as(STRANGER)),
      subgraph.run(UPDATE_ISSUE, { p: 10, id: 999999, title: 'x' }, as(STRANGER)),
    ]);
    expect(existing.errors?.[0]?.message).toBe(absent.errors?.[0]?.message);
    // The public state is an enum; v3's spelling stays on the internal v3State, for the facade.
    expect(
      (await subgraph.run(UPDATE_ISSUE, { p: 10, id, e: 'CLOSE' }, as(REPORTER))).data?.updateIssue.issue,
    ).toMatchObject({ state: 'CLOSED', v3State: 'closed' });
    expect(
      (await subgraph.run(UPDATE_ISSUE, { p: 10, id, e: 'REOPEN' }, as(GUEST))).data?.updateIssue.issue,
    ).toMatchObject({
      state: 'REOPENED',
      v3State: 'reopened',
    });
    // v3's raw state_event, which the facade sends on the internal v3StateEvent: an unknown one is
    // refused in the payload, with the caller's clientMutationId echoed.
    expect((await subgraph.run(UPDATE_ISSUE, { p: 10, id, v3e: 'merge', c: 'try-2' }, as(OWNER))).data).toEqual({
      updateIssue: {
        clientMutationId: 'try-2',
        issue: null,
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
    });
    // v3's close, raw, is the enum's CLOSE; a forbidden or missing issue stays a GraphQL error.
    expect(
      (await subgraph.run(UPDATE_ISSUE, { p: 10, id, v3e: 'reopen', c: 'try-3' }, as(OWNER))).data?.updateIssue,
    ).toMatchObject({ clientMutationId: 'try-3', issue: { state: 'REOPENED' }, errors: [] });
    const missing = await subgraph.run(UPDATE_ISSUE, { p: 10, id: 999_999, v3e: 'merge' }, as(OWNER));
    expect([errorCode(missing), missing.data?.updateIssue]).toEqual(['NOT_FOUND', undefined]);
    const notes = (await subgraph.run(ISSUE_NOTES, { p: 10, id }, as(GUEST))).data?._entities[0].issue.notes;
    expect(notes).toEqual({
      total: 2,
      nodes: [
        { body: 'Status changed to closed', system: true, author: { databaseId: REPORTER } },
        { body: 'Status changed to reopened', system: true, author: { databaseId: GUEST } },
      ],
    });
    // A title change and a new assignee leave GitLab's system notes too.
    const ASSIGN = `mutation($p: Int!, $id: Int!, $a: Int!, $title: String!) { updateIssue(input: { projectId: $p, issueId: $id, assigneeId: $a, title: $title }) { issue { title } } }`;
    await subgraph.run(ASSIGN, { p: 10, id, a: REPORTER, title: 'lifecycle, renamed' }, as(OWNER));
    const after = (
      await subgraph.run(ISSUE_NOTES, { p: 10, id }, as(GUEST))
    ).data?._entities[0].issue.notes.nodes.slice(2);
    expect(after).toEqual([
      { body: `Reassigned to @u${REPORTER}`, system: true, author: { databaseId: OWNER } },
      {
        body: 'Title changed from **lifecycle** to **lifecycle, renamed**',
        system: true,
        author: { databaseId: OWNER },
      },
    ]);
    const other = (await subgraph.run(CREATE_ISSUE, { p: 10, title: 'not yours' }, as(OWNER))).data!.createIssue.issue;
    expect(
      errorCode(await subgraph.run(UPDATE_ISSUE, { p: 10, id: other.databaseId, title: 'mine now' }, as(GUEST))),
    ).toBe('FORBIDDEN');
    // GitLab 7.14's modify_issue went to the assignee too, whatever their level.
    await subgraph.run(ASSIGN, { p: 10, id: other.databaseId, a: ASSIGNED_GUEST, title: 'yours to fix' }, as(OWNER));
    const byAssignee = await subgraph.run(
      UPDATE_ISSUE,
      { p: 10, id: other.databaseId, e: 'CLOSE' },
      as(ASSIGNED_GUEST),
    );
    expect(byAssignee.data?.updateIssue.issue).toEqual({ state: 'CLOSED', v3State: 'closed', title: 'yours to fix' });
    expect(errorCode(await subgraph.run(UPDATE_ISSUE, { p: 10, id: other.databaseId, e: 'REOPEN' }, as(GUEST)))).toBe(
      'FORBIDDEN',
    );
  });

  it('takes an assignee id that names no user, as GitLab stored it (found by the fuzz: identity refused to look it up, a 500)', async () => {
    const { databaseId: id } = (await subgraph.run(CREATE_ISSUE, { p: 12, title: 'unassignable' }, as(OWNER))).data!
      .createIssue.issue;
    const ASSIGN_ID = `mutation($p: Int!, $id: Int!, $a: Int) { updateIssue(input: { projectId: $p, issueId: $id, assigneeId: $a }) { issue { databaseId } errors { code } } }`;
    for (const a of [0, -377099161])
      expect((await subgraph.run(ASSIGN_ID, { p: 12, id, a }, as(OWNER))).errors).toBeUndefined();
  });

  it('filters issues by state (opened includes reopened) and by any of the labels given', async () => {
    const opened = (await subgraph.run(ISSUES, { p: 10, state: 'OPENED' }, as(GUEST))).data?._entities[0].issues;
    expect(opened.nodes.map((i: { state: string }) => i.state).sort()).toEqual(
      expect.arrayContaining(['OPENED', 'REOPENED']),
    );
    expect(opened.nodes.every((i: { state: string }) => i.state !== 'CLOSED')).toBe(true);
    const labelled = (await subgraph.run(ISSUES, { p: 10, labels: ['bug', 'ui'] }, as(GUEST))).data?._entities[0]
      .issues;
    expect(labelled.total).toBe(4);
    // GitLab 7.14 matched any of them: issues labelled bug count, though none is labelled nope.
    expect(
      (await subgraph.run(ISSUES, { p: 10, labels: ['bug', 'nope'] }, as(GUEST))).data?._entities[0].issues.total,
    ).toBe(4);
    expect((await subgraph.run(ISSUES, { p: 10, labels: ['nope'] }, as(GUEST))).data?._entities[0].issues.total).toBe(
      0,
    );
  });

  it('counts votes from +1/-1 notes, and lets only the author or a Master edit a note', async () => {
    const { databaseId: id } = (await subgraph.run(CREATE_ISSUE, { p: 10, title: 'vote' }, as(OWNER))).data!.createIssue
      .issue;
    expect(
      (await subgraph.run(CREATE_NOTE, { p: 10, i: id, body: ':+1:' }, as(GUEST))).data?.createNote.note,
    ).toMatchObject({ upvote: true, downvote: false, system: false });
    const note = (await subgraph.run(CREATE_NOTE, { p: 10, i: id, body: 'hm' }, as(GUEST))).data!.createNote.note;
    expect(errorCode(await subgraph.run(UPDATE_NOTE, { p: 10, i: id, n: note.id, body: 'edited' }, as(REPORTER)))).toBe(
      'FORBIDDEN',
    );
    expect(
      (await subgraph.run(UPDATE_NOTE, { p: 10, i: id, n: note.id, body: 'edited' }, as(GUEST))).data?.updateNote.note
        .body,
    ).toBe('edited');
    expect(
      (await subgraph.run(UPDATE_NOTE, { p: 10, i: id, n: note.id, body: 'by owner' }, as(OWNER))).data?.updateNote.note
        .body,
    ).toBe('by owner');
    const VOTES = `query($p: Int!, $id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { issue(id: $id) { upvotes downvotes } } } }`;
    expect((await subgraph.run(VOTES, { p: 10, id }, as(GUEST))).data?._entities[0].issue).toEqual({
      upvotes: 1,
      downvotes: 0,
    });
    // GitLab 7.14: a body that starts with a vote (aliases too) is one, and each author's latest vote is the one that counts.
    expect(
      (await subgraph.run(CREATE_NOTE, { p: 10, i: id, body: ':thumbsup: LGTM' }, as(REPORTER))).data?.createNote.note
        .upvote,
    ).toBe(true);
    expect((await subgraph.run(VOTES, { p: 10, id }, as(GUEST))).data?._entities[0].issue).toEqual({
      upvotes: 2,
      downvotes: 0,
    });
    expect(
      (await subgraph.run(CREATE_NOTE, { p: 10, i: id, body: '-1 changed my mind' }, as(GUEST))).data?.createNote.note
        .downvote,
    ).toBe(true);
    expect((await subgraph.run(VOTES, { p: 10, id }, as(GUEST))).data?._entities[0].issue).toEqual({
      upvotes: 1,
      downvotes: 1,
    });
    expect(
      (await subgraph.run(CREATE_NOTE, { p: 10, i: id, body: 'I said +1' }, as(OWNER))).data?.createNote.note.upvote,
    ).toBe(false);
  });

  it('takes snippets from Reporters up, in projects with snippets enabled only', async () => {
    expect(errorCode(await subgraph.run(CREATE_SNIPPET, { p: 10 }, as(GUEST)))).toBe('FORBIDDEN');
    expect((await subgraph.run(CREATE_SNIPPET, { p: 10 }, as(REPORTER))).data?.createSnippet.snippet.author).toEqual({
      databaseId: REPORTER,
    });
    expect(errorCode(await subgraph.run(CREATE_SNIPPET, { p: 11 }, as(OWNER)))).toBe('FORBIDDEN');
  });

  it("shows a snippet's visibility as an enum, and v3's level on the internal visibilityLevel", async () => {
    const CREATE = `mutation($p: Int!, $v: Visibility, $level: Int) { createSnippet(input: { projectId: $p, title: "t", fileName: "a.rb", code: "x", visibility: $v, v3VisibilityLevel: $level }) { snippet { visibility visibilityLevel } errors { code path message v3Attribute v3Message } } }`;
    const made = [];
    for (const v of ['PRIVATE', 'INTERNAL', 'PUBLIC', null])
      made.push((await subgraph.run(CREATE, { p: 10, v }, as(REPORTER))).data?.createSnippet.snippet);
    // v3's numbers, which the facade sends on the internal v3VisibilityLevel, win over the enum.
    made.push(
      (await subgraph.run(CREATE, { p: 10, v: 'PUBLIC', level: 10 }, as(REPORTER))).data?.createSnippet.snippet,
    );
    expect(made).toEqual([
      { visibility: 'PRIVATE', visibilityLevel: 0 },
      { visibility: 'INTERNAL', visibilityLevel: 10 },
      { visibility: 'PUBLIC', visibilityLevel: 20 },
      // v3's default: private.
      { visibility: 'PRIVATE', visibilityLevel: 0 },
      { visibility: 'INTERNAL', visibilityLevel: 10 },
    ]);
    // A number outside v3's list is v3's validation error, in the payload.
    expect((await subgraph.run(CREATE, { p: 10, level: 5 }, as(REPORTER))).data?.createSnippet).toEqual({
      snippet: null,
      errors: [
        {
          code: 'INVALID',
          path: null,
          message: 'Visibility level is not included in the list',
          v3Attribute: 'visibility_level',
          v3Message: 'is not included in the list',
        },
      ],
    });
  });

  it('answers an update of a snippet deleted under it as a snippet that is gone (found by the fuzz: a 500)', async () => {
    const { id } = (await subgraph.run(CREATE_SNIPPET, { p: 10 }, as(OWNER))).data!.createSnippet.snippet;
    const UPDATE_SNIPPET = `mutation($p: Int!, $id: Int!) { updateSnippet(input: { projectId: $p, snippetId: $id, title: "t2" }) { snippet { id: databaseId } } }`;
    // A BEFORE trigger that skips the row makes the update find nothing, as when a delete commits
    // between the update's read of the snippet and its write.
    await db.sql`create function skip_row() returns trigger language plpgsql as $$ begin return null; end $$`;
    await db.sql`create trigger deleted_meanwhile before update on snippets for each row execute function skip_row()`;
    try {
      expect(errorCode(await subgraph.run(UPDATE_SNIPPET, { p: 10, id }, as(OWNER)))).toBe('NOT_FOUND');
    } finally {
      await db.sql`drop trigger deleted_meanwhile on snippets`;
      await db.sql`drop function skip_row`;
    }
  });

  it('takes notes on issues, snippets and merge requests through one path, the kind a parameter', async () => {
    const issue = (await subgraph.run(CREATE_ISSUE, { p: 10, title: 'noted' }, as(OWNER))).data!.createIssue.issue;
    const snippet = (await subgraph.run(CREATE_SNIPPET, { p: 10 }, as(OWNER))).data!.createSnippet.snippet;
    for (const [k, i, type] of [
      ['ISSUE', issue.databaseId, 'Issue'],
      ['SNIPPET', snippet.id, 'Snippet'],
      ['MERGE_REQUEST', 5, 'MergeRequest'],
    ] as const) {
      expect(
        (await subgraph.run(CREATE_NOTE, { p: 10, k, i, body: `on ${type}` }, as(GUEST))).data?.createNote.note,
      ).toMatchObject({ noteableType: k, v3NoteableType: type, noteableId: i });
      const noteable = (await subgraph.run(NOTEABLE, { p: 10, k, i }, as(GUEST))).data?._entities[0].noteable;
      expect(noteable).toEqual({
        kind: k,
        id: i,
        notes: { total: 1, nodes: [{ body: `on ${type}`, noteableType: k, v3NoteableType: type }] },
      });
      // Nothing of that kind with that id in the project: null to read, 404 to write; strangers learn nothing.
      expect(
        (await subgraph.run(NOTEABLE, { p: 10, k, i: 999_999 }, as(GUEST))).data?._entities[0].noteable,
      ).toBeNull();
      expect(errorCode(await subgraph.run(CREATE_NOTE, { p: 10, k, i: 999_999, body: 'x' }, as(GUEST)))).toBe(
        'NOT_FOUND',
      );
      expect(errorCode(await subgraph.run(NOTEABLE, { p: 10, k, i }, as(STRANGER)))).toBe('NOT_FOUND');
      expect(errorCode(await subgraph.run(CREATE_NOTE, { p: 10, k, i, body: 'x' }, as(STRANGER)))).toBe('NOT_FOUND');
    }
  });

  it('leaves no row of a deleted project: writes in flight finish before its cleanup, later ones are 404 though access still says yes', async () => {
    const { databaseId: id } = (await subgraph.run(CREATE_ISSUE, { p: 12, title: 'first' }, as(OWNER))).data!
      .createIssue.issue;
    const writes = Array.from({ length: 20 }, (_, i) =>
      i % 2
        ? subgraph.run(CREATE_ISSUE, { p: 12, title: `issue ${i}` }, as(OWNER))
        : subgraph.run(CREATE_NOTE, { p: 12, i: id, body: `note ${i}` }, as(OWNER)),
    );
    await deleteProjectRows(db.sql, 12);
    const answers = await Promise.all(writes);
    expect(answers.filter((a) => a.errors && errorCode(a) !== 'NOT_FOUND')).toEqual([]);
    // The stand-in still answers for project 12, as a stale access cache would.
    expect(errorCode(await subgraph.run(CREATE_ISSUE, { p: 12, title: 'late' }, as(OWNER)))).toBe('NOT_FOUND');
    const [{ issues, notes }] =
      await db.sql`select (select count(*)::int from issues where project_id = 12) as issues, (select count(*)::int from notes where project_id = 12) as notes`;
    expect({ issues, notes }).toEqual({ issues: 0, notes: 0 });
  });

  it('keeps comments on commits by their full id, optionally on a diff line, for those who may read the code', async () => {
    const COMMENT = `mutation($ref: String!, $body: String!, $path: String, $line: Int, $lineType: String) { createCommitNote(input: { projectId: 10, ref: $ref, body: $body, path: $path, line: $line, lineType: $lineType }) { note { body noteableType v3NoteableType noteableId commitId path line lineType } errors { code path v3Attribute v3Message } } }`;
    const LIST = `query($ref: String!) { _entities(representations: [{ __typename: "Project", databaseId: 10 }]) { ... on Project { commitNotes(ref: $ref) { total nodes { body commitId } } } } }`;
    expect(
      (await subgraph.run(COMMENT, { ref: 'master', body: 'nice' }, as(REPORTER))).data?.createCommitNote.note,
    ).toEqual({
      body: 'nice',
      // A commit is no Noteable: no kind, and v3's Commit on the internal field.
      noteableType: null,
      v3NoteableType: 'Commit',
      noteableId: null,
      commitId: COMMIT.id,
      path: null,
      line: null,
      lineType: null,
    });
    expect(
      (
        await subgraph.run(
          COMMENT,
          { ref: COMMIT.id, body: 'here', path: 'a.rb', line: 3, lineType: 'new' },
          as(REPORTER),
        )
      ).data?.createCommitNote.note,
    ).toMatchObject({ path: 'a.rb', line: 3, lineType: 'new' });
    expect((await subgraph.run(LIST, { ref: 'master' }, as(REPORTER))).data?._entities[0].commitNotes).toEqual({
      total: 2,
      nodes: [
        { body: 'nice', commitId: COMMIT.id },
        { body: 'here', commitId: COMMIT.id },
      ],
    });
    // No such commit: null; half a position or a side other than new/old: refused; Guests of a private project may not read code.
    expect((await subgraph.run(LIST, { ref: 'nope' }, as(REPORTER))).data?._entities[0].commitNotes).toBeNull();
    // A ref that names no commit: a null note without errors, as before the payloads.
    expect((await subgraph.run(COMMENT, { ref: 'nope', body: 'x' }, as(REPORTER))).data?.createCommitNote).toEqual({
      note: null,
      errors: [],
    });
    expect((await subgraph.run(COMMENT, { ref: 'master', body: 'x', path: 'a.rb' }, as(REPORTER))).data).toEqual({
      createCommitNote: {
        note: null,
        errors: [
          {
            code: 'INVALID',
            path: ['input', 'line'],
            v3Attribute: 'line',
            v3Message: 'needs path, line and line_type together',
          },
        ],
      },
    });
    expect(
      (
        await subgraph.run(
          COMMENT,
          { ref: 'master', body: 'x', path: 'a.rb', line: 1, lineType: 'sideways' },
          as(REPORTER),
        )
      ).data?.createCommitNote.errors,
    ).toEqual([
      {
        code: 'INVALID',
        path: ['input', 'lineType'],
        v3Attribute: 'line_type',
        v3Message: 'is not included in the list',
      },
    ]);
    expect(errorCode(await subgraph.run(LIST, { ref: 'master' }, as(GUEST)))).toBe('FORBIDDEN');
    expect(errorCode(await subgraph.run(COMMENT, { ref: 'master', body: 'x' }, as(STRANGER)))).toBe('NOT_FOUND');
  });
});
