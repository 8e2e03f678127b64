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
      `mutation { createHook(projectId: 10, input: { url: "https://example.com/hook" }) { projectId } }`,
      {},
      as(MASTER),
    );
    expect(made).toEqual({ data: { createHook: { projectId: 10 } } });
    expect((await subgraph.run(PROJECT_HOOKS, {}, as(OWNER))).data?._entities).toEqual([
      { databaseId: 10, hooks: { total: 1, nodes: [{ projectId: 10, url: 'https://example.com/hook' }] } },
    ]);
    expect(errorCode(await subgraph.run(PROJECT_HOOKS, {}, as(DEVELOPER)))).toBe('FORBIDDEN');
    expect(errorCode(await subgraph.run(PROJECT_HOOKS, {}, as(STRANGER)))).toBe('NOT_FOUND');
  });
});
