import { resolve } from 'node:path';
import { createAccessClient, createCursors, type Sql } from '@hub/common';
import {
  createTestSchema,
  createTestSubgraph,
  errorCode,
  membershipStandIn,
  privateProject,
  userPrincipal,
} from '@hub/common/testing';
import { createLoaders, type HooksContext } from './context';
import type { DeliveryQueue } from './delivery/queue';
import { createHooksService } from './hooks-service';
import { createResolvers } from './resolvers';
import type { SystemHooksService } from './system-hooks-service';

const OWNER = 1;
const MASTER = 2;
const DEVELOPER = 3;
const STRANGER = 4;
/** Membership's answers (another service): project 10 is private, owned by OWNER. */
const membership = membershipStandIn([privateProject(10, OWNER)], { [MASTER]: 40, [DEVELOPER]: 30 });

/** The Project this subgraph adds hooks to, as other subgraphs reference it: by its databaseId key. */
const PROJECT_HOOKS = `query { _entities(representations: [{ __typename: "Project", databaseId: 10 }]) { ... on Project { databaseId hooks { total nodes { projectId url } } } } }`;

describe('hooks subgraph', () => {
  let db: { sql: Sql; drop: () => Promise<void> };
  let subgraph: Awaited<ReturnType<typeof createTestSubgraph<HooksContext>>>;
  const as = (userId: number) => userPrincipal(userId);

  beforeAll(async () => {
    db = await createTestSchema('hooks', resolve(__dirname, '..', 'migrations'));
    const access = createAccessClient({ membership, ttlMs: 0 });
    // Creating and listing hooks delivers nothing: the queue and system hooks are never called here.
    const hooks = createHooksService({ sql: db.sql, access, queue: {} as DeliveryQueue, allowLocal: true });
    subgraph = await createTestSubgraph<HooksContext>({
      sdlPath: resolve(__dirname, 'schema.graphql'),
      resolvers: createResolvers({
        sql: db.sql,
        hooks,
        systemHooks: {} as SystemHooksService,
        cursors: createCursors('a-secret-for-tests-only-0123456789'),
      }),
      createContext: (principal) => ({ principal, loaders: createLoaders(db.sql, access, principal) }),
    });
  });
  afterAll(async () => {
    await subgraph?.stop();
    await db?.drop();
  });

  it("reads a project reference by its databaseId key: that project's hooks, with its access rule, and the key shown back", async () => {
    const made = await subgraph.run(
      `mutation { createHook(input: { projectId: 10, url: "https://example.com/hook" }) { hook { projectId } errors { code } } }`,
      {},
      as(MASTER),
    );
    expect(made).toEqual({ data: { createHook: { hook: { projectId: 10 }, errors: [] } } });
    expect((await subgraph.run(PROJECT_HOOKS, {}, as(OWNER))).data?._entities).toEqual([
      { databaseId: 10, hooks: { total: 1, nodes: [{ projectId: 10, url: 'https://example.com/hook' }] } },
    ]);
    expect(errorCode(await subgraph.run(PROJECT_HOOKS, {}, as(DEVELOPER)))).toBe('FORBIDDEN');
    expect(errorCode(await subgraph.run(PROJECT_HOOKS, {}, as(STRANGER)))).toBe('NOT_FOUND');
  });

  describe('mutation payloads', () => {
    const CREATE = `mutation($input: CreateHookInput!) {
      createHook(input: $input) { clientMutationId hook { id: databaseId url } errors { code path message v3Attribute v3Message } }
    }`;
    const UPDATE = `mutation($input: UpdateHookInput!) { updateHook(input: $input) { hook { id: databaseId url } errors { code } } }`;
    const DELETE = `mutation($input: DeleteHookInput!) { deleteHook(input: $input) { clientMutationId hook { id: databaseId } errors { code } } }`;

    it('answers a url that may not be called in errors, with a null hook, and echoes clientMutationId', async () => {
      const refused = await subgraph.run(
        CREATE,
        { input: { clientMutationId: 'try-1', projectId: 10, url: 'ftp://example.com/hook' } },
        as(MASTER),
      );
      expect(refused).toEqual({
        data: {
          createHook: {
            clientMutationId: 'try-1',
            hook: null,
            errors: [
              {
                code: 'UNPROCESSABLE',
                path: null,
                message: 'Invalid url given',
                v3Attribute: null,
                v3Message: 'Invalid url given',
              },
            ],
          },
        },
      });
    });

    it('points a token a header cannot carry at its input field', async () => {
      const refused = await subgraph.run(
        CREATE,
        { input: { projectId: 10, url: 'https://example.com/t', token: 'bad\ntoken' } },
        as(MASTER),
      );
      expect(refused.data?.createHook).toEqual({
        clientMutationId: null,
        hook: null,
        errors: [
          {
            code: 'INVALID',
            path: ['input', 'token'],
            message: 'Token is invalid',
            v3Attribute: 'token',
            v3Message: 'is invalid',
          },
        ],
      });
    });

    it('keeps a refusal of access and a missing hook GraphQL errors', async () => {
      const input = { projectId: 10, url: 'https://example.com/developer' };
      expect(errorCode(await subgraph.run(CREATE, { input }, as(DEVELOPER)))).toBe('FORBIDDEN');
      expect(errorCode(await subgraph.run(CREATE, { input }, as(STRANGER)))).toBe('NOT_FOUND');
      expect(errorCode(await subgraph.run(UPDATE, { input: { ...input, hookId: 999999 } }, as(MASTER)))).toBe(
        'NOT_FOUND',
      );
    });

    it('changes a hook and removes it idempotently: the removed hook, then null without errors', async () => {
      const made = (
        await subgraph.run(CREATE, { input: { projectId: 10, url: 'https://example.com/before' } }, as(MASTER))
      ).data?.createHook.hook;
      const changed = await subgraph.run(
        UPDATE,
        { input: { projectId: 10, hookId: made.id, url: 'https://example.com/after' } },
        as(MASTER),
      );
      expect(changed.data?.updateHook).toEqual({ hook: { id: made.id, url: 'https://example.com/after' }, errors: [] });
      const remove = { input: { clientMutationId: 'rm', projectId: 10, hookId: made.id } };
      expect((await subgraph.run(DELETE, remove, as(MASTER))).data?.deleteHook).toEqual({
        clientMutationId: 'rm',
        hook: { id: made.id },
        errors: [],
      });
      expect((await subgraph.run(DELETE, remove, as(MASTER))).data?.deleteHook).toEqual({
        clientMutationId: 'rm',
        hook: null,
        errors: [],
      });
    });
  });
});
