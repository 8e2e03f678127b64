import { ANONYMOUS, createCursors, createLogger, type AccessClient, type Principal } from '@hub/common';
import { groupMembershipStandIn, lookupBesideEntities, testSubgraph, userPrincipal } from '@hub/common/testing';
import { createLoaders, type IdentityContext } from './context';
import type { NamespaceRow } from './db/namespaces';
import type { UserRow } from './db/users';
import { createApplicationSettings } from './domain/application-settings';
import { createTokenSealer } from './domain/token-seal';
import { createGroupsService, type GroupsService } from './groups-service';
import { createIdentityService, type IdentityService } from './identity-service';
import { createKeysService } from './keys-service';
import { createResolvers } from './resolvers';

const silent = createLogger('test', 'silent');

// Membership (another service) as identity asks it about groups: who is in which group.
const groupMembers = new Map<number, Set<number>>();
const membership = groupMembershipStandIn(groupMembers);

const ENTITY = `query($representations: [_Any!]!) {
  _entities(representations: $representations) {
    __typename
    ... on User { id databaseId username }
    ... on Group { id databaseId path }
    ... on Namespace { id databaseId path kind }
  }
}`;

describe('global ids of users, groups and namespaces', () => {
  let identity: IdentityService;
  let groups: GroupsService;
  const { db, subgraph, start, stop } = testSubgraph<IdentityContext>({
    service: 'identity',
    srcDir: __dirname,
    build: (sql) => {
      const sealer = createTokenSealer('test-key-'.repeat(5));
      identity = createIdentityService({ sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
      groups = createGroupsService({ sql, membership, logger: silent });
      return {
        resolvers: createResolvers({
          sql,
          identity,
          groups,
          settings: createApplicationSettings({ sql }),
          keys: createKeysService({ sql, access: {} as AccessClient }),
          externalUrl: 'http://hub.test',
          cursors: createCursors('a-secret-for-tests-only-0123456789'),
        }),
        createContext: (principal) => ({ principal, loaders: createLoaders(sql) }),
      };
    },
  });
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
    await start();
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
  afterAll(stop);

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

    it("answers userNodes(ids:), the gateway's one-hop lookup, as _entities answers each global id", async () => {
      const ids = [alice.id, bob.id, 999_999].map((id) => `gid://hub/User/${id}`);
      const LOOKUP = { field: 'userNodes', type: 'User', selection: '__typename id databaseId username' };
      for (const principal of [userPrincipal(bob.id), admin, ANONYMOUS]) {
        const { errors, nodes, entities } = await lookupBesideEntities(subgraph, LOOKUP, ids, principal);
        expect(errors).toBeUndefined();
        expect(nodes).toEqual(entities);
      }
      const { nodes: bobs } = await lookupBesideEntities(subgraph, LOOKUP, ids, userPrincipal(bob.id));
      expect(bobs?.map((found) => (found as { username: string } | null)?.username ?? null)).toEqual([
        'alice',
        'bob',
        null,
      ]);
    });
  });
});
