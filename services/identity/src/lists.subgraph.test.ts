import { resolve } from 'node:path';
import { ANONYMOUS, createAccessClient, createCursors, createLogger, type Principal, type Sql } from '@hub/common';
import {
  createTestSchema,
  createTestSubgraph,
  errorCode,
  groupMembershipStandIn,
  membershipStandIn,
  privateProject,
  userPrincipal,
  type ConnectionPage,
} from '@hub/common/testing';
import { createLoaders, type IdentityContext } from './context';
import { createApplicationSettings } from './domain/application-settings';
import { createTokenSealer } from './domain/token-seal';
import { createGroupsService } from './groups-service';
import { createIdentityService } from './identity-service';
import { createKeysService } from './keys-service';
import { createResolvers } from './resolvers';

// Identity's lists as connections: the public schema pages with signed keyset cursors
// (first/after, last/before) in v3's order with the row id as the last tiebreak, so paging stays
// true while rows come and go; the facade still asks for v3's pages by number (page/perPage).

const silent = createLogger('test', 'silent');

// Membership (another service) as identity asks it about groups: who is a member of which.
const groupMembers = new Map<number, Set<number>>();
const groupMembership = groupMembershipStandIn(groupMembers);

/** The project whose deploy keys are listed (alice owns it: Master and more). */
const PROJECT = 500;
/** Another project: its deploy keys are never in PROJECT's list. */
const OTHER_PROJECT = 501;

const CONNECTION = (id: string) => `{
  count
  edges { cursor node { id: ${id} } }
  nodes { id: ${id} }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
}`;
const NUMBERED = (id: string) => `{ total nodes { id: ${id} } }`;
/** The paging arguments of one mode: the variables declared, and the arguments passing them. */
interface Paging {
  variables: string;
  args: string;
}
const CURSOR_ARGS: Paging = {
  variables: '$first: Int, $after: String, $last: Int, $before: String',
  args: 'first: $first, after: $after, last: $last, before: $before',
};
const NUMBER_ARGS: Paging = { variables: '$page: Int, $perPage: Int', args: 'page: $page, perPage: $perPage' };

/** One list under test: how to ask for it, what it holds (from SQL, in its order), how to change it. */
interface ListCase {
  name: string;
  /** The operation, with the paging arguments and the list's fields given. */
  operation: (paging: Paging, selection: string) => string;
  id: string;
  pick: (data: any) => any;
  principal: () => Principal;
  variables: Record<string, unknown>;
  expected: () => Promise<number[]>;
  /** Adds a row to the list somewhere and takes a random one out; returns the one taken out. */
  churn: () => Promise<number | undefined>;
}

describe("identity's lists as connections", () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<IdentityContext>>>;
  let aliceId: number;
  let bobId: number;
  let admin: Principal;
  let made = 0;

  const aliceGroups = () => [...groupMembers].filter(([, users]) => users.has(aliceId)).map(([id]) => id);
  const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);

  const cases: ListCase[] = [
    {
      name: 'Query.users (active, search)',
      operation: ({ variables, args }, selection) =>
        `query(${variables}, $search: String, $active: Boolean) { users(search: $search, active: $active, ${args}) ${selection} }`,
      id: 'databaseId',
      pick: (data) => data.users,
      principal: () => admin,
      variables: { search: 'PG-', active: true },
      expected: async () =>
        ids(
          await db.sql<{ id: number }[]>`select id from users where state = 'active'
            and (username || ' ' || name || ' ' || email) ilike '%pg-%' order by id`,
        ),
      churn: async () => {
        const name = `pg-new-${++made}`;
        await db.sql`insert into users (username, email, name, password_hash, private_token_digest)
          values (${name}, ${name + '@x.test'}, ${name}, 'x', ${'digest-' + name})`;
        const [gone] = await db.sql<{ id: number }[]>`
          delete from users where id = (select id from users where username like 'pg-%' order by random() limit 1) returning id`;
        return gone?.id;
      },
    },
    {
      name: 'Query.namespaces (a member)',
      operation: ({ variables, args }, selection) => `query(${variables}) { namespaces(${args}) ${selection} }`,
      id: 'databaseId',
      pick: (data) => data.namespaces,
      principal: () => userPrincipal(aliceId, { username: 'alice' }),
      variables: {},
      expected: async () => {
        const memberOf = aliceGroups();
        return ids(
          await db.sql<{ id: number }[]>`select id from namespaces
            where owner_id = ${aliceId} or (kind = 'group' and id = any(${memberOf}::int[])) order by id`,
        );
      },
      churn: async () => {
        const path = `ns-new-${++made}`;
        const [group] = await db.sql<{ id: number }[]>`
          insert into namespaces (name, path, kind) values (${path}, ${path}, 'group') returning id`;
        groupMembers.set(group.id, new Set([aliceId]));
        const [gone] = await db.sql<{ id: number }[]>`
          delete from namespaces where id = (
            select id from namespaces where kind = 'group' and id = any(${aliceGroups()}::int[]) order by random() limit 1
          ) returning id`;
        return gone?.id;
      },
    },
    {
      name: 'Query.groups (an admin, search)',
      operation: ({ variables, args }, selection) =>
        `query(${variables}, $search: String) { groups(search: $search, ${args}) ${selection} }`,
      id: 'databaseId',
      pick: (data) => data.groups,
      principal: () => admin,
      variables: { search: 'team' },
      expected: async () =>
        ids(
          await db.sql<{ id: number }[]>`select id from namespaces where kind = 'group'
            and (name ilike '%team%' or path ilike '%team%') order by id`,
        ),
      churn: async () => {
        const path = `team-new-${++made}`;
        await db.sql`insert into namespaces (name, path, kind) values (${path}, ${path}, 'group')`;
        const [gone] = await db.sql<{ id: number }[]>`
          delete from namespaces where id = (
            select id from namespaces where kind = 'group' and path like 'team-%' order by random() limit 1
          ) returning id`;
        return gone?.id;
      },
    },
    {
      name: 'User.keys',
      operation: ({ variables, args }, selection) => `query(${variables}) { viewer { keys(${args}) ${selection} } }`,
      id: 'databaseId',
      pick: (data) => data.viewer.keys,
      principal: () => userPrincipal(aliceId, { username: 'alice' }),
      variables: {},
      expected: async () =>
        ids(
          await db.sql<
            { id: number }[]
          >`select id from keys where kind = 'user' and user_id = ${aliceId} order by created_at desc, id desc`,
        ),
      churn: async () => {
        // A new key sharing an existing key's created_at: only the id tells them apart.
        const fingerprint = `fp-new-${++made}`;
        await db.sql`insert into keys (kind, user_id, title, key, fingerprint, created_at)
          values ('user', ${aliceId}, 'new', ${'key ' + fingerprint}, ${fingerprint},
            (select created_at from keys where user_id = ${aliceId} order by random() limit 1))`;
        const [gone] = await db.sql<{ id: number }[]>`
          delete from keys where id = (select id from keys where user_id = ${aliceId} order by random() limit 1) returning id`;
        return gone?.id;
      },
    },
    {
      name: 'Project.deployKeys',
      operation: ({ variables, args }, selection) =>
        `query(${variables}) { _entities(representations: [{ __typename: "Project", databaseId: ${PROJECT} }]) {
          ... on Project { deployKeys(${args}) ${selection} }
        } }`,
      id: 'databaseId',
      pick: (data) => data._entities[0].deployKeys,
      principal: () => userPrincipal(aliceId, { username: 'alice' }),
      variables: {},
      expected: async () =>
        ids(
          await db.sql<{ id: number }[]>`select k.id from keys k join deploy_keys_projects l on l.deploy_key_id = k.id
            where l.project_id = ${PROJECT} order by k.created_at desc, k.id desc`,
        ),
      churn: async () => {
        const fingerprint = `fp-new-${++made}`;
        const [key] = await db.sql<{ id: number }[]>`
          insert into keys (kind, title, key, fingerprint, created_at)
          values ('deploy', 'new', ${'key ' + fingerprint}, ${fingerprint},
            (select k.created_at from keys k join deploy_keys_projects l on l.deploy_key_id = k.id
              where l.project_id = ${PROJECT} order by random() limit 1))
          returning id`;
        await db.sql`insert into deploy_keys_projects (project_id, deploy_key_id) values (${PROJECT}, ${key.id})`;
        const [gone] = await db.sql<{ deployKeyId: number }[]>`
          delete from deploy_keys_projects where project_id = ${PROJECT} and deploy_key_id = (
            select deploy_key_id from deploy_keys_projects where project_id = ${PROJECT} order by random() limit 1
          ) returning deploy_key_id`;
        return gone?.deployKeyId;
      },
    },
  ];

  const cursorPage = async (list: ListCase, paging: Record<string, unknown>, principal = list.principal()) => {
    const result = await subgraph.run(
      list.operation(CURSOR_ARGS, CONNECTION(list.id)),
      { ...list.variables, ...paging },
      principal,
    );
    expect(result.errors).toBeUndefined();
    return list.pick(result.data) as ConnectionPage;
  };

  /** Every page of a list from one end, in the list's order; `churn` changes the list between pages. */
  async function pageThrough(list: ListCase, way: 'forward' | 'backward', size: number, churn: boolean) {
    const seen: number[] = [];
    const deleted = new Set<number>();
    let cursor: string | null = null;
    for (let pages = 0; pages < 200; pages++) {
      const current: ConnectionPage = await cursorPage(
        list,
        way === 'forward' ? { first: size, after: cursor } : { last: size, before: cursor },
      );
      expect(current.nodes).toEqual(current.edges.map((edge) => edge.node));
      expect(current.nodes.length).toBeLessThanOrEqual(size);
      // The side the caller came from: there is more there exactly when it came with a cursor.
      expect(way === 'forward' ? current.pageInfo.hasPreviousPage : current.pageInfo.hasNextPage).toBe(cursor !== null);
      seen.push(...ids(way === 'forward' ? current.nodes : [...current.nodes].reverse()));
      const more = way === 'forward' ? current.pageInfo.hasNextPage : current.pageInfo.hasPreviousPage;
      if (!more) return { seen: way === 'forward' ? seen : seen.reverse(), deleted };
      cursor = way === 'forward' ? current.pageInfo.endCursor : current.pageInfo.startCursor;
      if (churn) {
        const gone = await list.churn();
        if (gone !== undefined) deleted.add(gone);
      }
    }
    throw new Error('more than 200 pages');
  }

  beforeAll(async () => {
    db = await createTestSchema('identity', resolve(__dirname, '..', 'migrations'));
    const sealer = createTokenSealer('test-key-'.repeat(5));
    const identity = createIdentityService({ sql: db.sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
    const groups = createGroupsService({ sql: db.sql, membership: groupMembership, logger: silent });
    const user = (username: string, isAdmin = false) =>
      identity.createUser({ username, email: `${username}@x.test`, name: username, password: 'password-1', isAdmin });
    const alice = await user('alice');
    const bob = await user('bob');
    const root = await user('root', true);
    aliceId = alice.id;
    bobId = bob.id;
    admin = userPrincipal(root.id, { isAdmin: true, username: 'root' });
    const access = createAccessClient({
      membership: membershipStandIn([privateProject(PROJECT, aliceId), privateProject(OTHER_PROJECT, bobId)], {}),
      ttlMs: 0,
    });
    subgraph = await createTestSubgraph<IdentityContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({
        sql: db.sql,
        identity,
        groups,
        settings: createApplicationSettings({ sql: db.sql }),
        keys: createKeysService({ sql: db.sql, access }),
        externalUrl: 'http://hub.test',
        cursors: createCursors('a-secret-for-tests-only-0123456789'),
      }),
      createContext: (principal) => ({ principal, loaders: createLoaders(db.sql) }),
    });

    // Users: every fifth blocked, and others the search does not match.
    await db.sql`insert into users (username, email, name, password_hash, private_token_digest, state)
      select 'pg-user-' || g, 'pg' || g || '@x.test', 'PG ' || g, 'x', 'digest-pg-' || g,
        case when g % 5 = 0 then 'blocked' else 'active' end
      from generate_series(1, 45) as g`;
    await db.sql`insert into users (username, email, name, password_hash, private_token_digest)
      select 'other-' || g, 'other' || g || '@x.test', 'Other ' || g, 'x', 'digest-other-' || g
      from generate_series(1, 10) as g`;
    // Groups: team-* and other-*; alice is a member of every third, bob of the others.
    const groupRows = await db.sql<{ id: number }[]>`insert into namespaces (name, path, kind)
      select case when g % 4 = 0 then 'other-' else 'team-' end || g, 'grp-' || g, 'group'
      from generate_series(1, 50) as g returning id`;
    groupRows.forEach((row, i) => groupMembers.set(row.id, new Set([i % 3 === 0 ? aliceId : bobId])));
    // Alice's keys: 30 made by one statement (one created_at), and 6 a microsecond apart, which a
    // millisecond cursor would confuse; bob's are never in her list.
    await db.sql`insert into keys (kind, user_id, title, key, fingerprint)
      select 'user', ${aliceId}, 'k' || g, 'key a' || g, 'fp-a' || g from generate_series(1, 30) as g`;
    await db.sql`insert into keys (kind, user_id, title, key, fingerprint, created_at)
      select 'user', ${aliceId}, 'micro' || g, 'key m' || g, 'fp-m' || g,
        '2026-01-01 00:00:00+00'::timestamptz + g * interval '1 microsecond'
      from generate_series(1, 6) as g`;
    await db.sql`insert into keys (kind, user_id, title, key, fingerprint)
      select 'user', ${bobId}, 'k' || g, 'key b' || g, 'fp-b' || g from generate_series(1, 5) as g`;
    // Deploy keys: 25 on PROJECT (some a microsecond apart), 5 on the other project only, 3 on both.
    const deploy = await db.sql<{ id: number }[]>`insert into keys (kind, title, key, fingerprint, created_at)
      select 'deploy', 'd' || g, 'key d' || g, 'fp-d' || g,
        case when g % 5 = 0 then '2026-01-01 00:00:00+00'::timestamptz + g * interval '1 microsecond' else now() end
      from generate_series(1, 33) as g returning id`;
    for (const [i, key] of deploy.entries()) {
      if (i < 28)
        await db.sql`insert into deploy_keys_projects (project_id, deploy_key_id) values (${PROJECT}, ${key.id})`;
      if (i >= 25)
        await db.sql`insert into deploy_keys_projects (project_id, deploy_key_id) values (${OTHER_PROJECT}, ${key.id})`;
    }
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  describe.each(cases.map((list) => [list.name, list] as const))('%s', (_name, list) => {
    it('pages forward and backward through the whole list in its order, and counts it', async () => {
      const expected = await list.expected();
      expect(expected.length).toBeGreaterThan(15);
      expect((await pageThrough(list, 'forward', 7, false)).seen).toEqual(expected);
      expect((await pageThrough(list, 'backward', 7, false)).seen).toEqual(expected);
      expect((await pageThrough(list, 'forward', 100, false)).seen).toEqual(expected);
      expect((await cursorPage(list, { first: 3 })).count).toBe(expected.length);
      // Without first and last, a page holds 20.
      expect(ids((await cursorPage(list, {})).nodes)).toEqual(expected.slice(0, 20));
      const last = await cursorPage(list, { last: 3 });
      expect(ids(last.nodes)).toEqual(expected.slice(-3));
      expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      // A page between two cursors.
      const [from, to] = [
        (await cursorPage(list, { first: 2 })).edges[1],
        (await cursorPage(list, { first: 6 })).edges[5],
      ];
      const between = await cursorPage(list, { first: 100, after: from.cursor, before: to.cursor });
      expect(ids(between.nodes)).toEqual(expected.slice(2, 5));
    });

    it.each(['forward', 'backward'] as const)(
      'pages %s while rows are added and removed: none twice, none that stayed skipped, in order',
      async (way) => {
        const before = await list.expected();
        const { seen, deleted } = await pageThrough(list, way, 5, true);
        expect(seen.length).toBe(new Set(seen).size);
        const after = await list.expected();
        const stayed = new Set(after);
        expect(before.filter((id) => !deleted.has(id) && !seen.includes(id))).toEqual([]);
        // Those still there were seen in the list's order.
        expect(seen.filter((id) => stayed.has(id))).toEqual(after.filter((id) => seen.includes(id)));
      },
    );

    it('still gives v3 its pages by number, with the total', async () => {
      const expected = await list.expected();
      const numbered = async (page: number | null, perPage: number | null) => {
        const result = await subgraph.run(
          list.operation(NUMBER_ARGS, NUMBERED(list.id)),
          { ...list.variables, page, perPage },
          list.principal(),
        );
        expect(result.errors).toBeUndefined();
        return list.pick(result.data) as { total: number; nodes: Array<{ id: number }> };
      };
      expect(await numbered(2, 5)).toEqual({
        total: expected.length,
        nodes: expected.slice(5, 10).map((id) => ({ id })),
      });
      expect(ids((await numbered(1, null)).nodes)).toEqual(expected.slice(0, 20));
      expect(ids((await numbered(null, 1000)).nodes)).toEqual(expected.slice(0, 100));
      expect(ids((await numbered(0, 0)).nodes)).toEqual(expected.slice(0, 20));
      expect(await numbered(100, 20)).toEqual({ total: expected.length, nodes: [] });
      // A page by number has no cursors.
      const result = await subgraph.run(
        list.operation(NUMBER_ARGS, `{ pageInfo { endCursor } }`),
        { ...list.variables, page: 1, perPage: 5 },
        list.principal(),
      );
      expect(errorCode(result)).toBe('BAD_USER_INPUT');
    });

    it('refuses more than 100 a page, a tampered cursor and another list’s, naming the argument', async () => {
      const refused = async (paging: Record<string, unknown>, argument: string) => {
        const result = await subgraph.run(
          list.operation(CURSOR_ARGS, CONNECTION(list.id)),
          { ...list.variables, ...paging },
          list.principal(),
        );
        expect(result.errors?.[0]).toMatchObject({
          message: expect.stringContaining(`"${argument}"`),
          extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', argument }),
        });
      };
      await refused({ first: 101 }, 'first');
      await refused({ last: 101 }, 'last');
      await refused({ first: -1 }, 'first');
      const cursor = (await cursorPage(list, { first: 2 })).pageInfo.endCursor!;
      const [payload, signature] = cursor.split('.');
      const [ordering, key] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [string, string[]];
      const tampered = Buffer.from(JSON.stringify([ordering, [...key.slice(0, -1), '999999']])).toString('base64url');
      await refused({ first: 2, after: `${tampered}.${signature}` }, 'after');
      await refused({ first: 2, after: 'not-a-cursor' }, 'after');
      // Each list's cursor names no place in the next list.
      const other = cases[(cases.indexOf(list) + 1) % cases.length];
      const foreign = (await cursorPage(other, { first: 2 })).pageInfo.endCursor!;
      await refused({ first: 2, after: foreign }, 'after');
      await refused({ last: 2, before: foreign }, 'before');
    });
  });

  it('keeps the lists for those who may see them: signed-in callers, the key owner, the project’s Masters', async () => {
    const users = cases[0];
    expect(errorCode(await subgraph.run(users.operation(CURSOR_ARGS, CONNECTION('databaseId')), {}, ANONYMOUS))).toBe(
      'UNAUTHENTICATED',
    );
    const groupsAsBob = await cursorPage(cases[2], { first: 100 }, userPrincipal(bobId));
    const bobsGroups = [...groupMembers].filter(([, members]) => members.has(bobId)).map(([id]) => id);
    expect(ids(groupsAsBob.nodes).every((id) => bobsGroups.includes(id))).toBe(true);
    const aliceKeys = await subgraph.run(
      `query($id: Int!) { user(id: $id) { keys(first: 5) { nodes { id } } } }`,
      { id: aliceId },
      userPrincipal(bobId),
    );
    expect(aliceKeys.errors).toBeUndefined();
    expect(aliceKeys.data?.user.keys).toBeNull();
    const deployKeys = await subgraph.run(
      cases[4].operation(CURSOR_ARGS, CONNECTION('databaseId')),
      { first: 5 },
      userPrincipal(bobId),
    );
    expect(errorCode(deployKeys)).toBe('NOT_FOUND');
  });
});
