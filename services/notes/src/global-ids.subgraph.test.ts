import { ANONYMOUS } from '@hub/common';
import { errorCode, lookupBesideEntities, membershipStandIn, privateProject, userPrincipal } from '@hub/common/testing';
import { notesTestSubgraph } from './testing/notes-subgraph';

const OWNER = 1;
const GUEST = 2;
const STRANGER = 3;

/**
 * Membership's answers: 30 is private (GUEST is its Guest, STRANGER nothing); 31 is public; 32 is
 * private with issues and merge requests both off.
 */
const membership = membershipStandIn(
  [
    privateProject(30, OWNER),
    privateProject(31, OWNER, { visibilityLevel: 20 }),
    privateProject(32, OWNER, { issuesEnabled: false, mergeRequestsEnabled: false }),
  ],
  { [GUEST]: 10 },
);

const CREATE_ISSUE = `mutation($p: Int!, $title: String!) { createIssue(input: { projectId: $p, title: $title }) { issue { id databaseId iid } } }`;
const CREATE_MILESTONE = `mutation($p: Int!, $title: String!) { createMilestone(input: { projectId: $p, title: $title }) { milestone { id databaseId } } }`;
/** What node(id:) asks the owner for: entities by representation. */
const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) {
  ... on Issue { __typename id databaseId title }
  ... on Milestone { __typename id databaseId title }
} }`;
const PROJECT_ISSUE = `query($p: Int!, $id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { issue(id: $id) { id databaseId title } } } }`;
const PROJECT_MILESTONE = `query($p: Int!, $id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { milestone(id: $id) { id databaseId title } } } }`;

describe('notes subgraph: global ids of issues and milestones', () => {
  const { db, subgraph, start, stop } = notesTestSubgraph({ membership });
  const as = (userId: number) => userPrincipal(userId);
  let issue: { id: string; databaseId: number; iid: number };
  let publicIssue: { id: string; databaseId: number; iid: number };
  let milestone: { id: string; databaseId: number };
  let publicMilestone: { id: string; databaseId: number };
  let hiddenIssueId: number;
  let hiddenMilestoneId: number;

  /** `_entities` for one representation, as `principal`: the entity (or null), with no error. */
  const entity = async (representation: Record<string, unknown>, principal = as(GUEST)) => {
    const result = await subgraph.run(ENTITIES, { r: [representation] }, principal);
    expect(result.errors).toBeUndefined();
    return result.data?._entities[0];
  };

  beforeAll(async () => {
    await start();
    issue = (await subgraph.run(CREATE_ISSUE, { p: 30, title: 'private' }, as(OWNER))).data!.createIssue.issue;
    publicIssue = (await subgraph.run(CREATE_ISSUE, { p: 31, title: 'public' }, as(OWNER))).data!.createIssue.issue;
    milestone = (await subgraph.run(CREATE_MILESTONE, { p: 30, title: 'private m' }, as(OWNER))).data!.createMilestone
      .milestone;
    publicMilestone = (await subgraph.run(CREATE_MILESTONE, { p: 31, title: 'public m' }, as(OWNER))).data!
      .createMilestone.milestone;
    // Project 32 has issues and merge requests off, so nobody may make either there any more: rows from before.
    [{ id: hiddenIssueId }] = await db.sql<{ id: number }[]>`
      insert into issues (project_id, iid, title, author_id, labels) values (32, 1, 'from before', ${OWNER}, '{}') returning id`;
    [{ id: hiddenMilestoneId }] = await db.sql<{ id: number }[]>`
      insert into milestones (project_id, iid, title) values (32, 1, 'from before') returning id`;
  });
  afterAll(stop);

  it('shows the global id as id and the numeric id as databaseId', async () => {
    expect(typeof issue.databaseId).toBe('number');
    expect(issue.id).toBe(`gid://hub/Issue/${issue.databaseId}`);
    expect(typeof milestone.databaseId).toBe('number');
    expect(milestone.id).toBe(`gid://hub/Milestone/${milestone.databaseId}`);
    expect(
      (await subgraph.run(PROJECT_ISSUE, { p: 30, id: issue.databaseId }, as(GUEST))).data?._entities[0].issue,
    ).toEqual({ id: issue.id, databaseId: issue.databaseId, title: 'private' });
    expect(
      (await subgraph.run(PROJECT_MILESTONE, { p: 30, id: milestone.databaseId }, as(GUEST))).data?._entities[0]
        .milestone,
    ).toEqual({ id: milestone.id, databaseId: milestone.databaseId, title: 'private m' });
  });

  it('resolves an issue and a milestone by global id for those who may see them', async () => {
    expect(await entity({ __typename: 'Issue', id: issue.id })).toEqual({
      __typename: 'Issue',
      id: issue.id,
      databaseId: issue.databaseId,
      title: 'private',
    });
    expect(await entity({ __typename: 'Milestone', id: milestone.id })).toEqual({
      __typename: 'Milestone',
      id: milestone.id,
      databaseId: milestone.databaseId,
      title: 'private m',
    });
    // Other subgraphs' references, by databaseId or (issues) by project and number, resolve as before.
    expect(await entity({ __typename: 'Issue', databaseId: issue.databaseId })).toMatchObject({ id: issue.id });
    expect(await entity({ __typename: 'Issue', projectId: 30, iid: issue.iid })).toMatchObject({ id: issue.id });
    expect(await entity({ __typename: 'Milestone', databaseId: milestone.databaseId })).toMatchObject({
      id: milestone.id,
    });
  });

  it.each([
    ['malformed', 'gid://hub/Issue/abc', 'gid://hub/Milestone/'],
    ['a bare number', '1', '1'],
    ['zero', 'gid://hub/Issue/0', 'gid://hub/Milestone/0'],
    ['of an unknown type', 'gid://hub/Nope/1', 'gid://hub/Nope/1'],
    ['another prefix', 'gid://gitlab/Issue/1', 'gid://gitlab/Milestone/1'],
    ['absent', 'gid://hub/Issue/999999', 'gid://hub/Milestone/999999'],
  ])('resolves a global id that is %s to null', async (_name, issueId, milestoneId) => {
    expect(await entity({ __typename: 'Issue', id: issueId }, as(OWNER))).toBeNull();
    expect(await entity({ __typename: 'Milestone', id: milestoneId }, as(OWNER))).toBeNull();
  });

  it("resolves another type's global id, though its number names an object of this type, to null", async () => {
    expect(await entity({ __typename: 'Issue', id: `gid://hub/Milestone/${issue.databaseId}` }, as(OWNER))).toBeNull();
    expect(await entity({ __typename: 'Issue', id: `gid://hub/Project/${issue.databaseId}` }, as(OWNER))).toBeNull();
    expect(
      await entity({ __typename: 'Milestone', id: `gid://hub/Issue/${milestone.databaseId}` }, as(OWNER)),
    ).toBeNull();
  });

  it("gives a stranger or an anonymous caller asking for a private project's issue or milestone what an absent id gives: null", async () => {
    for (const principal of [as(STRANGER), ANONYMOUS]) {
      expect(await entity({ __typename: 'Issue', id: issue.id }, principal)).toBeNull();
      expect(await entity({ __typename: 'Issue', databaseId: issue.databaseId }, principal)).toBeNull();
      expect(await entity({ __typename: 'Milestone', id: milestone.id }, principal)).toBeNull();
      expect(await entity({ __typename: 'Milestone', databaseId: milestone.databaseId }, principal)).toBeNull();
      const [hidden, absent] = await Promise.all([
        subgraph.run(ENTITIES, { r: [{ __typename: 'Issue', id: issue.id }] }, principal),
        subgraph.run(ENTITIES, { r: [{ __typename: 'Issue', id: 'gid://hub/Issue/999999' }] }, principal),
      ]);
      expect(hidden).toEqual(absent);
    }
  });

  it('applies the read path of each: an issue as Project.issue (read_project), a milestone as Project.milestone (read_milestone)', async () => {
    // A public project's issue is anyone's to read; its milestones need a signed-in user (read_milestone).
    expect(await entity({ __typename: 'Issue', id: publicIssue.id }, ANONYMOUS)).toMatchObject({ title: 'public' });
    expect(await entity({ __typename: 'Issue', id: publicIssue.id }, as(STRANGER))).toMatchObject({ title: 'public' });
    expect(errorCode(await subgraph.run(PROJECT_MILESTONE, { p: 31, id: publicMilestone.databaseId }, ANONYMOUS))).toBe(
      'FORBIDDEN',
    );
    expect(await entity({ __typename: 'Milestone', id: publicMilestone.id }, ANONYMOUS)).toBeNull();
    expect(await entity({ __typename: 'Milestone', id: publicMilestone.id }, as(STRANGER))).toMatchObject({
      title: 'public m',
    });

    // Issues and merge requests both off: Project.issue still reads the issue (v3 checked no feature
    // there), Project.milestone refuses, even the owner; the global ids follow.
    const hiddenIssue = `gid://hub/Issue/${hiddenIssueId}`;
    expect(
      (await subgraph.run(PROJECT_ISSUE, { p: 32, id: hiddenIssueId }, as(OWNER))).data?._entities[0].issue,
    ).toEqual({ id: hiddenIssue, databaseId: hiddenIssueId, title: 'from before' });
    expect(await entity({ __typename: 'Issue', id: hiddenIssue }, as(OWNER))).toMatchObject({
      databaseId: hiddenIssueId,
    });
    expect(errorCode(await subgraph.run(PROJECT_MILESTONE, { p: 32, id: hiddenMilestoneId }, as(OWNER)))).toBe(
      'FORBIDDEN',
    );
    expect(
      await entity({ __typename: 'Milestone', id: `gid://hub/Milestone/${hiddenMilestoneId}` }, as(OWNER)),
    ).toBeNull();
  });

  it('answers a batch of issues named by project and iid or by databaseId (loaded together) each by itself', async () => {
    // Project 32's issue is there for read_project, as Project.issue shows it, though issues are off.
    const result = await subgraph.run(
      ENTITIES,
      {
        r: [
          { __typename: 'Issue', projectId: 30, iid: issue.iid },
          { __typename: 'Issue', projectId: 31, iid: 999_999 },
          { __typename: 'Issue', projectId: 31, iid: publicIssue.iid },
          { __typename: 'Issue', databaseId: publicIssue.databaseId },
          { __typename: 'Issue', projectId: 32, iid: 1 },
          { __typename: 'Issue', projectId: 30, iid: 2_147_483_648 },
          { __typename: 'Issue', databaseId: issue.databaseId },
        ],
      },
      as(GUEST),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?._entities.map((e: { id: string } | null) => e?.id ?? null)).toEqual([
      issue.id,
      null,
      publicIssue.id,
      publicIssue.id,
      `gid://hub/Issue/${hiddenIssueId}`,
      null,
      issue.id,
    ]);
  });

  it('answers each representation of a batch by itself', async () => {
    const result = await subgraph.run(
      ENTITIES,
      {
        r: [
          { __typename: 'Issue', id: issue.id },
          { __typename: 'Issue', id: 'gid://hub/Issue/999999' },
          { __typename: 'Milestone', id: milestone.id },
          { __typename: 'Issue', id: publicIssue.id },
        ],
      },
      as(STRANGER),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?._entities.map((e: { id: string } | null) => e?.id ?? null)).toEqual([
      null,
      null,
      null,
      publicIssue.id,
    ]);
  });

  it("answers issueNodes(ids:) and noteNodes(ids:), the gateway's one-hop lookups, as _entities answers each global id", async () => {
    const note = (
      await subgraph.run(
        `mutation($p: Int!, $i: Int!) { createNote(input: { projectId: $p, noteable: ISSUE, noteableId: $i, body: "n" }) { note { id } } }`,
        { p: 30, i: issue.databaseId },
        as(OWNER),
      )
    ).data!.createNote.note as { id: string };
    // Past a Postgres integer, and at the end of the safe range: no such row, no error.
    const issueIds = [
      issue.id,
      publicIssue.id,
      `gid://hub/Issue/${hiddenIssueId}`,
      'gid://hub/Issue/999999',
      issue.id,
      `gid://hub/Issue/${2 ** 31}`,
    ];
    const noteIds = [note.id, 'gid://hub/Note/999999', `gid://hub/Note/${Number.MAX_SAFE_INTEGER}`];
    const ISSUES = { field: 'issueNodes', type: 'Issue', selection: '__typename id databaseId title' };
    const NOTES = { field: 'noteNodes', type: 'Note', selection: '__typename id' };
    const ids = (nodes: unknown[] | undefined) => nodes?.map((found) => (found as { id: string } | null)?.id ?? null);
    for (const principal of [as(OWNER), as(GUEST), as(STRANGER), ANONYMOUS]) {
      const issues = await lookupBesideEntities(subgraph, ISSUES, issueIds, principal);
      expect(issues.errors).toBeUndefined();
      expect(issues.nodes).toEqual(issues.entities);
      const notes = await lookupBesideEntities(subgraph, NOTES, noteIds, principal);
      expect(notes.errors).toBeUndefined();
      expect(notes.nodes).toEqual(notes.entities);
    }
    // The owner sees all that exists; a stranger only the public project's issue.
    expect(ids((await lookupBesideEntities(subgraph, ISSUES, issueIds, as(OWNER))).nodes)).toEqual([
      issue.id,
      publicIssue.id,
      `gid://hub/Issue/${hiddenIssueId}`,
      null,
      issue.id,
      null,
    ]);
    expect(ids((await lookupBesideEntities(subgraph, NOTES, noteIds, as(OWNER))).nodes)).toEqual([note.id, null, null]);
    expect(ids((await lookupBesideEntities(subgraph, ISSUES, issueIds, as(STRANGER))).nodes)).toEqual([
      null,
      publicIssue.id,
      null,
      null,
      null,
      null,
    ]);
  });

  it.each([
    ['of another type', ['gid://hub/Milestone/1'], /not a global id of type Issue/],
    ['not a global id', ['1'], /not a global id/],
    ['more than 100', Array.from({ length: 101 }, (_, i) => `gid://hub/Issue/${i + 1}`), /at most 100 ids/],
  ])('refuses issueNodes(ids:) an id %s with BAD_USER_INPUT', async (_name, ids, message) => {
    const result = await subgraph.run(`query($i: [ID!]!) { issueNodes(ids: $i) { id } }`, { i: ids }, as(OWNER));
    expect(errorCode(result)).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toMatch(message);
  });
});
