import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { ErrorCode } from '@hub/common';
import {
  BREAK,
  GraphQLError,
  visit,
  type DocumentNode,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { GatewayContext } from './context';

/** The limits a document must keep to; the facade's own documents stay well inside the defaults. */
export interface GraphQLLimits {
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxCost: number;
}

export const limitsOf = (config: {
  GRAPHQL_MAX_DEPTH: number;
  GRAPHQL_MAX_ALIASES: number;
  GRAPHQL_MAX_TOKENS: number;
  GRAPHQL_MAX_COST: number;
}): GraphQLLimits => ({
  maxDepth: config.GRAPHQL_MAX_DEPTH,
  maxAliases: config.GRAPHQL_MAX_ALIASES,
  maxTokens: config.GRAPHQL_MAX_TOKENS,
  maxCost: config.GRAPHQL_MAX_COST,
});

const isAnonymous = (context: GatewayContext | undefined) =>
  !context?.principal || (context.principal.userId === null && !context.principal.system);

// graphql-js ends its messages with the suggestion: `... Did you mean "login" or "logout"?`
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** Lists the schema's names to nobody who has not signed in: anonymous callers get no hints. */
const noSuggestionsForAnonymous: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart({ contextValue }) {
    if (!isAnonymous(contextValue)) return {};
    return {
      async didEncounterErrors({ errors }) {
        for (const error of errors) (error as { message: string }).message = error.message.replace(SUGGESTION, '');
      },
    };
  },
};

const introspects = (document: DocumentNode) => {
  let found = false;
  visit(document, {
    Field(field) {
      if (field.name.value === '__schema' || field.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
};

/**
 * Introspection is for the internal teams who sign in; anonymous callers may still ask for
 * `__typename`. Decided per request (the validated document is cached for every caller alike).
 */
const introspectionForSignedIn: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart({ contextValue }) {
    if (!isAnonymous(contextValue)) return {};
    return {
      async didResolveOperation({ document }) {
        if (introspects(document)) {
          throw new GraphQLError('401 Unauthorized: introspection needs a signed-in caller', {
            extensions: { code: ErrorCode.UNAUTHENTICATED, http: { status: 401 } },
          });
        }
      },
    };
  },
};

/**
 * Marks a request whose answer refuses credentials (UNAUTHENTICATED: a sign-in mutation with a
 * wrong password, say), which GraphQL answers with status 200: the gateway's failed-authentication
 * limit (abuse-limits.ts) reads the mark from the context.
 */
const markAuthenticationFailures: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue }) {
        if (contextValue.authentication && errors.some((e) => e.extensions?.code === ErrorCode.UNAUTHENTICATED))
          contextValue.authentication.failed = true;
      },
      async willSendResponse({ contextValue, response }) {
        if (!contextValue.authentication?.failed || response.body.kind !== 'single') return;
        const wait = (await contextValue.authentication.overBudgetFor?.()) ?? 0;
        if (wait === 0) return;
        // Past the failure budget, a refused sign-in is stopped: 429 and when to come back.
        response.http.status = 429;
        response.http.headers.set('retry-after', String(wait));
        response.body.singleResult.errors = [
          { message: '429 Too Many Requests', extensions: { code: ErrorCode.TOO_MANY_REQUESTS } },
        ];
      },
    };
  },
};

/**
 * Each answer says what its operation cost and where the caller stands, as GitHub's `rateLimit`
 * does: `extensions.cost = { requested, limit, rateLimit }`. The cost is graphql-armor's, computed
 * when a document is first validated and kept with the parsed document (which Apollo reuses).
 */
function costReporting(maxCost: number) {
  const costs = new WeakMap<DocumentNode, Map<string, number>>();
  // The rule runs once per operation definition, in document order, in each validation.
  const operationsSeen = new WeakMap<ValidationContext, number>();
  const onAccept = (context: ValidationContext | null, details: { n: number }) => {
    const document = context?.getDocument();
    if (!context || !document) return;
    const index = operationsSeen.get(context) ?? 0;
    operationsSeen.set(context, index + 1);
    const names = document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' ? [d.name?.value ?? ''] : []));
    let byName = costs.get(document);
    if (!byName) costs.set(document, (byName = new Map()));
    byName.set(names[index] ?? '', details.n);
  };
  const plugin: ApolloServerPlugin<GatewayContext> = {
    async requestDidStart() {
      return {
        async willSendResponse({ document, operationName, operation, contextValue, response }) {
          if (!document || response.body.kind !== 'single') return;
          const byName = costs.get(document);
          const requested = byName?.get(operationName ?? operation?.name?.value ?? '') ?? byName?.values().next().value;
          if (requested === undefined) return;
          response.body.singleResult.extensions = {
            ...response.body.singleResult.extensions,
            cost: { requested, limit: maxCost, rateLimit: contextValue.rateLimit?.() ?? null },
          };
        },
      };
    },
  };
  return { onAccept, plugin };
}

/**
 * Depth, alias, directive and cost limits (graphql-armor's validation rules), checked when a
 * document is first validated (Apollo caches it afterwards, so repeated documents cost nothing
 * more); the token limit in the parser itself; the two rules that depend on who asks; and the
 * mark of a refused sign-in.
 */
export function graphqlProtection(limits: GraphQLLimits): {
  validationRules: ValidationRule[];
  parseOptions: ParseOptions;
  plugins: ApolloServerPlugin<GatewayContext>[];
  /** Adds `extensions.cost` to each answer (the public contract's; the facade reads none). */
  costReport: ApolloServerPlugin<GatewayContext>;
} {
  const cost = costReporting(limits.maxCost);
  const armor = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, flattenFragments: false },
    maxAliases: { n: limits.maxAliases },
    costLimit: { maxCost: limits.maxCost, onAccept: [cost.onAccept] },
    maxDirectives: { n: 50 },
    // graphql-js counts tokens as it parses and stops at the limit with a parse error (400).
    // graphql-armor's plugin for it throws out of Apollo's request pipeline instead: a syntax
    // error or a long document became an unhandled error, not an answer.
    maxTokens: { enabled: false },
    // Replaced by noSuggestionsForAnonymous: signed-in callers keep graphql-js's hints.
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return {
    validationRules: armor.validationRules,
    parseOptions: { maxTokens: limits.maxTokens },
    plugins: [noSuggestionsForAnonymous, introspectionForSignedIn, markAuthenticationFailures],
    costReport: cost.plugin,
  };
}
