import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  BREAK,
  execute,
  GraphQLError,
  Kind,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/**
 * Executes a subgraph's operations with graphql-jit: each document (Apollo Server parses a query
 * string once and hands back the same DocumentNode) is compiled once into a function that walks
 * its fields without graphql-js's per-field lookups, promise bookkeeping and argument coercion.
 * A profiled list of 100 projects spent about a third of the subgraph's time there and in the
 * garbage it left.
 *
 * Apollo Server 4+ takes a custom executor only through its `gateway` option, so this is a
 * "gateway" that serves one fixed schema. Introspection (`__schema`, `__type`), which graphql-jit
 * does not implement, runs on graphql-js as before, and so does an operation whose variables
 * graphql-jit refused: graphql-js words that refusal as Apollo Server recognizes it (a 400).
 * So does a document with a string literal holding one of graphql-jit's markers (see
 * hasMarkerLiteral): the compiler writes argument literals into the code it generates.
 */
export function compiledExecution(
  schema: GraphQLSchema,
  compile: typeof compileQuery = compileQuery,
): GatewayInterface {
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  const listeners = new Set<Parameters<GatewayInterface['onSchemaLoadOrUpdate']>[0]>();

  const compiledFor = (document: DocumentNode, operation: OperationDefinitionNode, operationName: string | null) => {
    let byName = compiled.get(document);
    if (!byName) compiled.set(document, (byName = new Map()));
    const key = operationName ?? '';
    let query = byName.get(key);
    if (query === undefined) {
      // A document graphql-jit refuses or fails on (Apollo Server validated it already) runs on
      // graphql-js, and is not tried again.
      query = null;
      try {
        const result =
          asksForIntrospection(operation) || hasMarkerLiteral(document)
            ? null
            : compile(schema, document, operationName ?? undefined);
        if (result && isCompiledQuery(result)) query = result;
      } catch {
        // graphql-js below
      }
      byName.set(key, query);
    }
    return query;
  };

  const executor: GatewayExecutor = async (requestContext) => {
    const { document, operation, operationName, context } = requestContext;
    const variables = requestContext.request.variables ?? {};
    const query = compiledFor(document, operation, operationName);
    const onGraphqlJs = () =>
      execute({ schema, document, operationName, contextValue: context, variableValues: variables });
    if (!query) return onGraphqlJs();
    const result = await query.query(undefined, context, variables);
    // No data at all: the variables were refused before anything ran.
    if (!('data' in result)) return onGraphqlJs();
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLJsError) } : result;
  };

  return {
    async load() {
      // Apollo Server takes the schema from this callback, registered before load is called.
      for (const callback of listeners) callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
    async stop() {
      listeners.clear();
    },
  };
}

/**
 * Whether an operation's root may select `__schema` or `__type` (introspection lives only at the
 * root); a fragment at the root is not looked into and counts as maybe.
 */
function asksForIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.some(
    (selection) =>
      selection.kind !== 'Field' || selection.name.value === '__schema' || selection.name.value === '__type',
  );
}

/**
 * Whether a string literal in the document holds graphql-jit's marker prefix. graphql-jit writes
 * an operation's argument literals into the function it compiles as JSON, then turns JSON
 * strings that begin with its (published) date marker into `new Date(<the rest>)`: a literal
 * made to begin with that marker would run the rest as code. Callers of the gateway write
 * literals of their own, which the query planner passes on to the subgraphs.
 */
function hasMarkerLiteral(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.STRING]: (node) => {
      if (!node.value.includes('__MAGIC_')) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/**
 * graphql-jit's errors lack what Apollo Server and the error formatter read on graphql-js's:
 * `extensions` is undefined unless the thrown error had some (Apollo reads `extensions.code`
 * and, failing, answers "Internal server error" for the whole request).
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const converted = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions: error.extensions,
  });
  (converted as { locations: GraphQLError['locations'] }).locations = error.locations;
  return converted;
}
