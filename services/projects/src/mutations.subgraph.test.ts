import { resolve } from 'node:path';
import {
  ANONYMOUS,
  createAccessClient,
  createCursors,
  namespacesLookup,
  type ApplicationSettings,
  type InternalClient,
  type NamespaceSummary,
  type SettingsClient,
  type Sql,
} from '@hub/common';
import {
  createTestSchema,
  createTestSubgraph,
  errorCode,
  membershipStandIn,
  privateProject,
  userPrincipal,
} from '@hub/common/testing';
import { createLoaders, type ProjectsContext } from './context';
import { createVisibilityRules } from './domain/visibility-rules';
import type { FactsPush } from './membership-facts';
import type { NodeLookup } from './node-lookup';
import { createProjectsService } from './projects-service';
import { createResolvers } from './resolvers';

// The project mutations' inputs and payloads: expected refusals in the payload's errors (with the
// input field at fault and v3's wording for the facade), the caller's clientMutationId echoed,
// visibility as the enum or as v3's raw number, and access refusals left GraphQL errors.

const OWNER = 1;
const DEVELOPER = 2;
const STRANGER = 3;
const ADMIN = 4;
/** Projects seeded with fixed ids, so membership's stand-in knows them. */
const SEEDED = 500;
const DOOMED = 501;

const namespaceOf = (userId: number): NamespaceSummary => ({
  id: 100 + userId,
  path: `user${userId}`,
  name: `User ${userId}`,
  kind: 'user',
  description: '',
  ownerId: userId,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  owner: null,
});

/** Identity's answers: every user has a personal namespace (id 100 + user id), and there are no groups. */
const identity = {
  call: async (contract: unknown, request: { ids?: number[]; ownerIds?: number[] }) => {
    if (contract !== namespacesLookup) throw new Error('not asked in these tests');
    return {
      namespaces: [
        ...(request.ownerIds ?? []).map(namespaceOf),
        ...(request.ids ?? []).filter((id) => id > 100 && id < 200).map((id) => namespaceOf(id - 100)),
      ],
    };
  },
  close: async () => {},
} as unknown as InternalClient;

/** Public is restricted to admins. */
const settings = {
  get: async () =>
    ({
      defaultBranchProtection: 2,
      restrictedVisibilityLevels: [20],
      defaultProjectVisibility: 0,
    }) as ApplicationSettings,
  invalidate: () => {},
} as SettingsClient;

const PROJECT = 'project { databaseId name visibility visibilityLevel }';
const ERRORS = 'errors { code path message v3Attribute v3Message }';
const CREATE = `mutation($input: CreateProjectInput!) { createProject(input: $input) { clientMutationId ${PROJECT} ${ERRORS} } }`;
const UPDATE = `mutation($input: UpdateProjectInput!) { updateProject(input: $input) { clientMutationId ${PROJECT} ${ERRORS} } }`;
const DELETE = `mutation($input: DeleteProjectInput!) { deleteProject(input: $input) { clientMutationId projectId ${ERRORS} } }`;
const TRANSFER = `mutation($input: TransferProjectToGroupInput!) { transferProjectToGroup(input: $input) { ${PROJECT} ${ERRORS} } }`;

describe('projects subgraph: mutations answer payloads', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<ProjectsContext>>>;
  let made = 0;
  const unique = (prefix: string) => `${prefix}-${++made}`;

  beforeAll(async () => {
    db = await createTestSchema('projects', resolve(__dirname, '..', 'migrations'));
    const { sql } = db;
    const membership = membershipStandIn([privateProject(SEEDED, OWNER), privateProject(DOOMED, OWNER)], {
      [DEVELOPER]: 30,
    });
    const access = createAccessClient({ membership, ttlMs: 0 });
    const projects = createProjectsService({
      sql,
      identity,
      membership,
      access,
      visibility: createVisibilityRules({ settings }),
      placeRepository: async () => 'default',
      factsPush: { push: async () => {} } as unknown as FactsPush,
    });
    subgraph = await createTestSubgraph<ProjectsContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({
        sql,
        projects,
        membership,
        externalUrl: 'http://hub.test',
        cursors: createCursors('a-secret-for-tests-only-0123456789'),
      }),
      createContext: (principal) => ({
        principal,
        loaders: createLoaders(sql, access, projects, {} as NodeLookup, principal),
      }),
    });
    for (const [id, name] of [
      [SEEDED, 'seeded'],
      [DOOMED, 'doomed'],
    ] as const)
      await sql`insert into projects (id, namespace_id, namespace_path, namespace_name, owner_id, creator_id, name, path)
        values (${id}, ${100 + OWNER}, ${`user${OWNER}`}, ${`User ${OWNER}`}, ${OWNER}, ${OWNER}, ${name}, ${name})`;
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  it('creates a project with the visibility asked for, and echoes clientMutationId', async () => {
    const name = unique('internal');
    const answer = await subgraph.run(
      CREATE,
      { input: { clientMutationId: 'make-1', name, visibility: 'INTERNAL' } },
      userPrincipal(OWNER),
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.createProject).toEqual({
      clientMutationId: 'make-1',
      project: { databaseId: expect.any(Number), name, visibility: 'INTERNAL', visibilityLevel: 10 },
      errors: [],
    });
  });

  it('answers a missing name in errors, naming the input field, with no project', async () => {
    const answer = await subgraph.run(CREATE, { input: { clientMutationId: 'make-2' } }, userPrincipal(OWNER));
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.createProject).toEqual({
      clientMutationId: 'make-2',
      project: null,
      errors: [
        {
          code: 'INVALID',
          path: ['input', 'name'],
          message: "Name can't be blank",
          v3Attribute: 'name',
          v3Message: "can't be blank",
        },
      ],
    });
  });

  it("answers v3's raw level outside the list, and a restricted visibility, in GitLab's words", async () => {
    const odd = await subgraph.run(
      CREATE,
      { input: { name: unique('odd'), v3VisibilityLevel: 5 } },
      userPrincipal(OWNER),
    );
    expect(odd.data?.createProject).toMatchObject({
      project: null,
      errors: [{ code: 'INVALID', v3Attribute: 'visibility_level', v3Message: 'is not included in the list' }],
    });
    // v3's number wins over the enum when both are given, as the facade's field does.
    const both = await subgraph.run(
      CREATE,
      { input: { name: unique('both'), visibility: 'PRIVATE', v3VisibilityLevel: 10 } },
      userPrincipal(OWNER),
    );
    expect(both.data?.createProject.project).toMatchObject({ visibility: 'INTERNAL' });
    const restricted = await subgraph.run(
      CREATE,
      { input: { name: unique('public'), visibility: 'PUBLIC' } },
      userPrincipal(OWNER),
    );
    expect(restricted.data?.createProject).toMatchObject({
      project: null,
      errors: [
        {
          code: 'INVALID',
          v3Attribute: 'visibility_level',
          v3Message: 'Public visibility has been restricted by your GitLab administrator',
        },
      ],
    });
    const byAdmin = await subgraph.run(
      CREATE,
      { input: { name: unique('public'), visibility: 'PUBLIC' } },
      userPrincipal(ADMIN, { isAdmin: true }),
    );
    expect(byAdmin.data?.createProject).toMatchObject({ project: { visibility: 'PUBLIC' }, errors: [] });
  });

  it('answers a name the namespace has already as CONFLICT in errors', async () => {
    const name = unique('twice');
    await subgraph.run(CREATE, { input: { name } }, userPrincipal(OWNER));
    expect((await subgraph.run(CREATE, { input: { name } }, userPrincipal(OWNER))).data?.createProject).toMatchObject({
      project: null,
      errors: [
        { code: 'CONFLICT', path: ['input', 'name'], v3Attribute: 'name', v3Message: 'has already been taken' },
        { code: 'CONFLICT', path: ['input', 'path'], v3Attribute: 'path', v3Message: 'has already been taken' },
      ],
    });
  });

  it('changes a project, the visibility as the enum', async () => {
    const answer = await subgraph.run(
      UPDATE,
      { input: { clientMutationId: 'change-1', projectId: SEEDED, description: 'd', visibility: 'INTERNAL' } },
      userPrincipal(OWNER),
    );
    expect(answer.data?.updateProject).toEqual({
      clientMutationId: 'change-1',
      project: { databaseId: SEEDED, name: 'seeded', visibility: 'INTERNAL', visibilityLevel: 10 },
      errors: [],
    });
  });

  it('leaves access refusals GraphQL errors, with no payload', async () => {
    const hidden = await subgraph.run(
      UPDATE,
      { input: { projectId: SEEDED, description: 'x' } },
      userPrincipal(STRANGER),
    );
    expect([errorCode(hidden), hidden.data]).toEqual(['NOT_FOUND', null]);
    const forbidden = await subgraph.run(
      UPDATE,
      { input: { projectId: SEEDED, visibility: 'PRIVATE' } },
      userPrincipal(DEVELOPER),
    );
    expect([errorCode(forbidden), forbidden.data]).toEqual(['FORBIDDEN', null]);
    const anonymous = await subgraph.run(CREATE, { input: { name: unique('anon') } }, ANONYMOUS);
    expect([errorCode(anonymous), anonymous.data]).toEqual(['UNAUTHENTICATED', null]);
    const transfer = await subgraph.run(TRANSFER, { input: { projectId: SEEDED, groupId: 9 } }, userPrincipal(OWNER));
    expect([errorCode(transfer), transfer.data]).toEqual(['FORBIDDEN', null]);
  });

  it('answers a transfer into no group in errors, in the words of GitLab 7.14', async () => {
    const answer = await subgraph.run(
      TRANSFER,
      { input: { projectId: SEEDED, groupId: 9 } },
      userPrincipal(ADMIN, { isAdmin: true }),
    );
    expect(answer.data?.transferProjectToGroup).toEqual({
      project: null,
      errors: [
        {
          code: 'INVALID',
          path: null,
          message: 'Failed to transfer project {:new_namespace=>["is invalid"]}',
          v3Attribute: null,
          v3Message: 'Failed to transfer project {:new_namespace=>["is invalid"]}',
        },
      ],
    });
  });

  it("answers the deleted project's id, and null when there was nothing to delete", async () => {
    const forbidden = await subgraph.run(DELETE, { input: { projectId: DOOMED } }, userPrincipal(DEVELOPER));
    expect([errorCode(forbidden), forbidden.data]).toEqual(['FORBIDDEN', null]);
    expect((await subgraph.run(DELETE, { input: { projectId: DOOMED } }, userPrincipal(OWNER))).data).toEqual({
      deleteProject: { clientMutationId: null, projectId: DOOMED, errors: [] },
    });
    // A project that is not there (any more), or that the caller may not see: nothing to delete.
    expect((await subgraph.run(DELETE, { input: { projectId: DOOMED } }, userPrincipal(OWNER))).data).toEqual({
      deleteProject: { clientMutationId: null, projectId: null, errors: [] },
    });
    expect((await subgraph.run(DELETE, { input: { projectId: SEEDED } }, userPrincipal(STRANGER))).data).toEqual({
      deleteProject: { clientMutationId: null, projectId: null, errors: [] },
    });
    expect(
      (await subgraph.run(DELETE, { input: { clientMutationId: 'gone-1', projectId: 99999 } }, userPrincipal(OWNER)))
        .data,
    ).toEqual({ deleteProject: { clientMutationId: 'gone-1', projectId: null, errors: [] } });
  });
});
