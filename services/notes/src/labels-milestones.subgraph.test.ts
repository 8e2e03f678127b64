import { ANONYMOUS } from '@hub/common';
import { errorCode, membershipStandIn, privateProject, userPrincipal } from '@hub/common/testing';
import { notesTestSubgraph } from './testing/notes-subgraph';

const OWNER = 1;
const MASTER = 2;
const REPORTER = 3;
const GUEST = 4;
const STRANGER = 5;
const LEVELS: Record<number, number> = { [MASTER]: 40, [REPORTER]: 20, [GUEST]: 10 };

/** Membership's answers: project 20 is private; 21 has issues and merge requests off; 22 is another private project. */
const membership = membershipStandIn(
  [
    privateProject(20, OWNER),
    privateProject(21, OWNER, { issuesEnabled: false, mergeRequestsEnabled: false }),
    privateProject(22, STRANGER),
  ],
  LEVELS,
);

/** A field of Project $p, as the gateway asks for it; $id when the field uses it. */
const on = (field: string) =>
  `query($p: Int!${field.includes('$id') ? ', $id: Int!' : ''}) { _entities(representations: [{ __typename: "Project", databaseId: $p }]) { ... on Project { ${field} } } }`;
const CREATE_LABEL = `mutation($p: Int!, $name: String, $color: String, $c: String) { createLabel(input: { clientMutationId: $c, projectId: $p, name: $name, color: $color }) { clientMutationId label { id name color } errors { code path message v3Attribute v3Message } } }`;
const UPDATE_LABEL = `mutation($p: Int!, $name: String, $newName: String, $color: String) { updateLabel(input: { projectId: $p, name: $name, newName: $newName, color: $color }) { label { name color } errors { code path message v3Attribute v3Message } } }`;
const DELETE_LABEL = `mutation($p: Int!, $name: String) { deleteLabel(input: { projectId: $p, name: $name }) { label { name } } }`;
const CREATE_ISSUE = `mutation($p: Int!, $title: String!, $labels: [String!], $m: Int) { createIssue(input: { projectId: $p, title: $title, labels: $labels, milestoneId: $m }) { issue { databaseId labels milestone { databaseId title } } } }`;
const CREATE_MILESTONE = `mutation($p: Int!, $title: String, $due: String, $c: String) { createMilestone(input: { projectId: $p, title: $title, dueDate: $due, clientMutationId: $c }) { clientMutationId milestone { databaseId iid title state v3State dueDate } errors { code path message v3Attribute v3Message } } }`;
const UPDATE_MILESTONE = `mutation($p: Int!, $id: Int!, $e: MilestoneStateEvent, $title: String) { updateMilestone(input: { projectId: $p, milestoneId: $id, stateEvent: $e, title: $title }) { milestone { state v3State title } errors { code } } }`;
const VIEWER_ISSUES = `query($labels: [String!]) { viewerIssues(labels: $labels) { total nodes { title } } }`;

describe("notes subgraph: labels, milestones and the viewer's issues", () => {
  const { db, subgraph, start, stop } = notesTestSubgraph({ membership });
  const as = (userId: number) => userPrincipal(userId);

  beforeAll(start);
  afterAll(stop);

  it('keeps labels per project: Reporters make them, a rename or removal rewrites issues and is announced for merge requests', async () => {
    expect(errorCode(await subgraph.run(CREATE_LABEL, { p: 20, name: 'bug', color: '#FF0000' }, as(GUEST)))).toBe(
      'FORBIDDEN',
    );
    expect(
      (await subgraph.run(CREATE_LABEL, { p: 20, name: 'bug', color: '#FF0000' }, as(REPORTER))).data?.createLabel
        .label,
    ).toMatchObject({ name: 'bug', color: '#FF0000' });
    // Expected refusals arrive in the payload, with the caller's clientMutationId.
    expect(
      (await subgraph.run(CREATE_LABEL, { p: 20, name: 'bug', color: '#FF0000', c: 'again' }, as(REPORTER))).data
        ?.createLabel,
    ).toEqual({
      clientMutationId: 'again',
      label: null,
      errors: [
        {
          code: 'CONFLICT',
          path: null,
          message: 'Label already exists',
          v3Attribute: null,
          v3Message: 'Label already exists',
        },
      ],
    });
    expect((await subgraph.run(CREATE_LABEL, { p: 20, name: 'x' }, as(REPORTER))).data?.createLabel.errors).toEqual([
      {
        code: 'INVALID',
        path: null,
        message: '"color" not given',
        v3Attribute: null,
        v3Message: '400 (Bad request) "color" not given',
      },
    ]);
    expect(
      (await subgraph.run(UPDATE_LABEL, { p: 20, name: 'bug', color: 'red' }, as(REPORTER))).data?.updateLabel,
    ).toEqual({
      label: null,
      errors: [
        {
          code: 'INVALID',
          path: ['input', 'color'],
          message: 'Color is invalid',
          v3Attribute: 'color',
          v3Message: 'is invalid',
        },
      ],
    });
    // Refused label names keep GitLab's nested hash, which a UserError cannot hold: a GraphQL error.
    const refusedNames = await subgraph.run(CREATE_ISSUE, { p: 20, title: 'x', labels: ['a&b'] }, as(GUEST));
    expect(refusedNames.errors?.[0].extensions).toMatchObject({
      code: 'VALIDATION',
      fields: { labels: { 'a&b': { title: ['is invalid'] } } },
    });
    const issue = (await subgraph.run(CREATE_ISSUE, { p: 20, title: 'labelled', labels: ['bug', ' made '] }, as(GUEST)))
      .data!.createIssue.issue;
    expect(issue.labels).toEqual(['bug', 'made']);
    const labels = (await subgraph.run(on('labels { total nodes { name color } }'), { p: 20 }, as(GUEST))).data
      ?._entities[0].labels;
    expect(labels).toEqual({
      total: 2,
      nodes: [
        { name: 'bug', color: '#FF0000' },
        { name: 'made', color: '#428BCA' },
      ],
    });

    // Renamed to a name that sorts first: the issue's names stay sorted.
    expect(
      (await subgraph.run(UPDATE_LABEL, { p: 20, name: 'made', newName: 'ami' }, as(REPORTER))).data?.updateLabel.label,
    ).toEqual({ name: 'ami', color: '#428BCA' });
    expect(
      (await subgraph.run(on('issue(id: $id) { labels }'), { p: 20, id: issue.databaseId }, as(GUEST))).data
        ?._entities[0].issue.labels,
    ).toEqual(['ami', 'bug']);
    expect((await subgraph.run(DELETE_LABEL, { p: 20, name: 'bug' }, as(REPORTER))).data?.deleteLabel.label).toEqual({
      name: 'bug',
    });
    expect(
      (await subgraph.run(on('issue(id: $id) { labels }'), { p: 20, id: issue.databaseId }, as(GUEST))).data
        ?._entities[0].issue.labels,
    ).toEqual(['ami']);
    expect(errorCode(await subgraph.run(DELETE_LABEL, { p: 20, name: 'bug' }, as(REPORTER)))).toBe('NOT_FOUND');
    const events = await db.sql<{ type: string; payload: { previous_title: string; title: string | null } }[]>`
      select event_type as type, payload from outbox where event_type like 'label.%' order by id`;
    expect(events.map((e) => [e.type, e.payload.previous_title, e.payload.title])).toEqual([
      ['label.updated', 'made', 'ami'],
      ['label.deleted', 'bug', null],
    ]);
  });

  it('numbers milestones per project, lets Masters make and close them, and takes them away with issues and merge requests', async () => {
    expect(errorCode(await subgraph.run(CREATE_MILESTONE, { p: 20, title: 'x' }, as(REPORTER)))).toBe('FORBIDDEN');
    // A missing title is an expected refusal: the payload says so, and echoes the caller's id.
    expect((await subgraph.run(CREATE_MILESTONE, { p: 20, c: 'try-1' }, as(MASTER))).data?.createMilestone).toEqual({
      clientMutationId: 'try-1',
      milestone: null,
      errors: [
        {
          code: 'INVALID',
          path: null,
          message: '"title" not given',
          v3Attribute: null,
          v3Message: '400 (Bad request) "title" not given',
        },
      ],
    });
    const first = (await subgraph.run(CREATE_MILESTONE, { p: 20, title: 'one', due: '2027-02-30' }, as(MASTER))).data!
      .createMilestone.milestone;
    const second = (await subgraph.run(CREATE_MILESTONE, { p: 20, title: 'two', due: '2027/03/01' }, as(MASTER))).data!
      .createMilestone.milestone;
    expect([first, second]).toEqual([
      { databaseId: expect.any(Number), iid: 1, title: 'one', state: 'ACTIVE', v3State: 'active', dueDate: null },
      {
        databaseId: expect.any(Number),
        iid: 2,
        title: 'two',
        state: 'ACTIVE',
        v3State: 'active',
        dueDate: '2027-03-01',
      },
    ]);
    // The public state is an enum; v3's spelling stays on the internal v3State, for the facade.
    expect(
      (await subgraph.run(UPDATE_MILESTONE, { p: 20, id: first.databaseId, e: 'CLOSE' }, as(MASTER))).data
        ?.updateMilestone,
    ).toEqual({ milestone: { state: 'CLOSED', v3State: 'closed', title: 'one' }, errors: [] });
    const closed = (await subgraph.run(on('milestones(state: CLOSED) { total nodes { title } }'), { p: 20 }, as(GUEST)))
      .data?._entities[0].milestones;
    expect(closed).toEqual({ total: 1, nodes: [{ title: 'one' }] });
    expect(errorCode(await subgraph.run(on('milestones { total }'), { p: 20 }, as(STRANGER)))).toBe('NOT_FOUND');
    expect(errorCode(await subgraph.run(on('milestones { total }'), { p: 21 }, as(OWNER)))).toBe('FORBIDDEN');
    // Another project's milestone is none of this one's.
    expect(
      (await subgraph.run(on('milestone(id: $id) { databaseId }'), { p: 20, id: first.databaseId }, as(GUEST))).data
        ?._entities[0].milestone,
    ).toEqual({ databaseId: first.databaseId });
    expect(
      (await subgraph.run(on('milestone(id: $id) { databaseId }'), { p: 22, id: first.databaseId }, as(STRANGER))).data
        ?._entities[0].milestone,
    ).toBeNull();
  });

  it("shows a merge request's milestone (an entity reference) only to those who may read its project", async () => {
    const milestone = (await subgraph.run(CREATE_MILESTONE, { p: 20, title: 'referenced' }, as(OWNER))).data!
      .createMilestone.milestone;
    const REFERENCE = `query($id: Int!) { _entities(representations: [{ __typename: "Milestone", databaseId: $id }]) { ... on Milestone { title issues { total } } } }`;
    expect((await subgraph.run(REFERENCE, { id: milestone.databaseId }, as(GUEST))).data?._entities[0]).toEqual({
      title: 'referenced',
      issues: { total: 0 },
    });
    expect((await subgraph.run(REFERENCE, { id: milestone.databaseId }, as(STRANGER))).data?._entities[0]).toBeNull();
    expect((await subgraph.run(REFERENCE, { id: 999_999 }, as(GUEST))).data?._entities[0]).toBeNull();
  });

  it("hides a merge request's milestone (read_milestone) once its project has issues and merge requests both disabled, even from the owner", async () => {
    // Project 21 has both off, so nobody may make a milestone there any more: one from before.
    const [{ id }] = await db.sql<
      { id: number }[]
    >`insert into milestones (project_id, iid, title) values (21, 1, 'from before') returning id`;
    const REFERENCE = `query($id: Int!) { _entities(representations: [{ __typename: "Milestone", databaseId: $id }]) { ... on Milestone { title } } }`;
    expect((await subgraph.run(REFERENCE, { id }, as(OWNER))).data?._entities[0]).toBeNull();
    expect((await subgraph.run(on('issues { total }'), { p: 21 }, as(OWNER))).data?._entities[0].issues).toEqual({
      total: 0,
    });
  });

  it("gives issues a milestone from Reporter up, and lists the viewer's own issues across projects", async () => {
    const milestone = (await subgraph.run(CREATE_MILESTONE, { p: 20, title: 'planned' }, as(OWNER))).data!
      .createMilestone.milestone;
    expect(
      (await subgraph.run(CREATE_ISSUE, { p: 20, title: 'by reporter', m: milestone.databaseId }, as(REPORTER))).data
        ?.createIssue.issue.milestone,
    ).toEqual({ databaseId: milestone.databaseId, title: 'planned' });
    expect(
      (
        await subgraph.run(
          CREATE_ISSUE,
          { p: 20, title: 'by guest', m: milestone.databaseId, labels: ['guest-made'] },
          as(GUEST),
        )
      ).data?.createIssue.issue.milestone,
    ).toBeNull();
    const ofMilestone = (
      await subgraph.run(
        on('milestone(id: $id) { issues { total nodes { title } } }'),
        { p: 20, id: milestone.databaseId },
        as(GUEST),
      )
    ).data?._entities[0].milestone.issues;
    expect(ofMilestone).toEqual({ total: 1, nodes: [{ title: 'by reporter' }] });
    expect((await subgraph.run(VIEWER_ISSUES, {}, as(REPORTER))).data?.viewerIssues).toEqual({
      total: 1,
      nodes: [{ title: 'by reporter' }],
    });
    expect((await subgraph.run(VIEWER_ISSUES, { labels: ['guest-made'] }, as(GUEST))).data?.viewerIssues).toEqual({
      total: 1,
      nodes: [{ title: 'by guest' }],
    });
    expect(errorCode(await subgraph.run(VIEWER_ISSUES, {}, ANONYMOUS))).toBe('UNAUTHENTICATED');
  });
});
