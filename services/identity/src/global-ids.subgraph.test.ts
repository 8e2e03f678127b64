import { resolve } from 'node:path';
import {
  ANONYMOUS,
  applyGroup,
  createCursors,
  createLogger,
  groupAccessLookup,
  memberGroups,
  type AccessClient,
  type InternalClient,
  type Principal,
  type Sql,
} from '@hub/common';
import { createTestSchema, createTestSubgraph, userPrincipal } from '@hub/common/testing';
import { createLoaders, type IdentityContext } from './context';
import type { NamespaceRow } from './db/namespaces';
import type { UserRow } from './db/users';
import { createApplicationSettings } from './domain/application-settings';
import { createTokenSealer } from './domain/token-seal';
import { createGroupsService } from './groups-service';
import { createIdentityService } from './identity-service';
import { createKeysService } from './keys-service';
import { createResolvers } from './resolvers';

const silent = createLogger('test', 'silent');

// Membership (another service) as identity asks it about groups: who is in which group. Only
// members may read a group here (GitLab also lets those who see one of its projects; membership decides).
const groupMembers = new Map<number, Set<number>>();
const membership = {
  call: async (endpoint: unknown, body: { userId: number | null; groupIds?: number[] }) => {
    if (endpoint === groupAccessLookup)
      return {
        access: body.groupIds!.map((groupId) => {
          const member = body.userId !== null && (groupMembers.get(groupId)?.has(body.userId) ?? false);
          return { groupId, level: member ? 50 : null, readable: member };
        }),
      };
    if (endpoint === memberGroups)
      return { groupIds: [...groupMembers].filter(([, users]) => users.has(body.userId!)).map(([id]) => id) };
    if (endpoint === applyGroup) return { applied: true };
    throw new Error('not offered by this stand-in');
  },
  close: async () => {},
} as unknown as InternalClient;

const ENTITY = `query($representations: [_Any!]!) {
  _entities(representations: $representations) {
    __typename
    ... on User { id databaseId username }
    ... on Group { id databaseId path }
    ... on Namespace { id databaseId path kind }
  }
}`;

describe('global ids of users, groups and namespaces', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<IdentityContext>>>;
  let alice: UserRow;
  let bob: UserRow;
  let admin: Principal;
  let aliceNamespace: NamespaceRow;
  let group: NamespaceRow;

  const entity = async (representation: Record<string, unknown>, principal: Principal) => {
    const result = await subgraph.run(ENTITY, { representations: [representation] }, principal);
    expect(result.errors).toBeUndefined();
    return result.data?._entities[0];
  };

  beforeAll(async () => {
    db = await createTestSchema('identity', resolve(__dirname, '..', 'migrations'));
    const sealer = createTokenSealer('test-key-'.repeat(5));
    const identity = createIdentityService({ sql: db.sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
    const groups = createGroupsService({ sql: db.sql, membership, logger: silent });
    subgraph = await createTestSubgraph<IdentityContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({
        sql: db.sql,
        identity,
        groups,
        settings: createApplicationSettings({ sql: db.sql }),
        keys: createKeysService({ sql: db.sql, access: {} as AccessClient }),
        externalUrl: 'http://hub.test',
        cursors: createCursors('a-secret-for-tests-only-0123456789'),
      }),
      createContext: (principal) => ({ principal, loaders: createLoaders(db.sql) }),
    });
    const user = (username: string, isAdmin = false) =>
      identity.createUser({ username, email: `${username}@x.test`, name: username, password: 'password-1', isAdmin });
    alice = await user('alice');
    bob = await user('bob');
    const root = await user('root', true);
    admin = userPrincipal(root.id, { isAdmin: true, username: 'root' });
    [aliceNamespace] = await db.sql<NamespaceRow[]>`select * from namespaces where owner_id = ${alice.id}`;
    group = await groups.createGroup(userPrincipal(alice.id, { username: 'alice' }), { name: 'Team', path: 'team' });
    groupMembers.set(group.id, new Set([alice.id]));
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  it('shows the global id as id and the number as databaseId', async () => {
    const result = await subgraph.run(
      `query($u: Int!, $g: Int!) {
        user(id: $u) { id databaseId namespace { id databaseId } }
        group(id: $g) { id databaseId }
      }`,
      { u: alice.id, g: group.id },
      userPrincipal(alice.id),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      user: {
        id: `gid://hub/User/${alice.id}`,
        databaseId: alice.id,
        namespace: { id: `gid://hub/Namespace/${aliceNamespace.id}`, databaseId: aliceNamespace.id },
      },
      group: { id: `gid://hub/Group/${group.id}`, databaseId: group.id },
    });
  });

  describe('a reference by databaseId, as other subgraphs send it', () => {
    it('resolves as an id reference did, whoever asks', async () => {
      expect(await entity({ __typename: 'User', databaseId: alice.id }, ANONYMOUS)).toMatchObject({
        username: 'alice',
      });
      expect(await entity({ __typename: 'Group', databaseId: group.id }, userPrincipal(bob.id))).toMatchObject({
        path: 'team',
      });
      expect(await entity({ __typename: 'Namespace', databaseId: aliceNamespace.id }, ANONYMOUS)).toMatchObject({
        path: 'alice',
      });
      // A user's namespace is no group.
      expect(await entity({ __typename: 'Group', databaseId: aliceNamespace.id }, admin)).toBeNull();
    });

    it('answers a project reference with its databaseId', async () => {
      const result = await subgraph.run(
        `{ _entities(representations: [{ __typename: "Project", databaseId: 12 }]) { ... on Project { databaseId } } }`,
        {},
        admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data?._entities).toEqual([{ databaseId: 12 }]);
    });
  });

  describe('a reference by global id, as node(id:) sends it', () => {
    it('resolves a user for any signed-in caller, as Query.user does, and for nobody else', async () => {
      const ref = { __typename: 'User', id: `gid://hub/User/${alice.id}` };
      expect(await entity(ref, userPrincipal(bob.id))).toEqual({
        __typename: 'User',
        id: ref.id,
        databaseId: alice.id,
        username: 'alice',
      });
      expect(await entity(ref, admin)).toMatchObject({ username: 'alice' });
      expect(await entity(ref, ANONYMOUS)).toBeNull();
    });

    it('resolves a group for its members and admins, and is null for others, as for a missing one', async () => {
      const ref = { __typename: 'Group', id: `gid://hub/Group/${group.id}` };
      expect(await entity(ref, userPrincipal(alice.id))).toEqual({
        __typename: 'Group',
        id: ref.id,
        databaseId: group.id,
        path: 'team',
      });
      expect(await entity(ref, admin)).toMatchObject({ path: 'team' });
      // Query.group answers FORBIDDEN here; a global id answers what a missing group does.
      expect(await entity(ref, userPrincipal(bob.id))).toBeNull();
      expect(await entity(ref, ANONYMOUS)).toBeNull();
      // A personal namespace's number is no group's.
      expect(await entity({ __typename: 'Group', id: `gid://hub/Group/${aliceNamespace.id}` }, admin)).toBeNull();
    });

    it("resolves a user's namespace for that user and admins only", async () => {
      const ref = { __typename: 'Namespace', id: `gid://hub/Namespace/${aliceNamespace.id}` };
      expect(await entity(ref, userPrincipal(alice.id))).toEqual({
        __typename: 'Namespace',
        id: ref.id,
        databaseId: aliceNamespace.id,
        path: 'alice',
        kind: 'USER',
      });
      expect(await entity(ref, admin)).toMatchObject({ path: 'alice' });
      expect(await entity(ref, userPrincipal(bob.id))).toBeNull();
      expect(await entity(ref, ANONYMOUS)).toBeNull();
    });

    it("resolves a group's namespace for those who may read the group", async () => {
      const ref = { __typename: 'Namespace', id: `gid://hub/Namespace/${group.id}` };
      expect(await entity(ref, userPrincipal(alice.id))).toMatchObject({ path: 'team', kind: 'GROUP' });
      expect(await entity(ref, admin)).toMatchObject({ path: 'team' });
      expect(await entity(ref, userPrincipal(bob.id))).toBeNull();
      expect(await entity(ref, ANONYMOUS)).toBeNull();
    });

    it('is null for a malformed global id, one of another type, and one that names nothing', async () => {
      const refs = [
        { __typename: 'User', id: 'nonsense' },
        { __typename: 'User', id: `gid://hub/User/${alice.id}x` },
        { __typename: 'User', id: `gid://hub/User/0` },
        { __typename: 'User', id: `gid://other/User/${alice.id}` },
        { __typename: 'User', id: `gid://hub/Namespace/${alice.id}` },
        { __typename: 'User', id: 'gid://hub/User/999999' },
        { __typename: 'Group', id: `gid://hub/Namespace/${group.id}` },
        { __typename: 'Group', id: `gid://hub/Project/${group.id}` },
        { __typename: 'Group', id: 'gid://hub/Group/999999' },
        { __typename: 'Namespace', id: `gid://hub/Group/${group.id}` },
        { __typename: 'Namespace', id: `gid://hub/User/${alice.id}` },
        { __typename: 'Namespace', id: 'gid://hub/Namespace/999999' },
        { __typename: 'Namespace', id: 42 },
      ];
      const result = await subgraph.run(ENTITY, { representations: refs }, admin);
      expect(result.errors).toBeUndefined();
      expect(result.data?._entities).toEqual(refs.map(() => null));
    });
  });
});
