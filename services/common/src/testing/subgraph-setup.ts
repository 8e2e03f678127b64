import { resolve } from 'node:path';
import type { GraphQLFormattedError } from 'graphql';
import { applyGroup, groupAccessLookup, memberGroups } from '../contracts/membership';
import type { Sql } from '../db';
import type { InternalClient } from '../internal-http';
import type { Principal } from '../principal';
import { createTestSchema, createTestSubgraph } from './subgraph-harness';

/**
 * One service's subgraph for a test file, over a fresh schema of its own: `start` (the file's
 * beforeAll) migrates the schema from `<srcDir>/../migrations`, lets `build` make the resolvers and
 * the context from its sql and starts the subgraph of `<srcDir>/schema.graphql`; `stop` (afterAll)
 * stops it and drops the schema. `db.sql` and `subgraph.run` serve the tests in between.
 */
export function testSubgraph<Context extends { principal: Principal }>(options: {
  service: string;
  srcDir: string;
  build: (sql: Sql) => {
    resolvers: unknown;
    createContext: (principal: Principal) => Context;
  };
}) {
  let schema: Awaited<ReturnType<typeof createTestSchema>> | undefined;
  let server: Awaited<ReturnType<typeof createTestSubgraph<Context>>> | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test subgraph is not started: call start() in beforeAll');
    return value;
  };
  return {
    db: {
      get sql(): Sql {
        return started(schema).sql;
      },
    },
    subgraph: {
      run: <T = any>(
        query: string,
        variables: Record<string, unknown>,
        principal: Principal,
      ): Promise<{ data?: T | null; errors?: readonly GraphQLFormattedError[] }> =>
        started(server).run<T>(query, variables, principal),
    },
    async start() {
      schema = await createTestSchema(options.service, resolve(options.srcDir, '..', 'migrations'));
      server = await createTestSubgraph<Context>({
        sdlPath: resolve(options.srcDir, 'schema.graphql'),
        ...options.build(schema.sql),
      });
    },
    async stop() {
      await server?.stop();
      await schema?.drop();
    },
  };
}

/** A connection as the paging checks read it, its nodes' ids asked for as numbers. */
export interface ConnectionPage {
  count: number;
  edges: Array<{ cursor: string; node: { id: number } }>;
  nodes: Array<{ id: number }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** A client of another service that the code under test never needs an answer from. */
export const unusedClient = { call: async () => ({}), close: async () => {} } as unknown as InternalClient;

/** Identity's users lookup (another service): every id asked for is user `u<id>`. */
export const usersLookupStandIn = {
  call: async (_contract: unknown, { ids }: { ids: number[] }) => ({
    users: ids.map((id) => ({ id, username: `u${id}` })),
  }),
  close: async () => {},
} as unknown as InternalClient;

/**
 * Membership (another service) as identity asks it about groups: `groupMembers` says who is a
 * member (an Owner) of which group. Only members may read a group here (GitLab also lets those who
 * see one of its projects; membership decides).
 */
export function groupMembershipStandIn(groupMembers: ReadonlyMap<number, ReadonlySet<number>>): InternalClient {
  return {
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
}
