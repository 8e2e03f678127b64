import { createProject, createUser, graphql, unique, type TestProject, type TestUser } from '../support/api';

// Mutations in the public schema, as an internal team's client sends them: one input, a payload
// with the entity, the clientMutationId echoed, and errors for the refusals a person should see
// (with a code and the input field at fault); what the caller may not do stays a GraphQL error.

describe('mutations in the public schema', () => {
  let owner: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  beforeAll(async () => {
    [owner, stranger] = await Promise.all([createUser(), createUser()]);
    project = await createProject(owner.token);
  });

  const send = async (query: string, input: Record<string, unknown>, token = owner.token) =>
    (await graphql(query, { input }, { 'PRIVATE-TOKEN': token })).body;

  const CREATE_PROJECT = `mutation ($input: CreateProjectInput!) {
    createProject(input: $input) { clientMutationId project { id databaseId name visibility } errors { code path message } }
  }`;
  const CREATE_LABEL = `mutation ($input: CreateLabelInput!) {
    createLabel(input: $input) { clientMutationId label { id name color } errors { code path message } }
  }`;
  const UPDATE_MILESTONE = `mutation ($input: UpdateMilestoneInput!) {
    updateMilestone(input: $input) { milestone { title state } errors { code message } }
  }`;

  it('makes the object, answers it in the payload and echoes clientMutationId', async () => {
    const name = unique('made');
    const body = await send(CREATE_PROJECT, { clientMutationId: 'req-1', name, visibility: 'INTERNAL' });
    expect(body.errors).toBeUndefined();
    expect(body.data.createProject).toEqual({
      clientMutationId: 'req-1',
      project: {
        id: expect.stringMatching(/^gid:\/\/hub\/Project\/\d+$/),
        databaseId: expect.any(Number),
        name,
        visibility: 'INTERNAL',
      },
      errors: [],
    });
  });

  it('answers an invalid value in errors, with its code and the input field at fault, and no object', async () => {
    const body = await send(CREATE_PROJECT, { clientMutationId: 'req-2', name: '-starts with a dash' });
    expect(body.errors).toBeUndefined();
    expect(body.data.createProject).toEqual({
      clientMutationId: 'req-2',
      project: null,
      errors: [
        expect.objectContaining({ code: 'INVALID', path: ['input', 'name'], message: expect.stringMatching(/^Name /) }),
      ],
    });
  });

  it('answers a name already taken as CONFLICT in errors', async () => {
    const input = { projectId: project.id, name: unique('bug'), color: '#aa0000' };
    const made = await send(CREATE_LABEL, input);
    expect(made.data.createLabel).toMatchObject({ label: { name: input.name, color: '#aa0000' }, errors: [] });
    const again = await send(CREATE_LABEL, { ...input, clientMutationId: 'twice' });
    expect(again.data.createLabel).toEqual({
      clientMutationId: 'twice',
      label: null,
      errors: [{ code: 'CONFLICT', path: null, message: 'Label already exists' }],
    });
  });

  it('takes state events as enums', async () => {
    const made = await graphql(
      `
        mutation ($input: CreateMilestoneInput!) {
          createMilestone(input: $input) {
            milestone {
              databaseId
            }
            errors {
              code
            }
          }
        }
      `,
      { input: { projectId: project.id, title: unique('m') } },
      { 'PRIVATE-TOKEN': owner.token },
    );
    const milestoneId = made.body.data.createMilestone.milestone.databaseId;
    const closed = await send(UPDATE_MILESTONE, { projectId: project.id, milestoneId, stateEvent: 'CLOSE' });
    expect(closed.data.updateMilestone).toMatchObject({ milestone: { state: 'CLOSED' }, errors: [] });
    const refused = await send(UPDATE_MILESTONE, { projectId: project.id, milestoneId, stateEvent: 'close' });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('keeps what the caller may not do a GraphQL error with extensions.code, and changes nothing', async () => {
    const name = unique('theirs');
    const body = await send(CREATE_LABEL, { projectId: project.id, name, color: '#00aa00' }, stranger.token);
    expect(body.data?.createLabel ?? null).toBeNull();
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const anonymous = await graphql(CREATE_LABEL, { input: { projectId: project.id, name, color: '#00aa00' } });
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const labels = await graphql(
      `
        query ($path: String!) {
          project(fullPath: $path) {
            labels(first: 100) {
              nodes {
                name
              }
            }
          }
        }
      `,
      { path: project.path_with_namespace },
      { 'PRIVATE-TOKEN': owner.token },
    );
    expect(labels.body.data.project.labels.nodes.map((l: { name: string }) => l.name)).not.toContain(name);
  });
});
