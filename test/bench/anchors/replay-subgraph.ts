import {
  Kind,
  print,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLResolveInfo,
  type OperationDefinitionNode,
} from 'graphql';
import {
  boundPort,
  createLogger,
  createObservedApp,
  listen,
  loadSdl,
  mountSubgraph,
  PRINCIPAL_HEADER,
  signPrincipal,
  type Principal,
} from '@hub/common';
import { startServerProcess, type ServerProcess } from './server-process';

/**
 * A stand-in for one subgraph that runs the parts every subgraph runs (the observed Express app,
 * mountSubgraph's principal check and JSON body, Apollo Server, graphql-jit) over that subgraph's
 * own schema, with no resolvers of ours behind them: each root field answers from memory what the
 * real subgraph answered the first time it was asked the same operation with the same variables.
 * No database, no git, no access checks. A facade whose subgraphs are stand-ins costs what the
 * named parts cost a route (the parts floor); where that floor already misses a target, the
 * target cannot be met without replacing one of those parts.
 */
interface ReplayConfig {
  service: string;
  sdlPath: string;
  /** The real subgraph's base URL (its /graphql answers the first ask of each operation). */
  upstream: string;
  principalSecret: string;
}

export interface ReplaySubgraph extends ServerProcess {
  url: string;
}

export async function startReplaySubgraph(config: ReplayConfig): Promise<ReplaySubgraph> {
  const child = await startServerProcess(__filename, [JSON.stringify(config)], `${config.service} replay`);
  return { ...child, url: `http://127.0.0.1:${child.port}` };
}

/** The names of the root query fields a subgraph's SDL declares, with federation's `_entities`. */
export function rootQueryFields(sdl: DocumentNode): string[] {
  const isQuery = (d: DefinitionNode) =>
    (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && d.name.value === 'Query';
  const declared = sdl.definitions
    .filter(isQuery)
    .flatMap((d) => ('fields' in d && d.fields ? d.fields.map((f) => f.name.value) : []));
  return [...new Set([...declared, '_entities'])];
}

/**
 * A resolver for every field of every other object type, reading the field's response key: the
 * gateway passes the caller's aliases on (`default_branch: defaultBranch`), so a recorded object
 * is keyed by them, where graphql's default resolver would read the field's name.
 */
export function byResponseKey(
  sdl: DocumentNode,
): Record<
  string,
  Record<
    string,
    (parent: Record<string, unknown>, _args: unknown, _context: unknown, info: GraphQLResolveInfo) => unknown
  >
> {
  const read = (parent: Record<string, unknown>, _args: unknown, _context: unknown, info: GraphQLResolveInfo) =>
    parent[info.path.key as string];
  const resolvers: ReturnType<typeof byResponseKey> = {};
  for (const d of sdl.definitions) {
    if (d.kind !== Kind.OBJECT_TYPE_DEFINITION && d.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    if (['Query', 'Mutation', 'Subscription'].includes(d.name.value)) continue;
    const fields = (resolvers[d.name.value] ??= {});
    for (const field of d.fields ?? []) fields[field.name.value] = read;
  }
  return resolvers;
}

type Answer = Record<string, unknown>;

/**
 * Answers by operation (Apollo Server hands every request with the same text the same parsed
 * document) and variables; the first ask of each goes to the real subgraph as that principal.
 */
export function createRecorder(ask: (query: string, variables: unknown, principal: Principal) => Promise<Answer>) {
  const byOperation = new WeakMap<OperationDefinitionNode, Map<string, Promise<Answer>>>();
  return (_parent: unknown, _args: unknown, context: { principal: Principal }, info: GraphQLResolveInfo) => {
    let byVariables = byOperation.get(info.operation);
    if (!byVariables) byOperation.set(info.operation, (byVariables = new Map()));
    const key = JSON.stringify(info.variableValues);
    let answer = byVariables.get(key);
    if (!answer) {
      const document: DocumentNode = {
        kind: Kind.DOCUMENT,
        definitions: [info.operation, ...Object.values(info.fragments)],
      };
      answer = ask(print(document), info.variableValues, context.principal).then((data) =>
        withEntityTypes(data, info.variableValues.representations),
      );
      byVariables.set(key, answer);
      // A failed first ask is asked again next time, not replayed.
      answer.catch(() => byVariables.delete(key));
    }
    return answer.then((data) => data[info.path.key as string]);
  };
}

/**
 * Entities come back without __typename unless the plan asked for it; their union's type is the
 * one each representation named (the gateway's variable `representations`).
 */
function withEntityTypes(data: Answer, representations: unknown): Answer {
  const entities = data._entities;
  if (!Array.isArray(representations) || !Array.isArray(entities)) return data;
  const typed = entities.map((entity: Answer | null, i) =>
    entity && entity.__typename === undefined
      ? { ...entity, __typename: (representations[i] as { __typename: string }).__typename }
      : entity,
  );
  return { ...data, _entities: typed };
}

async function serve(config: ReplayConfig): Promise<void> {
  const logger = createLogger(`${config.service}-replay`, 'warn');
  const ask = async (query: string, variables: unknown, principal: Principal): Promise<Answer> => {
    const response = await fetch(`${config.upstream}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [PRINCIPAL_HEADER]: signPrincipal(principal, config.principalSecret),
      },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: Answer; errors?: unknown[] };
    if (!body.data || body.errors?.length)
      throw new Error(`${config.service} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
  const answer = createRecorder(ask);
  const typeDefs = loadSdl(config.sdlPath);
  const { app } = createObservedApp({ service: `${config.service}-replay`, readiness: {} });
  await mountSubgraph<{ principal: Principal }>({
    app,
    typeDefs,
    resolvers: {
      ...byResponseKey(typeDefs),
      Query: Object.fromEntries(rootQueryFields(typeDefs).map((field) => [field, answer])),
    },
    principalSecret: config.principalSecret,
    logger,
    createContext: (principal) => ({ principal }),
  });
  const server = await listen(app, 0, '127.0.0.1');
  process.stdout.write(`${boundPort(server)}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)).closeAllConnections());
}

if (require.main === module) void serve(JSON.parse(process.argv[2]) as ReplayConfig);
