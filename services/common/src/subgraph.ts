import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import { expressMiddleware } from '@as-integrations/express5';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import type { Server } from 'node:http';
import express, { type Express, type Router } from 'express';
import { parse, type DocumentNode, type GraphQLFormattedError } from 'graphql';
import type { compileQuery } from 'graphql-jit';
import { INTERNAL_BODY_LIMIT } from './body-limits';
import { compiledExecution } from './compiled-executor';
import { DomainError, ErrorCode, isShownAsIs } from './errors';
import { isDatabaseUnavailable, pingSql, type Sql } from './db';
import { createObservedApp, listen } from './http-server';
import type { Logger } from './logger';
import { recordError } from './trace-context';
import { PRINCIPAL_HEADER, verifyPrincipal, type Principal } from './principal';

export const loadSdl = (path: string): DocumentNode => parse(readFileSync(path, 'utf8'));

const isPostgresDataException = (error: unknown) =>
  (error as { name?: string })?.name === 'PostgresError' && /^22/.test((error as { code?: string }).code ?? '');

/**
 * One function decides what a caller sees of a thrown value: domain errors and request errors
 * pass through; anything else is logged with its stack and shown as a generic 500.
 */
export function createErrorFormatter(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const code = formatted.extensions?.code;
    if (original instanceof DomainError || isShownAsIs(code)) {
      const { stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    }
    // Postgres class 22 (data exception: a NUL byte in text, a number out of range...) is always
    // caused by a value the caller sent, in any service: a bad request, not a server failure.
    if (isPostgresDataException(original)) {
      return {
        message: '400 (Bad request) invalid value',
        path: formatted.path,
        extensions: { code: ErrorCode.BAD_REQUEST },
      };
    }
    // The database down or restarting: the service is unavailable for a moment, not broken.
    if (isDatabaseUnavailable(original)) {
      logger.warn({ err: original, path: formatted.path }, 'database unavailable');
      return {
        message: '503 Service Unavailable',
        path: formatted.path,
        extensions: { code: ErrorCode.SERVICE_UNAVAILABLE },
      };
    }
    logger.error({ err: original, path: formatted.path }, 'unexpected error in resolver');
    recordError(original);
    return { message: '500 Internal Server Error', path: formatted.path, extensions: { code: ErrorCode.INTERNAL } };
  };
}

/**
 * Mounts a Federation 2 subgraph at `/graphql`. Only requests carrying a principal signed by the
 * gateway get through; the context holds that principal plus whatever `createContext` adds
 * (per-request loaders), nothing else.
 */
export async function mountSubgraph<TContext extends { principal: Principal }>(options: {
  app: Express;
  typeDefs: DocumentNode;
  // The generated resolver types are stricter than @apollo/subgraph's map; they meet here.
  resolvers: unknown;
  principalSecret: string;
  logger: Logger;
  createContext: (principal: Principal) => TContext;
  /** graphql-jit's compiler, unless a test counts its calls. */
  compile?: typeof compileQuery;
}): Promise<ApolloServer<TContext>> {
  const { app, logger } = options;
  const schema = buildSubgraphSchema({
    typeDefs: options.typeDefs,
    resolvers: options.resolvers as GraphQLResolverMap<unknown>,
  });
  const server = new ApolloServer<TContext>({
    gateway: compiledExecution(schema, options.compile),
    formatError: createErrorFormatter(logger),
    includeStacktraceInErrorResponses: false,
    // Traces are for Apollo Studio, which this system does not report to, and no answer is cached
    // by cache hints. Either plugin would wrap every resolver call (a profiled list of 100 projects
    // spent a tenth of its time there).
    plugins: [ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginCacheControlDisabled()],
    // Apollo turns introspection off when NODE_ENV is production; the gateway's callers rely on it.
    introspection: true,
    // No browser reaches a subgraph: every request must carry the gateway's signed principal
    // (checked below), which a cross-site form cannot forge. The check parsed each request's
    // content type with regular expressions: 4% of the repository subgraph's busy time on a tree.
    csrfPrevention: false,
  });
  await server.start();
  app.use(
    '/graphql',
    (req, res, next) => {
      const principal = verifyPrincipal(req.header(PRINCIPAL_HEADER), options.principalSecret);
      if (!principal) {
        res
          .status(401)
          .json({ errors: [{ message: '401 Unauthorized', extensions: { code: ErrorCode.UNAUTHENTICATED } }] });
        return;
      }
      res.locals.principal = principal;
      next();
    },
    express.json({ limit: INTERNAL_BODY_LIMIT }),
    expressMiddleware(server, { context: async ({ res }) => options.createContext(res.locals.principal as Principal) }),
  );
  return server;
}

/**
 * The HTTP side every subgraph service shares: health, readiness on its Postgres, metrics, its
 * internal routers, the subgraph at `/graphql`, listening on `port`.
 */
export async function serveSubgraph<TContext extends { principal: Principal }>(options: {
  service: string;
  port: number;
  sql: Sql;
  sdlPath: string;
  resolvers: unknown;
  principalSecret: string;
  logger: Logger;
  createContext: (principal: Principal) => TContext;
  routers?: Router[];
}): Promise<Server> {
  const { app } = createObservedApp({
    service: options.service,
    logger: options.logger,
    // Answers come from Postgres; events wait in the outbox or in Redis while either is away.
    readiness: { postgres: () => pingSql(options.sql) },
  });
  for (const router of options.routers ?? []) app.use(router);
  await mountSubgraph<TContext>({
    app,
    typeDefs: loadSdl(options.sdlPath),
    resolvers: options.resolvers,
    principalSecret: options.principalSecret,
    logger: options.logger,
    createContext: options.createContext,
  });
  const server = await listen(app, options.port);
  options.logger.info({ port: options.port }, `${options.service} subgraph listening`);
  return server;
}
