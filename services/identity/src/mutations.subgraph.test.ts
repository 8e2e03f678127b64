import { resolve } from 'node:path';
import {
  ANONYMOUS,
  applyGroup,
  createCursors,
  createLogger,
  groupAccessLookup,
  type AccessClient,
  type InternalClient,
  type Principal,
  type Sql,
} from '@hub/common';
import { createTestSchema, createTestSubgraph, errorCode, userPrincipal } from '@hub/common/testing';
import { createLoaders, type IdentityContext } from './context';
import { createApplicationSettings } from './domain/application-settings';
import { createTokenSealer } from './domain/token-seal';
import { createGroupsService } from './groups-service';
import { createIdentityService } from './identity-service';
import { createKeysService } from './keys-service';
import { createResolvers } from './resolvers';

const silent = createLogger('test', 'silent');

// Membership (another service) as identity asks it about groups: the creator owns the group.
const owners = new Map<number, number>();
const membership = {
  call: async (endpoint: unknown, body: { userId: number | null; groupIds?: number[]; groupId?: number }) => {
    if (endpoint === groupAccessLookup)
      return {
        access: body.groupIds!.map((groupId) => {
          const owner = owners.get(groupId) === body.userId;
          return { groupId, level: owner ? 50 : null, readable: owner };
        }),
      };
    if (endpoint === applyGroup) return { applied: true };
    throw new Error('not offered by this stand-in');
  },
  close: async () => {},
} as unknown as InternalClient;

const ERRORS = 'errors { code path message v3Attribute v3Message }';
const USER = 'user { databaseId username state }';
const CREATE_USER = `mutation($input: CreateUserInput!) { createUser(input: $input) { clientMutationId ${USER} ${ERRORS} } }`;
const UPDATE_USER = `mutation($input: UpdateUserInput!) { updateUser(input: $input) { ${USER} ${ERRORS} } }`;
const DELETE_USER = `mutation($input: DeleteUserInput!) { deleteUser(input: $input) { ${USER} ${ERRORS} } }`;
const BLOCK_USER = `mutation($input: BlockUserInput!) { blockUser(input: $input) { ${USER} ${ERRORS} } }`;
const UNBLOCK_USER = `mutation($input: UnblockUserInput!) { unblockUser(input: $input) { ${USER} ${ERRORS} } }`;
const CREATE_SESSION = `mutation($input: CreateSessionInput!) {
  createSession(input: $input) { clientMutationId session { privateToken user { username email } } ${ERRORS} }
}`;
const CREATE_OAUTH_TOKEN = `mutation($input: CreateOAuthTokenInput!) {
  createOAuthToken(input: $input) { clientMutationId oauthToken { tokenType scope } ${ERRORS} }
}`;
const RESET_PRIVATE_TOKEN = `mutation($input: ResetPrivateTokenInput!) { resetPrivateToken(input: $input) { clientMutationId privateToken ${ERRORS} } }`;
const CREATE_GROUP = `mutation($input: CreateGroupInput!) { createGroup(input: $input) { group { databaseId path } ${ERRORS} } }`;
const DELETE_GROUP = `mutation($input: DeleteGroupInput!) { deleteGroup(input: $input) { clientMutationId group { path } ${ERRORS} } }`;
const CREATE_SSH_KEY = `mutation($input: CreateSshKeyInput!) { createSshKey(input: $input) { sshKey { id: databaseId title } ${ERRORS} } }`;
const DELETE_SSH_KEY = `mutation($input: DeleteSshKeyInput!) { deleteSshKey(input: $input) { sshKey { id: databaseId } ${ERRORS} } }`;
const UPDATE_SETTINGS = `mutation($input: UpdateApplicationSettingsInput!) {
  updateApplicationSettings(input: $input) {
    clientMutationId
    applicationSettings { defaultProjectVisibility defaultSnippetVisibility restrictedVisibilityLevels v3DefaultProjectVisibility }
    ${ERRORS}
  }
}`;

// Made by ssh-keygen (the one ssh-keys.test.ts reads).
const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBSLsVhyUp3chpjYBgevgZEiGHSF3y0ES0IjQV/o4Y+G ed@example';

describe('identity subgraph: mutation payloads', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<IdentityContext>>>;
  let admin: Principal;
  let alice: Principal;

  /** A new user made through the graph, as an admin makes one. */
  const newUser = async (username: string, extra: Record<string, unknown> = {}) => {
    const result = await subgraph.run(
      CREATE_USER,
      { input: { username, email: `${username}@x.test`, name: username, password: 'password-1', ...extra } },
      admin,
    );
    expect(result.errors).toBeUndefined();
    return result.data!.createUser.user as { databaseId: number; username: string };
  };

  beforeAll(async () => {
    db = await createTestSchema('identity', resolve(__dirname, '..', 'migrations'));
    const sealer = createTokenSealer('test-key-'.repeat(5));
    const identity = createIdentityService({ sql: db.sql, logger: silent, oauthTokenTtlSeconds: 60, sealer });
    subgraph = await createTestSubgraph<IdentityContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({
        sql: db.sql,
        identity,
        groups: createGroupsService({ sql: db.sql, membership, logger: silent }),
        settings: createApplicationSettings({ sql: db.sql }),
        keys: createKeysService({ sql: db.sql, access: {} as AccessClient }),
        externalUrl: 'http://hub.test',
        cursors: createCursors('a-secret-for-tests-only-0123456789'),
      }),
      createContext: (principal) => ({ principal, loaders: createLoaders(db.sql) }),
    });
    const root = await identity.createUser({
      username: 'root',
      email: 'root@x.test',
      name: 'Root',
      password: 'password-1',
      isAdmin: true,
    });
    admin = userPrincipal(root.id, { isAdmin: true, username: 'root' });
    const made = await newUser('alice');
    alice = userPrincipal(made.databaseId, { username: 'alice' });
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  describe('users', () => {
    it('answers a taken email in errors with a null user, and echoes clientMutationId', async () => {
      const input = { username: 'alice2', email: 'ALICE@x.test', name: 'A', password: 'password-1' };
      const result = await subgraph.run(CREATE_USER, { input: { ...input, clientMutationId: 'try-1' } }, admin);
      expect(result).toEqual({
        data: {
          createUser: {
            clientMutationId: 'try-1',
            user: null,
            errors: [
              {
                code: 'CONFLICT',
                path: null,
                message: 'Email has already been taken',
                v3Attribute: null,
                v3Message: 'Email has already been taken',
              },
            ],
          },
        },
      });
    });

    it('points each invalid value at its input field', async () => {
      const input = { username: '-bad', email: 'nobody', name: 'N', password: 'short' };
      const result = await subgraph.run(CREATE_USER, { input }, admin);
      expect(result.data?.createUser.user).toBeNull();
      expect(result.data?.createUser.errors).toEqual([
        expect.objectContaining({ code: 'INVALID', path: ['input', 'username'], v3Attribute: 'username' }),
        {
          code: 'INVALID',
          path: ['input', 'email'],
          message: 'Email is invalid',
          v3Attribute: 'email',
          v3Message: 'is invalid',
        },
        {
          code: 'INVALID',
          path: ['input', 'password'],
          message: 'Password is too short (minimum is 8 characters)',
          v3Attribute: 'password',
          v3Message: 'is too short (minimum is 8 characters)',
        },
      ]);
    });

    it('keeps a refusal of access and a missing user GraphQL errors', async () => {
      const input = { username: 'eve', email: 'eve@x.test', name: 'Eve', password: 'password-1' };
      expect(errorCode(await subgraph.run(CREATE_USER, { input }, alice))).toBe('FORBIDDEN');
      expect(errorCode(await subgraph.run(CREATE_USER, { input }, ANONYMOUS))).toBe('UNAUTHENTICATED');
      const missing = await subgraph.run(UPDATE_USER, { input: { userId: 999999, name: 'x' } }, admin);
      expect(missing.errors?.[0]).toMatchObject({ message: '404 Not found', extensions: { code: 'NOT_FOUND' } });
      expect(missing.data).toBeNull();
      expect(errorCode(await subgraph.run(BLOCK_USER, { input: { userId: 999999 } }, admin))).toBe('NOT_FOUND');
    });

    it('changes, blocks, unblocks and deletes a user; deleting one that is gone answers null without errors', async () => {
      const bob = await newUser('bob');
      const changed = await subgraph.run(UPDATE_USER, { input: { userId: bob.databaseId, username: 'robert' } }, admin);
      expect(changed.data?.updateUser).toEqual({
        user: { databaseId: bob.databaseId, username: 'robert', state: 'ACTIVE' },
        errors: [],
      });
      expect(
        (await subgraph.run(BLOCK_USER, { input: { userId: bob.databaseId } }, admin)).data?.blockUser.user.state,
      ).toBe('BLOCKED');
      expect(
        (await subgraph.run(UNBLOCK_USER, { input: { userId: bob.databaseId } }, admin)).data?.unblockUser.user.state,
      ).toBe('ACTIVE');
      const remove = { input: { userId: bob.databaseId } };
      expect((await subgraph.run(DELETE_USER, remove, admin)).data?.deleteUser.user.username).toBe('robert');
      expect((await subgraph.run(DELETE_USER, remove, admin)).data?.deleteUser).toEqual({ user: null, errors: [] });
    });
  });

  describe('sign-ins', () => {
    it('answers a session in the payload, read as the user who signed in', async () => {
      const result = await subgraph.run(
        CREATE_SESSION,
        { input: { clientMutationId: 's-1', login: 'ALICE', password: 'password-1' } },
        ANONYMOUS,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data?.createSession).toEqual({
        clientMutationId: 's-1',
        session: { privateToken: expect.any(String), user: { username: 'alice', email: 'alice@x.test' } },
        errors: [],
      });
    });

    it('keeps refused sign-ins GraphQL errors, never payload errors', async () => {
      const wrong = await subgraph.run(CREATE_SESSION, { input: { login: 'alice', password: 'nope-nope' } }, ANONYMOUS);
      expect(wrong).toEqual({ data: null, errors: [expect.objectContaining({ message: '401 Unauthorized' })] });
      expect(errorCode(wrong)).toBe('UNAUTHENTICATED');
      expect(errorCode(await subgraph.run(CREATE_SESSION, { input: { password: 'x' } }, ANONYMOUS))).toBe(
        'UNAUTHENTICATED',
      );
      // OAuth's refusals keep the RFC 6749 error name the facade's /oauth/token answers with.
      const unsupported = await subgraph.run(CREATE_OAUTH_TOKEN, { input: { grantType: 'implicit' } }, ANONYMOUS);
      expect(unsupported.data).toBeNull();
      expect(unsupported.errors?.[0].extensions).toMatchObject({
        code: 'BAD_REQUEST',
        oauthError: 'unsupported_grant_type',
      });
      const missing = await subgraph.run(CREATE_OAUTH_TOKEN, { input: { grantType: 'password' } }, ANONYMOUS);
      expect(missing.errors?.[0].extensions).toMatchObject({ code: 'BAD_REQUEST', oauthError: 'invalid_request' });
      const wrongGrant = { grantType: 'password', username: 'alice', password: 'nope-nope' };
      const refused = await subgraph.run(CREATE_OAUTH_TOKEN, { input: wrongGrant }, ANONYMOUS);
      expect(refused.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', oauthError: 'invalid_grant' });
    });

    it('issues an OAuth token in the payload', async () => {
      const grant = { clientMutationId: 'o-1', grantType: 'password', username: 'alice', password: 'password-1' };
      expect((await subgraph.run(CREATE_OAUTH_TOKEN, { input: grant }, ANONYMOUS)).data?.createOAuthToken).toEqual({
        clientMutationId: 'o-1',
        oauthToken: { tokenType: 'bearer', scope: 'api' },
        errors: [],
      });
    });

    it("resets the caller's private token, and only a signed-in caller's", async () => {
      const reset = await subgraph.run(RESET_PRIVATE_TOKEN, { input: { clientMutationId: 'r-1' } }, alice);
      expect(reset.data?.resetPrivateToken).toEqual({
        clientMutationId: 'r-1',
        privateToken: expect.stringMatching(/.{20}/),
        errors: [],
      });
      expect(errorCode(await subgraph.run(RESET_PRIVATE_TOKEN, { input: {} }, ANONYMOUS))).toBe('UNAUTHENTICATED');
    });
  });

  describe('groups', () => {
    it('answers an invalid group in errors with GitLab’s message, and a missing one as a GraphQL error', async () => {
      const refused = await subgraph.run(CREATE_GROUP, { input: { name: 'Bad', path: 'admin' } }, alice);
      expect(refused.data?.createGroup).toEqual({
        group: null,
        errors: [
          {
            code: 'INVALID',
            path: null,
            message: 'Failed to save group {:path=>["is reserved"]}',
            v3Attribute: null,
            v3Message: 'Failed to save group {:path=>["is reserved"]}',
          },
        ],
      });
      const made = (await subgraph.run(CREATE_GROUP, { input: { name: 'Team', path: 'team' } }, alice)).data
        ?.createGroup.group;
      owners.set(made.databaseId, alice.userId!);
      expect(errorCode(await subgraph.run(DELETE_GROUP, { input: { groupId: 999999 } }, alice))).toBe('NOT_FOUND');
      expect(errorCode(await subgraph.run(DELETE_GROUP, { input: { groupId: made.databaseId } }, admin))).toBeNull();
    });
  });

  describe('SSH keys', () => {
    it('answers a missing title in errors in v3’s words, and another user’s keys as FORBIDDEN', async () => {
      const refused = await subgraph.run(CREATE_SSH_KEY, { input: { key: SSH_KEY } }, alice);
      expect(refused.data?.createSshKey).toEqual({
        sshKey: null,
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
      const input = { userId: admin.userId, title: 'k', key: SSH_KEY };
      expect(errorCode(await subgraph.run(CREATE_SSH_KEY, { input }, alice))).toBe('FORBIDDEN');
      const added = (await subgraph.run(CREATE_SSH_KEY, { input: { title: 'mine', key: SSH_KEY } }, alice)).data
        ?.createSshKey;
      expect(added).toEqual({ sshKey: { id: expect.any(Number), title: 'mine' }, errors: [] });
      const remove = { input: { sshKeyId: added.sshKey.id } };
      expect((await subgraph.run(DELETE_SSH_KEY, remove, alice)).data?.deleteSshKey.sshKey).toEqual({
        id: added.sshKey.id,
      });
      expect((await subgraph.run(DELETE_SSH_KEY, remove, alice)).data?.deleteSshKey).toEqual({
        sshKey: null,
        errors: [],
      });
    });
  });

  describe('application settings', () => {
    it('takes visibilities as the public enum', async () => {
      const input = {
        clientMutationId: 'a-1',
        defaultProjectVisibility: 'INTERNAL',
        defaultSnippetVisibility: 'PUBLIC',
        restrictedVisibilityLevels: ['PUBLIC', 'PRIVATE', 'PUBLIC'],
      };
      expect((await subgraph.run(UPDATE_SETTINGS, { input }, admin)).data?.updateApplicationSettings).toEqual({
        clientMutationId: 'a-1',
        applicationSettings: {
          defaultProjectVisibility: 'INTERNAL',
          defaultSnippetVisibility: 'PUBLIC',
          restrictedVisibilityLevels: ['PRIVATE', 'PUBLIC'],
          v3DefaultProjectVisibility: 10,
        },
        errors: [],
      });
    });

    it("refuses v3's numbers that are no level in errors, per field, and changes nothing", async () => {
      const input = { v3DefaultProjectVisibility: 5, v3RestrictedVisibilityLevels: [0, 7], homePageUrl: 'ftp://x' };
      const result = await subgraph.run(UPDATE_SETTINGS, { input }, admin);
      expect(result.data?.updateApplicationSettings).toEqual({
        clientMutationId: null,
        applicationSettings: null,
        errors: [
          {
            code: 'INVALID',
            path: ['input', 'defaultProjectVisibility'],
            message: 'Default project visibility is not included in the list',
            v3Attribute: 'default_project_visibility',
            v3Message: 'is not included in the list',
          },
          {
            code: 'INVALID',
            path: ['input', 'restrictedVisibilityLevels'],
            message: "Restricted visibility levels '7' is not a valid visibility level",
            v3Attribute: 'restricted_visibility_levels',
            v3Message: "'7' is not a valid visibility level",
          },
          {
            code: 'INVALID',
            path: ['input', 'homePageUrl'],
            message: 'Home page url should be a valid url',
            v3Attribute: 'home_page_url',
            v3Message: 'should be a valid url',
          },
        ],
      });
      // The number wins over the enum when both are given (the facade sends only the number); the
      // refused levels above were not stored.
      const both = { v3DefaultProjectVisibility: 0, defaultProjectVisibility: 'PUBLIC' };
      expect(
        (await subgraph.run(UPDATE_SETTINGS, { input: both }, admin)).data?.updateApplicationSettings
          .applicationSettings,
      ).toEqual({
        defaultProjectVisibility: 'PRIVATE',
        defaultSnippetVisibility: 'PUBLIC',
        restrictedVisibilityLevels: ['PRIVATE', 'PUBLIC'],
        v3DefaultProjectVisibility: 0,
      });
      expect(errorCode(await subgraph.run(UPDATE_SETTINGS, { input: both }, alice))).toBe('FORBIDDEN');
    });
  });
});
