import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ErrorCode, isShownAsIs, type Logger } from '@hub/common';
import type { ErrorRequestHandler } from 'express';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/** A fetch to a subgraph that never got an answer: the service is down or unreachable. */
function isUnreachable(error: unknown): boolean {
  for (let e = error as { cause?: unknown; code?: string; message?: string } | undefined; e; e = e.cause as typeof e) {
    if (
      ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT'].includes(
        e.code ?? '',
      )
    ) {
      return true;
    }
    if (e.message === 'fetch failed') return true;
  }
  return false;
}

/**
 * What callers see of gateway errors: subgraphs' domain errors pass through; an unreachable
 * subgraph becomes SERVICE_UNAVAILABLE (the facade answers 503 for the routes that need it);
 * anything else is logged and masked.
 */
export function createGatewayErrorFormatter(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    const { stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
    if (isShownAsIs(code)) {
      return { ...formatted, extensions };
    }
    const original = unwrapResolverError(error);
    // Apollo's own refusals of a request (a persisted query's hash that does not match, say)
    // carry a 4xx status but no code: the caller's mistake, shown as such rather than as a 500.
    const status = (original as { extensions?: { http?: { status?: number } } } | undefined)?.extensions?.http?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { message: formatted.message, extensions: { code: ErrorCode.BAD_REQUEST } };
    }
    if (isUnreachable(original) || isUnreachable(error)) {
      logger.warn({ err: original, path: formatted.path }, 'subgraph unreachable');
      return {
        message: '503 Service Unavailable',
        path: formatted.path,
        extensions: { code: ErrorCode.SERVICE_UNAVAILABLE },
      };
    }
    logger.error({ err: original, formatted }, 'unexpected gateway error');
    return { message: '500 Internal Server Error', path: formatted.path, extensions: { code: ErrorCode.INTERNAL } };
  };
}

/**
 * A document whose operation cannot be chosen (an unknown operationName, several operations and
 * none named) or run over HTTP (a subscription: the gateway serves those over WebSocket, live/) is
 * refused with 400 before execution:
 * Apollo leaves that to the executor, and the gateway's executor throws, which Apollo answers 500.
 */
export const operationResolution: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, request }) {
        if (operation?.operation === 'subscription') {
          throw new GraphQLError(
            '400 (Bad request) subscriptions are served over WebSocket (graphql-transport-ws) at /graphql, not over HTTP',
            {
              extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 400 } },
            },
          );
        }
        if (operation) return;
        const message = request.operationName
          ? `Unknown operation named "${request.operationName}".`
          : 'Must provide operation name if query contains multiple operations.';
        throw new GraphQLError(message, {
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } },
        });
      },
    };
  },
};

/**
 * A request body express cannot read (malformed JSON, too large) gets a GraphQL-shaped answer,
 * never express's default page, which shows the stack trace unless NODE_ENV is production.
 */
export function bodyErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: { status?: unknown; type?: string }, _req, res, _next) => {
    const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) {
      logger.error({ err: error }, 'unexpected gateway error');
      res
        .status(500)
        .json({ errors: [{ message: '500 Internal Server Error', extensions: { code: ErrorCode.INTERNAL } }] });
      return;
    }
    const message = status === 413 ? '413 Request Entity Too Large' : `${status} (Bad request) malformed request body`;
    res.status(status).json({ errors: [{ message, extensions: { code: ErrorCode.BAD_REQUEST } }] });
  };
}
