import { resolve } from 'node:path';
import { accessLevelEnumOf, createCursors, type InternalClient, type ProjectFacts, type Sql } from '@hub/common';
import { createTestSchema, createTestSubgraph, errorCode, testProjectFacts, userPrincipal } from '@hub/common/testing';
import { createLoaders, type MembershipContext } from './context';
import { memberProjectIds } from './db/members';
import { applyProjectFacts } from './db/project-facts';
import { createGroupsService } from './groups-service';
import { createMembershipService } from './membership-service';
import { createResolvers } from './resolvers';

// Users identity knows, for the service's user lookups (identity itself is another service); those
// from 1000 fill the paged lists.
const USERS = [1, 2, 3, 4, 5, 6, ...Array.from({ length: 200 }, (_, i) => 1000 + i)].map((id) => ({
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

const CURSOR_SECRET = 'a-secret-for-tests-only-0123456789';
const OWNER = 1;
const MASTER = 2;
const DEVELOPER = 3;
const STRANGER = 4;
const ADMIN = userPrincipal(6, { isAdmin: true });
let version = 0;
const facts = (projectId: number, overrides: Partial<ProjectFacts> = {}): ProjectFacts =>
  testProjectFacts(projectId, OWNER, { version: ++version, ...overrides });

// Read as the facade reads them: v3's numbers (v3AccessLevel) under their v3 name, pages by number.
const MEMBERS = `query($id: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $id }]) { ... on Project { members(page: 1) { total nodes { accessLevel: v3AccessLevel user { databaseId } } } } } }`;
const ADD = `mutation($p: Int!, $u: Int!, $l: Int, $a: AccessLevel, $c: String) { addProjectMember(input: { clientMutationId: $c, projectId: $p, userId: $u, accessLevel: $a, v3AccessLevel: $l }) { clientMutationId projectMember { accessLevel: v3AccessLevel user { databaseId } } errors { code path message v3Attribute v3Message } } }`;
const UPDATE = `mutation($p: Int!, $u: Int!, $l: Int, $a: AccessLevel) { updateProjectMember(input: { projectId: $p, userId: $u, accessLevel: $a, v3AccessLevel: $l }) { projectMember { accessLevel: v3AccessLevel } errors { code path message v3Attribute v3Message } } }`;
const REMOVE = `mutation($p: Int!, $u: Int!) { removeProjectMember(input: { projectId: $p, userId: $u }) { projectMember { accessLevel: v3AccessLevel } errors { code path message v3Attribute v3Message } } }`;

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
      resolvers: createResolvers({ sql: db.sql, membership, groups, cursors: createCursors(CURSOR_SECRET) }),
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
    expect(
      (await subgraph.run(ADD, { p: 100, u: 5, l: 20 }, userPrincipal(MASTER))).data?.addProjectMember.projectMember,
    ).toEqual({
      accessLevel: 20,
      user: { databaseId: 5 },
    });
  });

  it('adds idempotently, refuses levels outside 10-40 and unknown users', async () => {
    // An existing member keeps the existing membership (GitLab's 201 with it).
    expect(
      (await subgraph.run(ADD, { p: 100, u: DEVELOPER, l: 10 }, userPrincipal(OWNER))).data?.addProjectMember
        .projectMember.accessLevel,
    ).toBe(30);
    // A level outside the team's list is refused in the payload, which echoes clientMutationId:
    // v3's number (the facade's internal v3AccessLevel), OWNER, or no level at all.
    const outside = {
      clientMutationId: 'add-1',
      projectMember: null,
      errors: [
        {
          code: 'UNPROCESSABLE',
          path: ['input', 'accessLevel'],
          message: 'Access level is not included in the list',
          v3Attribute: 'access_level',
          v3Message: 'is not included in the list',
        },
      ],
    };
    for (const level of [{ l: 50 }, { l: 15 }, { a: 'OWNER' }, {}])
      expect(
        (await subgraph.run(ADD, { p: 100, u: STRANGER, ...level, c: 'add-1' }, userPrincipal(OWNER))).data
          ?.addProjectMember,
      ).toEqual(outside);
    expect(errorCode(await subgraph.run(ADD, { p: 100, u: 77, l: 30 }, userPrincipal(OWNER)))).toBe('NOT_FOUND');
  });

  it("updates levels, the creator's row too (GitLab 7.14), and 404s a non-member", async () => {
    expect(
      (await subgraph.run(UPDATE, { p: 100, u: DEVELOPER, l: 20 }, userPrincipal(MASTER))).data?.updateProjectMember
        .projectMember.accessLevel,
    ).toBe(20);
    expect(
      (await subgraph.run(UPDATE, { p: 100, u: OWNER, l: 30 }, userPrincipal(MASTER))).data?.updateProjectMember
        .projectMember.accessLevel,
    ).toBe(30);
    // The namespace owner stays Owner whatever their row says: they still manage the team.
    expect(
      (await subgraph.run(UPDATE, { p: 100, u: OWNER, l: 40 }, userPrincipal(OWNER))).data?.updateProjectMember
        .projectMember.accessLevel,
    ).toBe(40);
    expect(errorCode(await subgraph.run(UPDATE, { p: 100, u: STRANGER, l: 20 }, userPrincipal(MASTER)))).toBe(
      'NOT_FOUND',
    );
  });

  it("removes idempotently; the creator's row goes like any other and later facts do not bring it back", async () => {
    expect(
      (await subgraph.run(REMOVE, { p: 100, u: 5 }, userPrincipal(MASTER))).data?.removeProjectMember.projectMember,
    ).toEqual({ accessLevel: 20 });
    expect(
      (await subgraph.run(REMOVE, { p: 100, u: 5 }, userPrincipal(MASTER))).data?.removeProjectMember.projectMember,
    ).toBeNull();
    await db.sql.begin((tx) => applyProjectFacts(tx, facts(300)));
    expect(
      (await subgraph.run(REMOVE, { p: 300, u: OWNER }, userPrincipal(OWNER))).data?.removeProjectMember.projectMember,
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
    let applied!: (pid: number) => void;
    const deletionApplied = new Promise<number>((resolve) => (applied = resolve));
    // The deletion, applied but not committed yet, as when it lands while an add is authorized.
    const deleting = db.sql.begin(async (tx) => {
      await applyProjectFacts(tx, facts(300, { deleted: true }));
      const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
      applied(pid);
      await held;
    });
    const deletion = await deletionApplied;
    const adding = subgraph.run(ADD, { p: 300, u: DEVELOPER, l: 30 }, ADMIN);
    // Committed only once the add waits on the deletion's locks.
    for (let deadline = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 10))) {
      const [{ waiting }] = await db.sql<{ waiting: number }[]>`
        select count(*)::int as waiting from pg_stat_activity where ${deletion}::int = any(pg_blocking_pids(pid))`;
      if (waiting > 0) break;
      if (Date.now() > deadline) throw new Error('the add never waited for the deletion');
    }
    commit();
    await deleting;
    expect(errorCode(await adding)).toBe('NOT_FOUND');
    const [{ count }] = await db.sql`select count(*)::int as count from members where project_id = 300`;
    expect(count).toBe(0);
  });

  describe('groups', () => {
    const GROUP = 500;
    const GROUP_MEMBERS = `query($id: Int!) { _entities(representations: [{ __typename: "Group", databaseId: $id }]) { ... on Group { members(perPage: 20) { total nodes { accessLevel: v3AccessLevel user { databaseId } } } } } }`;
    const ADD_G = `mutation($g: Int!, $u: Int!, $l: Int, $a: AccessLevel, $c: String) { addGroupMember(input: { clientMutationId: $c, groupId: $g, userId: $u, accessLevel: $a, v3AccessLevel: $l }) { clientMutationId groupMember { accessLevel: v3AccessLevel user { databaseId } } errors { code path message v3Attribute v3Message } } }`;
    const UPDATE_G = `mutation($g: Int!, $u: Int!, $l: Int, $a: AccessLevel) { updateGroupMember(input: { groupId: $g, userId: $u, accessLevel: $a, v3AccessLevel: $l }) { groupMember { accessLevel: v3AccessLevel } errors { code path message v3Attribute v3Message } } }`;
    const REMOVE_G = `mutation($g: Int!, $u: Int!) { removeGroupMember(input: { groupId: $g, userId: $u }) { groupMember { accessLevel: v3AccessLevel } } }`;
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
        (await subgraph.run(ADD_G, { g: GROUP, u: DEVELOPER, l: 30 }, userPrincipal(OWNER))).data?.addGroupMember
          .groupMember,
      ).toEqual({ accessLevel: 30, user: { databaseId: DEVELOPER } });
      expect(
        (await subgraph.run(ADD_G, { g: GROUP, u: DEVELOPER, a: 'DEVELOPER', c: 'g-1' }, userPrincipal(OWNER))).data
          ?.addGroupMember,
      ).toEqual({
        clientMutationId: 'g-1',
        groupMember: null,
        errors: [
          { code: 'CONFLICT', path: null, message: 'Already exists', v3Attribute: null, v3Message: 'Already exists' },
        ],
      });
      expect(errorCode(await subgraph.run(ADD_G, { g: GROUP, u: MASTER, l: 30 }, userPrincipal(DEVELOPER)))).toBe(
        'FORBIDDEN',
      );
      for (const level of [{ l: 45 }, {}])
        expect(
          (await subgraph.run(ADD_G, { g: GROUP, u: MASTER, ...level }, userPrincipal(OWNER))).data?.addGroupMember
            .errors,
        ).toEqual([
          {
            code: 'UNPROCESSABLE',
            path: null,
            message: 'Wrong access level',
            v3Attribute: null,
            v3Message: 'Wrong access level',
          },
        ]);
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
          .groupMember.accessLevel,
      ).toBe(40);
      expect(await access(DEVELOPER, 600)).toMatchObject({ groupLevel: 40 });
      expect(errorCode(await subgraph.run(UPDATE_G, { g: GROUP, u: STRANGER, l: 20 }, userPrincipal(OWNER)))).toBe(
        'NOT_FOUND',
      );
    });

    it('removes a member (404 for a non-member) and takes the project access with it', async () => {
      expect(
        (await subgraph.run(REMOVE_G, { g: GROUP, u: DEVELOPER }, userPrincipal(OWNER))).data?.removeGroupMember
          .groupMember.accessLevel,
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
  describe('access levels', () => {
    const GROUP = 510;
    const PROJECT = 710;
    const LEVELS = `query($p: Int!, $g: Int!) { _entities(representations: [{ __typename: "Project", databaseId: $p }, { __typename: "Group", databaseId: $g }]) {
      ... on Project { members(first: 20) { nodes { user { databaseId } accessLevel v3AccessLevel } } }
      ... on Group { members(first: 20) { nodes { user { databaseId } accessLevel v3AccessLevel } } } } }`;

    it('shows the public level as AccessLevel and v3 number as v3AccessLevel, on both kinds of member and in mutation answers', async () => {
      await groups.applyGroup({ groupId: GROUP, name: 'Levels', path: 'levels', deleted: false, ownerId: OWNER });
      await db.sql.begin((tx) => applyProjectFacts(tx, facts(PROJECT)));
      const named = { 10: 'GUEST', 20: 'REPORTER', 30: 'DEVELOPER', 40: 'MASTER', 50: 'OWNER' } as const;
      // The public enum in, the enum and v3's number out.
      const ADD_G = `mutation($g: Int!, $u: Int!, $l: AccessLevel!) { addGroupMember(input: { groupId: $g, userId: $u, accessLevel: $l }) { groupMember { accessLevel v3AccessLevel } } }`;
      const ADD_P = `mutation($p: Int!, $u: Int!, $l: AccessLevel!) { addProjectMember(input: { projectId: $p, userId: $u, accessLevel: $l }) { projectMember { accessLevel v3AccessLevel } } }`;
      for (const [i, level] of ([10, 20, 30, 40] as const).entries()) {
        const added = await subgraph.run(ADD_G, { g: GROUP, u: 1000 + i, l: named[level] }, userPrincipal(OWNER));
        expect(added.data?.addGroupMember.groupMember).toEqual({ accessLevel: named[level], v3AccessLevel: level });
        const joined = await subgraph.run(ADD_P, { p: PROJECT, u: 1000 + i, l: named[level] }, userPrincipal(OWNER));
        expect(joined.data?.addProjectMember.projectMember).toEqual({
          accessLevel: named[level],
          v3AccessLevel: level,
        });
      }
      const result = await subgraph.run(LEVELS, { p: PROJECT, g: GROUP }, userPrincipal(OWNER));
      expect(result.errors).toBeUndefined();
      const [project, group] = result.data!._entities;
      const member = (userId: number, level: keyof typeof named) => ({
        user: { databaseId: userId },
        accessLevel: named[level],
        v3AccessLevel: level,
      });
      const team = [member(1000, 10), member(1001, 20), member(1002, 30), member(1003, 40)];
      // The creator is a Master of the team; the group's creator its Owner.
      expect(project.members.nodes).toEqual([member(OWNER, 40), ...team]);
      expect(group.members.nodes).toEqual([member(OWNER, 50), ...team]);
    });

    it('refuses to guess the public level of a stored number it does not know', () => {
      expect(() => accessLevelEnumOf(35)).toThrow('AccessLevel has no value for 35');
      expect(() => accessLevelEnumOf(0)).toThrow('AccessLevel has no value for 0');
    });
  });

  describe('lists with cursors', () => {
    const GROUP = 520;
    const PROJECT = 720;
    const PROJECT_LIST = `query($id: Int!, $query: String, $first: Int, $after: String, $last: Int, $before: String) {
      _entities(representations: [{ __typename: "Project", databaseId: $id }]) { ... on Project {
        members(query: $query, first: $first, after: $after, last: $last, before: $before) {
          count edges { cursor node { user { databaseId } } } nodes { user { databaseId } }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`;
    const GROUP_LIST = `query($id: Int!, $first: Int, $after: String, $last: Int, $before: String) {
      _entities(representations: [{ __typename: "Group", databaseId: $id }]) { ... on Group {
        members(first: $first, after: $after, last: $last, before: $before) {
          count edges { cursor node { user { databaseId } } } nodes { user { databaseId } }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`;
    interface Page {
      count: number;
      edges: Array<{ cursor: string; node: { user: { databaseId: number } } }>;
      nodes: Array<{ user: { databaseId: number } }>;
      pageInfo: {
        hasNextPage: boolean;
        hasPreviousPage: boolean;
        startCursor: string | null;
        endCursor: string | null;
      };
    }
    interface List {
      name: string;
      /** A page of the list, as OWNER asks for it. */
      page: (variables: Record<string, unknown>) => Promise<Page>;
      run: (variables: Record<string, unknown>) => ReturnType<typeof subgraph.run>;
      /** The list's user ids, as v3 orders them. */
      expected: () => Promise<number[]>;
      join: (userId: number) => Promise<unknown>;
      /** Removes a random member other than OWNER (who keeps the group administered); its user id. */
      leaveRandom: () => Promise<number | undefined>;
    }
    const listOf = (name: string, query: string, id: number, table: 'members' | 'group_members'): List => {
      const key = table === 'members' ? db.sql`project_id` : db.sql`group_id`;
      const run = (variables: Record<string, unknown>) =>
        subgraph.run(query, { id, ...variables }, userPrincipal(OWNER));
      return {
        name,
        run,
        page: async (variables) => {
          const result = await run(variables);
          expect(result.errors).toBeUndefined();
          return result.data!._entities[0].members;
        },
        expected: async () =>
          (
            await db.sql<
              { userId: number }[]
            >`select user_id from ${db.sql(table)} where ${key} = ${id} order by user_id`
          ).map((row) => row.userId),
        join: (userId) =>
          db.sql`insert into ${db.sql(table)} (${key}, user_id, access_level) values (${id}, ${userId}, 30) on conflict do nothing`,
        leaveRandom: async () =>
          (
            await db.sql<{ userId: number }[]>`delete from ${db.sql(table)} where ${key} = ${id} and user_id = (
              select user_id from ${db.sql(table)} where ${key} = ${id} and user_id <> ${OWNER} order by random() limit 1) returning user_id`
          )[0]?.userId,
      };
    };
    let lists: List[];

    beforeAll(async () => {
      await groups.applyGroup({ groupId: GROUP, name: 'Paged', path: 'paged', deleted: false, ownerId: OWNER });
      await db.sql.begin((tx) => applyProjectFacts(tx, facts(PROJECT)));
      // Even user ids from 1000, so members who join meanwhile (odd ids) land between pages too.
      for (const table of ['members', 'group_members'] as const)
        await db.sql`insert into ${db.sql(table)} (${db.sql(table === 'members' ? 'project_id' : 'group_id')}, user_id, access_level)
          select ${table === 'members' ? PROJECT : GROUP}, 1000 + 2 * g, 10 * (1 + g % 4) from generate_series(0, 44) as g`;
      lists = [
        listOf('a project team', PROJECT_LIST, PROJECT, 'members'),
        listOf("a group's members", GROUP_LIST, GROUP, 'group_members'),
      ];
    });

    let joined = 0;
    /** Every page from one end, with members joining and leaving between pages when `churn`. */
    async function pageThrough(list: List, from: 'start' | 'end', churn: boolean) {
      const seen: number[] = [];
      const left = new Set<number>();
      let cursor: string | null = null;
      for (let pages = 0; pages < 100; pages++) {
        const page: Page = await list.page(
          from === 'start' ? { first: 7, after: cursor } : { last: 7, before: cursor },
        );
        expect(page.nodes).toEqual(page.edges.map((edge) => edge.node));
        expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
        expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
        expect(from === 'start' ? page.pageInfo.hasPreviousPage : page.pageInfo.hasNextPage).toBe(cursor !== null);
        seen.push(...(from === 'start' ? page.nodes : [...page.nodes].reverse()).map((node) => node.user.databaseId));
        if (!(from === 'start' ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage)) return { seen, left };
        cursor = from === 'start' ? page.pageInfo.endCursor : page.pageInfo.startCursor;
        if (churn) {
          await list.join(1001 + 2 * (joined++ % 60));
          const gone = await list.leaveRandom();
          if (gone !== undefined) left.add(gone);
        }
      }
      throw new Error('more than 100 pages');
    }

    it.each(['a project team', "a group's members"])(
      'pages %s forward and backward: every member once, by user id, also while members join and leave',
      async (name) => {
        const list = lists.find((candidate) => candidate.name === name)!;
        const all = await list.expected();
        expect(all.length).toBeGreaterThan(40);
        expect((await pageThrough(list, 'start', false)).seen).toEqual(all);
        expect((await pageThrough(list, 'end', false)).seen).toEqual([...all].reverse());
        expect((await list.page({ first: 1 })).count).toBe(all.length);
        for (const from of ['start', 'end'] as const) {
          const before = await list.expected();
          const { seen, left } = await pageThrough(list, from, true);
          expect(seen.length).toBe(new Set(seen).size);
          const stayed = new Set(await list.expected());
          expect({
            list: list.name,
            from,
            missed: before.filter((id) => !left.has(id) && stayed.has(id) && !seen.includes(id)),
          }).toEqual({ list: list.name, from, missed: [] });
        }
      },
    );

    it("keeps the team's username filter on cursor pages: the matches only, by user id, counted", async () => {
      const team = lists[0];
      // "user101" is in the usernames of users 1010 to 1019 only.
      const matching = (await team.expected()).filter((id) => `user${id}`.includes('user101'));
      expect(matching.length).toBeGreaterThan(3);
      const first = await team.page({ query: 'user101', first: 3 });
      expect(first.count).toBe(matching.length);
      const rest = await team.page({ query: 'user101', first: 100, after: first.pageInfo.endCursor });
      expect([...first.nodes, ...rest.nodes].map((node) => node.user.databaseId)).toEqual(matching);
      expect((await team.page({ query: 'nobody-by-this-name', first: 5 })).count).toBe(0);
    });

    it('gives the facade the same numbered pages as before: page and perPage, by user id, the total', async () => {
      for (const [list, query] of [
        [
          lists[0],
          `query($id: Int!, $page: Int, $perPage: Int) { _entities(representations: [{ __typename: "Project", databaseId: $id }]) { ... on Project { members(page: $page, perPage: $perPage) { total nodes { user { databaseId } } } } } }`,
        ],
        [
          lists[1],
          `query($id: Int!, $page: Int, $perPage: Int) { _entities(representations: [{ __typename: "Group", databaseId: $id }]) { ... on Group { members(page: $page, perPage: $perPage) { total nodes { user { databaseId } } } } } }`,
        ],
      ] as const) {
        const all = await list.expected();
        const result = await subgraph.run(
          query,
          { id: list === lists[0] ? PROJECT : GROUP, page: 3, perPage: 6 },
          userPrincipal(OWNER),
        );
        expect(result.errors).toBeUndefined();
        expect(result.data!._entities[0].members).toEqual({
          total: all.length,
          nodes: all.slice(12, 18).map((databaseId) => ({ user: { databaseId } })),
        });
      }
    });

    it('refuses more than 100 a page, a tampered cursor and one of another list, naming the argument', async () => {
      const [team, group] = lists;
      const refusal = async (list: List, variables: Record<string, unknown>, argument: string, message: RegExp) => {
        const result = await list.run(variables);
        expect(result.errors?.[0]).toMatchObject({
          message: expect.stringMatching(message),
          extensions: { code: 'BAD_USER_INPUT', argument },
        });
      };
      for (const list of lists) {
        await refusal(list, { first: 101 }, 'first', /"first" must be between 0 and 100, got 101/);
        await refusal(list, { last: 101 }, 'last', /"last" must be between 0 and 100, got 101/);
        const cursor = (await list.page({ first: 2 })).pageInfo.endCursor!;
        const [payload, signature] = cursor.split('.');
        const forged = Buffer.from(
          Buffer.from(payload, 'base64url')
            .toString()
            .replace(/"\d+"\]\]$/, '"1"]]'),
        ).toString('base64url');
        expect(forged).not.toBe(payload);
        await refusal(list, { first: 2, after: `${forged}.${signature}` }, 'after', /not a cursor of this list/);
        await refusal(list, { first: 2, after: 'not-a-cursor' }, 'after', /"after" is not a cursor of this list/);
      }
      // A group's cursor names no place in a team, nor a team's in a group, nor another service's list's.
      const teamCursor = (await team.page({ first: 2 })).pageInfo.endCursor!;
      const groupCursor = (await group.page({ first: 2 })).pageInfo.endCursor!;
      await refusal(team, { first: 2, after: groupCursor }, 'after', /not a cursor of this list/);
      await refusal(group, { last: 2, before: teamCursor }, 'before', /not a cursor of this list/);
      const projects = createCursors(CURSOR_SECRET).encode('projects:id:asc', ['1']);
      await refusal(team, { first: 2, after: projects }, 'after', /not a cursor of this list/);
    });
  });
});
