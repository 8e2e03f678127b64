import { resolve } from 'node:path';
import { type InternalClient, type ProjectFacts, type Sql } from '@hub/common';
import { createTestSchema, createTestSubgraph, errorCode, testProjectFacts, userPrincipal } from '@hub/common/testing';
import { createLoaders, type MembershipContext } from './context';
import { memberProjectIds } from './db/members';
import { applyProjectFacts } from './db/project-facts';
import { createGroupsService } from './groups-service';
import { createMembershipService } from './membership-service';
import { createResolvers } from './resolvers';

// Users identity knows, for the service's user lookups (identity itself is another service).
const USERS = [1, 2, 3, 4, 5, 6].map((id) => ({
  id,
  username: `user${id}`,
  name: `User ${id}`,
  state: 'active',
  email: `u${id}@x.test`,
  avatarUrl: null,
}));
const identity = {
  call: async (_endpoint: unknown, body: { ids: number[]; query?: string }) => ({
    users: USERS.filter((u) => body.ids.includes(u.id) && (!body.query || u.username.includes(body.query))),
  }),
  close: async () => {},
} as unknown as InternalClient;

const OWNER = 1;
const MASTER = 2;
const DEVELOPER = 3;
const STRANGER = 4;
const ADMIN = userPrincipal(6, { isAdmin: true });
let version = 0;
const facts = (projectId: number, overrides: Partial<ProjectFacts> = {}): ProjectFacts =>
  testProjectFacts(projectId, OWNER, { version: ++version, ...overrides });

const MEMBERS = `query($id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $id }]) { ... on Project { members { total nodes { accessLevel user { databaseId } } } } } }`;
const ADD = `mutation($p: Int!, $u: Int!, $l: Int!) { addProjectMember(projectId: $p, userId: $u, accessLevel: $l) { accessLevel user { databaseId } } }`;
const UPDATE = `mutation($p: Int!, $u: Int!, $l: Int!) { updateProjectMember(projectId: $p, userId: $u, accessLevel: $l) { accessLevel } }`;
const REMOVE = `mutation($p: Int!, $u: Int!) { removeProjectMember(projectId: $p, userId: $u) { removed { accessLevel } } }`;

describe('membership subgraph', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<MembershipContext>>>;
  let groups: ReturnType<typeof createGroupsService>;

  beforeAll(async () => {
    db = await createTestSchema('membership', resolve(__dirname, '..', 'migrations'));
    const membership = createMembershipService({ sql: db.sql, identity });
    groups = createGroupsService({ sql: db.sql, identity });
    subgraph = await createTestSubgraph<MembershipContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({ sql: db.sql, membership, groups }),
      createContext: (principal) => ({ principal, loaders: createLoaders(membership, principal) }),
    });
    await db.sql.begin((tx) => applyProjectFacts(tx, facts(100)));
    await subgraph.run(ADD, { p: 100, u: MASTER, l: 40 }, userPrincipal(OWNER));
    await subgraph.run(ADD, { p: 100, u: DEVELOPER, l: 30 }, userPrincipal(OWNER));
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  it('resolves a project reference to its team: the creator as Master (GitLab 7.14), then members by user id', async () => {
    const result = await subgraph.run(MEMBERS, { id: 100 }, userPrincipal(DEVELOPER));
    expect(result.errors).toBeUndefined();
    expect(result.data?._entities[0].members).toEqual({
      total: 3,
      nodes: [
        { accessLevel: 40, user: { databaseId: OWNER } },
        { accessLevel: 40, user: { databaseId: MASTER } },
        { accessLevel: 30, user: { databaseId: DEVELOPER } },
      ],
    });
  });

  it('reads project and group references by databaseId and answers it as their key', async () => {
    const KEYS = `{ _entities(representations: [{ __typename: "Project", databaseId: 100 }, { __typename: "Group", databaseId: 7 }]) { ... on Project { databaseId } ... on Group { databaseId } } }`;
    const result = await subgraph.run(KEYS, {}, userPrincipal(DEVELOPER));
    expect(result.errors).toBeUndefined();
    expect(result.data?._entities).toEqual([{ databaseId: 100 }, { databaseId: 7 }]);
  });

  it('keeps a private team from strangers (NOT_FOUND), and shows it to admins', async () => {
    expect(errorCode(await subgraph.run(MEMBERS, { id: 100 }, userPrincipal(STRANGER)))).toBe('NOT_FOUND');
    expect(errorCode(await subgraph.run(MEMBERS, { id: 999 }, userPrincipal(OWNER)))).toBe('NOT_FOUND');
    expect((await subgraph.run(MEMBERS, { id: 100 }, ADMIN)).data?._entities[0].members.total).toBe(3);
  });

  it('lets Masters manage the team, not Developers; strangers see no project', async () => {
    expect(errorCode(await subgraph.run(ADD, { p: 100, u: 5, l: 20 }, userPrincipal(DEVELOPER)))).toBe('FORBIDDEN');
    expect(errorCode(await subgraph.run(ADD, { p: 100, u: 5, l: 20 }, userPrincipal(STRANGER)))).toBe('NOT_FOUND');
    expect((await subgraph.run(ADD, { p: 100, u: 5, l: 20 }, userPrincipal(MASTER))).data?.addProjectMember).toEqual({
      accessLevel: 20,
      user: { databaseId: 5 },
    });
  });

  it('adds idempotently, refuses levels outside 10-40 and unknown users', async () => {
    // An existing member keeps the existing membership (GitLab's 201 with it).
    expect(
      (await subgraph.run(ADD, { p: 100, u: DEVELOPER, l: 10 }, userPrincipal(OWNER))).data?.addProjectMember
        .accessLevel,
    ).toBe(30);
    expect(errorCode(await subgraph.run(ADD, { p: 100, u: STRANGER, l: 50 }, userPrincipal(OWNER)))).toBe(
      'UNPROCESSABLE',
    );
    expect(errorCode(await subgraph.run(ADD, { p: 100, u: 77, l: 30 }, userPrincipal(OWNER)))).toBe('NOT_FOUND');
  });

  it("updates levels, the creator's row too (GitLab 7.14), and 404s a non-member", async () => {
    expect(
      (await subgraph.run(UPDATE, { p: 100, u: DEVELOPER, l: 20 }, userPrincipal(MASTER))).data?.updateProjectMember
        .accessLevel,
    ).toBe(20);
    expect(
      (await subgraph.run(UPDATE, { p: 100, u: OWNER, l: 30 }, userPrincipal(MASTER))).data?.updateProjectMember
        .accessLevel,
    ).toBe(30);
    // The namespace owner stays Owner whatever their row says: they still manage the team.
    expect(
      (await subgraph.run(UPDATE, { p: 100, u: OWNER, l: 40 }, userPrincipal(OWNER))).data?.updateProjectMember
        .accessLevel,
    ).toBe(40);
    expect(errorCode(await subgraph.run(UPDATE, { p: 100, u: STRANGER, l: 20 }, userPrincipal(MASTER)))).toBe(
      'NOT_FOUND',
    );
  });

  it("removes idempotently; the creator's row goes like any other and later facts do not bring it back", async () => {
    expect(
      (await subgraph.run(REMOVE, { p: 100, u: 5 }, userPrincipal(MASTER))).data?.removeProjectMember.removed,
    ).toEqual({ accessLevel: 20 });
    expect(
      (await subgraph.run(REMOVE, { p: 100, u: 5 }, userPrincipal(MASTER))).data?.removeProjectMember.removed,
    ).toBeNull();
    await db.sql.begin((tx) => applyProjectFacts(tx, facts(300)));
    expect(
      (await subgraph.run(REMOVE, { p: 300, u: OWNER }, userPrincipal(OWNER))).data?.removeProjectMember.removed,
    ).toEqual({ accessLevel: 40 });
    expect(await db.sql.begin((tx) => applyProjectFacts(tx, facts(300, { visibilityLevel: 10 })))).toBe(true);
    expect((await subgraph.run(MEMBERS, { id: 300 }, userPrincipal(OWNER))).data?._entities[0].members).toEqual({
      total: 0,
      nodes: [],
    });
  });

  it('lists the projects a user is in except their own (projects matches owners itself)', async () => {
    await db.sql.begin((tx) => applyProjectFacts(tx, facts(101, { ownerId: MASTER, creatorId: MASTER })));
    await subgraph.run(ADD, { p: 101, u: OWNER, l: 30 }, userPrincipal(MASTER));
    // OWNER created 100 (a Master row) and owns it; OWNER is a Developer of MASTER's 101.
    expect(await memberProjectIds(db.sql, OWNER)).toEqual([101]);
    expect((await memberProjectIds(db.sql, MASTER)).sort()).toEqual([100]);
    expect(await memberProjectIds(db.sql, STRANGER)).toEqual([]);
    // A transfer swaps whose row counts as their own: MASTER's creator row in 101 is listed now.
    await db.sql.begin((tx) => applyProjectFacts(tx, facts(101, { ownerId: OWNER, creatorId: MASTER })));
    expect(await memberProjectIds(db.sql, OWNER)).toEqual([]);
    expect((await memberProjectIds(db.sql, MASTER)).sort()).toEqual([100, 101]);
  });

  it('applies project facts newest first: an older version changes nothing, a deletion ends the team', async () => {
    await db.sql.begin((tx) => applyProjectFacts(tx, facts(200, { visibilityLevel: 20 })));
    const stale = facts(200, { visibilityLevel: 0, version: 1 });
    expect(await db.sql.begin((tx) => applyProjectFacts(tx, stale))).toBe(false);
    // Public: any signed-in user reads the team.
    expect((await subgraph.run(MEMBERS, { id: 200 }, userPrincipal(STRANGER))).data?._entities[0].members.total).toBe(
      1,
    );
    expect(await db.sql.begin((tx) => applyProjectFacts(tx, facts(200, { deleted: true })))).toBe(true);
    expect(errorCode(await subgraph.run(MEMBERS, { id: 200 }, ADMIN))).toBe('NOT_FOUND');
    // A tombstone stays: no later fact brings the project back.
    expect(await db.sql.begin((tx) => applyProjectFacts(tx, facts(200)))).toBe(false);
  });

  it('adds no member to a project whose deletion is being applied: the add waits for it and finds no project', async () => {
    await db.sql.begin((tx) => applyProjectFacts(tx, facts(300)));
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    // The deletion, applied but not committed yet, as when it lands while an add is authorized.
    const deleting = db.sql.begin(async (tx) => {
      await applyProjectFacts(tx, facts(300, { deleted: true }));
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const adding = subgraph.run(ADD, { p: 300, u: DEVELOPER, l: 30 }, ADMIN);
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await deleting;
    expect(errorCode(await adding)).toBe('NOT_FOUND');
    const [{ count }] = await db.sql`select count(*)::int as count from members where project_id = 300`;
    expect(count).toBe(0);
  });

  describe('groups', () => {
    const GROUP = 500;
    const GROUP_MEMBERS = `query($id: Int!) { _entities(representations: [{ __typename: "Group", databaseId: $id }]) { ... on Group { members { total nodes { accessLevel user { databaseId } } } } } }`;
    const ADD_G = `mutation($g: Int!, $u: Int!, $l: Int!) { addGroupMember(groupId: $g, userId: $u, accessLevel: $l) { accessLevel user { databaseId } } }`;
    const UPDATE_G = `mutation($g: Int!, $u: Int!, $l: Int!) { updateGroupMember(groupId: $g, userId: $u, accessLevel: $l) { accessLevel } }`;
    const REMOVE_G = `mutation($g: Int!, $u: Int!) { removeGroupMember(groupId: $g, userId: $u) { accessLevel } }`;
    const access = (userId: number, projectId: number) =>
      createLoaders(createMembershipService({ sql: db.sql, identity }), userPrincipal(userId)).access.load(projectId);

    beforeAll(async () => {
      expect(
        await groups.applyGroup({ groupId: GROUP, name: 'Team', path: 'team', deleted: false, ownerId: OWNER }),
      ).toBe(true);
      await db.sql.begin((tx) =>
        applyProjectFacts(tx, facts(600, { ownerId: null, namespaceId: GROUP, creatorId: OWNER })),
      );
    });

    it('makes the creator the first Owner, once however often identity says so', async () => {
      await groups.applyGroup({ groupId: GROUP, name: 'Team', path: 'team', deleted: false, ownerId: OWNER });
      expect(
        (await subgraph.run(GROUP_MEMBERS, { id: GROUP }, userPrincipal(OWNER))).data?._entities[0].members,
      ).toEqual({
        total: 1,
        nodes: [{ accessLevel: 50, user: { databaseId: OWNER } }],
      });
    });

    it('lets the Owner manage members; others get FORBIDDEN, a repeat add CONFLICT, a bad level UNPROCESSABLE', async () => {
      expect(
        (await subgraph.run(ADD_G, { g: GROUP, u: DEVELOPER, l: 30 }, userPrincipal(OWNER))).data?.addGroupMember,
      ).toEqual({ accessLevel: 30, user: { databaseId: DEVELOPER } });
      expect(errorCode(await subgraph.run(ADD_G, { g: GROUP, u: DEVELOPER, l: 30 }, userPrincipal(OWNER)))).toBe(
        'CONFLICT',
      );
      expect(errorCode(await subgraph.run(ADD_G, { g: GROUP, u: MASTER, l: 30 }, userPrincipal(DEVELOPER)))).toBe(
        'FORBIDDEN',
      );
      expect(errorCode(await subgraph.run(ADD_G, { g: GROUP, u: MASTER, l: 45 }, userPrincipal(OWNER)))).toBe(
        'UNPROCESSABLE',
      );
      expect(errorCode(await subgraph.run(ADD_G, { g: 9999, u: MASTER, l: 30 }, userPrincipal(OWNER)))).toBe(
        'NOT_FOUND',
      );
      // A stranger who sees none of the group's projects may not see the group: 403 in the words
      // of GitLab's forbidden!(reason), as 7.14.
      const refused = await subgraph.run(GROUP_MEMBERS, { id: GROUP }, userPrincipal(STRANGER));
      expect([errorCode(refused), refused.errors?.[0].message]).toEqual([
        'FORBIDDEN',
        `403 Forbidden  - user${STRANGER} lacks sufficient access to Team`,
      ]);
      expect((await subgraph.run(GROUP_MEMBERS, { id: GROUP }, ADMIN)).data?._entities[0].members.total).toBe(2);
    });

    it("gives a group member their level on the group's projects, without being in the project team", async () => {
      expect(await access(DEVELOPER, 600)).toMatchObject({ memberLevel: null, groupLevel: 30 });
      expect(await access(STRANGER, 600)).toMatchObject({ memberLevel: null, groupLevel: null });
      // The group's projects are in their member list (GET /projects), not in a stranger's.
      expect(await memberProjectIds(db.sql, DEVELOPER)).toContain(600);
      expect(await memberProjectIds(db.sql, STRANGER)).not.toContain(600);
      expect(
        (await subgraph.run(UPDATE_G, { g: GROUP, u: DEVELOPER, l: 40 }, userPrincipal(OWNER))).data?.updateGroupMember
          .accessLevel,
      ).toBe(40);
      expect(await access(DEVELOPER, 600)).toMatchObject({ groupLevel: 40 });
      expect(errorCode(await subgraph.run(UPDATE_G, { g: GROUP, u: STRANGER, l: 20 }, userPrincipal(OWNER)))).toBe(
        'NOT_FOUND',
      );
    });

    it('removes a member (404 for a non-member) and takes the project access with it', async () => {
      expect(
        (await subgraph.run(REMOVE_G, { g: GROUP, u: DEVELOPER }, userPrincipal(OWNER))).data?.removeGroupMember
          .accessLevel,
      ).toBe(40);
      expect(errorCode(await subgraph.run(REMOVE_G, { g: GROUP, u: DEVELOPER }, userPrincipal(OWNER)))).toBe(
        'NOT_FOUND',
      );
      expect(await access(DEVELOPER, 600)).toMatchObject({ groupLevel: null });
      expect(await memberProjectIds(db.sql, DEVELOPER)).not.toContain(600);
    });

    it('a deleted group loses its members and is not revived by a late creation event', async () => {
      expect(
        await groups.applyGroup({ groupId: GROUP, name: 'Team', path: 'team', deleted: true, ownerId: null }),
      ).toBe(false);
      expect(
        await groups.applyGroup({ groupId: GROUP, name: 'Team', path: 'team', deleted: false, ownerId: OWNER }),
      ).toBe(false);
      expect(errorCode(await subgraph.run(GROUP_MEMBERS, { id: GROUP }, ADMIN))).toBe('NOT_FOUND');
      expect(await access(OWNER, 600)).toMatchObject({ groupLevel: null });
    });
  });
});
