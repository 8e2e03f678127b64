import { addMember, api, createProject, createUser, graphql, stack, type TestUser } from '../support/api';

const PROJECT_QUERY = `query($id: Int!) {
  project(id: $id) {
    id: databaseId name pathWithNamespace visibility public httpUrlToRepo
    namespace { path }
    owner { username }
    permissions { projectAccess { accessLevel notificationLevel } groupAccess { accessLevel } }
    members { count nodes { accessLevel user { id: databaseId username } } }
  }
}`;

describe('projects through the GraphQL gateway', () => {
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    owner = await createUser();
    member = await createUser();
    stranger = await createUser();
  });

  it('gives a project with its members and the viewer permissions, the same data as REST', async () => {
    const project = await createProject(owner.token);
    await addMember(project.id, member.id, 30);
    const { body } = await graphql(PROJECT_QUERY, { id: project.id }, { 'PRIVATE-TOKEN': member.token });
    expect(body.errors).toBeUndefined();
    const rest = await api('GET', `/projects/${project.id}`, { token: member.token });
    expect(body.data.project).toEqual({
      id: project.id,
      name: rest.body.name,
      pathWithNamespace: rest.body.path_with_namespace,
      visibility: 'PRIVATE',
      public: false,
      httpUrlToRepo: rest.body.http_url_to_repo,
      namespace: { path: owner.username },
      owner: { username: owner.username },
      permissions: { projectAccess: { accessLevel: 'DEVELOPER', notificationLevel: 3 }, groupAccess: null },
      members: {
        count: 2,
        nodes: [
          { accessLevel: 'MASTER', user: { id: owner.id, username: owner.username } },
          { accessLevel: 'DEVELOPER', user: { id: member.id, username: member.username } },
        ],
      },
    });
  });

  it('gives null for a private project the viewer may not see', async () => {
    const project = await createProject(owner.token);
    const { body } = await graphql(PROJECT_QUERY, { id: project.id }, { 'PRIVATE-TOKEN': stranger.token });
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ project: null });
  });

  it('lists projects by scope and looks them up by full path', async () => {
    const project = await createProject(owner.token, { visibility_level: 10 });
    const { body } = await graphql(
      `query($path: String!) { project(fullPath: $path) { id: databaseId } projects(scope: VISIBLE, search: $name) { count nodes { id: databaseId } } }`.replace(
        '$name',
        JSON.stringify(project.name),
      ),
      { path: project.path_with_namespace },
      { 'PRIVATE-TOKEN': stranger.token },
    );
    expect(body.data).toEqual({ project: { id: project.id }, projects: { count: 1, nodes: [{ id: project.id }] } });
  });

  it('refuses ALL to non-admins with FORBIDDEN', async () => {
    const { body } = await graphql(
      `
        {
          projects(scope: ALL) {
            count
          }
        }
      `,
      {},
      { 'PRIVATE-TOKEN': stranger.token },
    );
    expect(body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('describes the types and fields it adds', async () => {
    const { body } = await graphql(
      `
        {
          project: __type(name: "Project") {
            description
            fields {
              name
              description
            }
          }
          member: __type(name: "ProjectMember") {
            description
          }
        }
      `,
      {},
      { 'PRIVATE-TOKEN': stack.rootToken },
    );
    expect(body.data.project.description).toEqual(expect.any(String));
    expect(body.data.member.description).toMatch(/GUEST to MASTER/);
    const described = new Map(
      body.data.project.fields.map((f: { name: string; description: string | null }) => [f.name, f.description]),
    );
    for (const field of ['members', 'permissions', 'visibility', 'events', 'forkedFromProject', 'httpUrlToRepo']) {
      expect(described.get(field)).toEqual(expect.any(String));
    }
  });
});
