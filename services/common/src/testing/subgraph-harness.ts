import { randomBytes } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { GraphQLFormattedError } from 'graphql';
import { createSql, type Sql } from '../db';
import { createLogger } from '../logger';
import { migrate } from '../migrate';
import type { ProjectAccess } from '../access';
import type { ProjectFacts } from '../contracts/projects';
import type { InternalClient } from '../internal-http';
import type { Principal } from '../principal';
import { createErrorFormatter, loadSdl } from '../subgraph';

/** The Postgres the subgraph tests' global setup started (see jest.config.js). */
export const TEST_DATABASE_VARIABLE = 'HUB_TEST_DATABASE_URL';

const silent = createLogger('subgraph-test', 'silent');

/**
 * A fresh schema of one service in the test Postgres, migrated as the service migrates itself;
 * `drop` removes it. Each test file gets its own, so files run in parallel.
 */
export async function createTestSchema(
  service: string,
  migrationsDir: string,
): Promise<{ sql: Sql; drop: () => Promise<void> }> {
  const url = process.env[TEST_DATABASE_VARIABLE];
  if (!url) throw new Error(`${TEST_DATABASE_VARIABLE} is not set: run subgraph tests through jest (npm test)`);
  const schema = `${service}_test_${randomBytes(4).toString('hex')}`;
  const sql = createSql({ url, schema, max: 4 });
  await migrate({ sql, schema, dir: migrationsDir, logger: silent });
  return {
    sql,
    drop: async () => {
      await sql.unsafe(`drop schema "${schema}" cascade`);
      await sql.end();
    },
  };
}

/**
 * A subgraph as the gateway sees it, without HTTP: its SDL and resolvers, its error formatter,
 * and a context made per operation for the given principal. `_entities` works as in production.
 */
export async function createTestSubgraph<Context extends { principal: Principal }>(options: {
  sdlPath: string;
  resolvers: unknown;
  createContext: (principal: Principal) => Context;
}) {
  const server = new ApolloServer<Context>({
    schema: buildSubgraphSchema({
      typeDefs: loadSdl(options.sdlPath),
      resolvers: options.resolvers as GraphQLResolverMap<unknown>,
    }),
    formatError: createErrorFormatter(silent),
    includeStacktraceInErrorResponses: false,
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  await server.start();
  return {
    /** Runs one operation as `principal`: data, and errors with their codes. */
    async run<T = any>(
      query: string,
      variables: Record<string, unknown>,
      principal: Principal,
    ): Promise<{ data?: T | null; errors?: readonly GraphQLFormattedError[] }> {
      const response = await server.executeOperation(
        { query, variables },
        { contextValue: options.createContext(principal) },
      );
      if (response.body.kind !== 'single') throw new Error('incremental delivery is not used here');
      return response.body.singleResult as { data?: T | null; errors?: readonly GraphQLFormattedError[] };
    },
    stop: () => server.stop(),
  };
}

/**
 * An owner's lookup by global ids (`ownedNodes`: `issueNodes(ids:)`, say) beside its `_entities` for
 * the same ids as references by global id, both as `principal` and selecting `selection`: the
 * lookup is meant to answer exactly as `_entities` does, id by id.
 */
export async function lookupBesideEntities(
  subgraph: Pick<Awaited<ReturnType<typeof createTestSubgraph>>, 'run'>,
  lookup: { field: string; type: string; selection: string },
  ids: string[],
  principal: Principal,
) {
  const [looked, entities] = await Promise.all([
    subgraph.run(`query($ids: [ID!]!) { ${lookup.field}(ids: $ids) { ${lookup.selection} } }`, { ids }, principal),
    subgraph.run(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on ${lookup.type} { ${lookup.selection} } } }`,
      { r: ids.map((id) => ({ __typename: lookup.type, id })) },
      principal,
    ),
  ]);
  return {
    /** The lookup's errors (none expected) and answers. */
    errors: looked.errors,
    nodes: looked.data?.[lookup.field] as unknown[] | undefined,
    entities: entities.data?._entities as unknown[] | undefined,
  };
}

/** The code of the first error of a result (NOT_FOUND, FORBIDDEN, ...), or null. */
export const errorCode = (result: { errors?: readonly GraphQLFormattedError[] }) =>
  (result.errors?.[0]?.extensions?.code as string | undefined) ?? null;

/** A signed-in user's principal, for tests. */
export const userPrincipal = (userId: number, options: { isAdmin?: boolean; username?: string } = {}): Principal => ({
  userId,
  username: options.username ?? `user${userId}`,
  isAdmin: options.isAdmin ?? false,
  impersonatorId: null,
});

/**
 * Membership's authorization API as a subgraph test needs it (membership is another service):
 * the given projects, and each user's level on every one of them.
 */
export function membershipStandIn(
  projects: Array<Omit<ProjectAccess, 'memberLevel' | 'groupLevel' | 'notificationLevel'>>,
  levels: Record<number, number>,
): InternalClient {
  const byId = new Map(projects.map((p) => [p.projectId, p]));
  return {
    call: async (_endpoint: unknown, body: { userId: number | null; projectIds: number[] }) => ({
      access: body.projectIds.map((id) => {
        const project = byId.get(id);
        return project
          ? {
              ...project,
              memberLevel: body.userId === null ? null : (levels[body.userId] ?? null),
              groupLevel: null,
              notificationLevel: null,
            }
          : null;
      }),
    }),
    close: async () => {},
  } as unknown as InternalClient;
}

/** The facts projects publishes of a private project owned by `ownerId` (its creator too), every feature on but snippets. */
export const testProjectFacts = (
  projectId: number,
  ownerId: number,
  overrides: Partial<ProjectFacts> = {},
): ProjectFacts => ({
  projectId,
  ownerId,
  visibilityLevel: 0,
  archived: false,
  issuesEnabled: true,
  mergeRequestsEnabled: true,
  snippetsEnabled: false,
  wikiEnabled: true,
  version: 1,
  deleted: false,
  creatorId: ownerId,
  namespaceId: null,
  ...overrides,
});

/** A private project owned by `ownerId`, with every feature on unless `overrides` says otherwise. */
export const privateProject = (
  projectId: number,
  ownerId: number,
  overrides: Partial<ProjectAccess> = {},
): Omit<ProjectAccess, 'memberLevel' | 'groupLevel' | 'notificationLevel'> => ({
  projectId,
  visibilityLevel: 0,
  ownerId,
  archived: false,
  issuesEnabled: true,
  mergeRequestsEnabled: true,
  snippetsEnabled: true,
  wikiEnabled: true,
  ...overrides,
});

export * from './subgraph-setup';
