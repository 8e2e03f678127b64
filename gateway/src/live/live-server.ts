import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  CREDENTIALS_REFUSED,
  DomainError,
  ErrorCode,
  upgradeClientAddress,
  type Logger,
  type NetworkList,
} from '@hub/common';
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type GraphQLFormattedError,
  type DocumentNode,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationRule,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { GatewayContext } from '../context';
import { hasCredentials, readCredentials } from '../credentials';
import {
  CLOSE_TRY_AGAIN_LATER,
  CLOSE_UNAUTHORIZED,
  readByResponseKey,
  subscribeSharingResults,
  type LiveConnection,
} from './live-subscriptions';

/** The largest message a client may send: a subscription document and its variables. */
const MAX_MESSAGE_BYTES = 256 * 1024;
/**
 * How long a socket's credentials, once resolved, serve its subscriptions' messages: a reset
 * token or a blocked user ends them at most this much later. Resolving them for every message
 * (20,000 a second in the bench) cost more than the messages.
 */
const CREDENTIALS_FRESH_MS = 1000;
/**
 * Subscription documents kept parsed and checked, by their text: pages open the same
 * subscription over many sockets, and each parse kept its own syntax tree for as long as the
 * subscription ran.
 */
const DOCUMENTS_KEPT = 500;
/**
 * How long a socket may stay open before its connection_init (graphql-ws's default is 3 s). A page
 * or a fleet reconnecting after a restart opens many sockets at once; past 3 s of a busy event
 * loop their inits, already sent, were read only after the timer had closed them (4408).
 */
const CONNECTION_INIT_WAIT_MS = 10_000;

/** UTF-8 bytes as a one-byte string, one character per byte: what `textFrame` is made of. */
export const bytesOf = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * A WebSocket text frame from the server (unmasked, RFC 6455 5.2) holding `prefix`, `payload` and
 * a closing brace, each given as `bytesOf` its text: one string for one write in latin1, which
 * Node writes to the socket straight from the string. Through ws's send a message was a string
 * made and encoded for each subscriber, written as a header and a body through the socket's cork;
 * as buffers, the frames kept tens of MiB of array buffers alive between collections.
 */
export function textFrame(prefix: string, payload: string): string {
  const length = prefix.length + payload.length + 1;
  let header: string;
  if (length < 126) header = String.fromCharCode(0x81, length);
  else if (length < 65_536) header = String.fromCharCode(0x81, 126, length >>> 8, length & 0xff);
  else {
    const high = Math.floor(length / 2 ** 32);
    header = String.fromCharCode(
      0x81,
      127,
      (high >>> 24) & 0xff,
      (high >>> 16) & 0xff,
      (high >>> 8) & 0xff,
      high & 0xff,
      (length >>> 24) & 0xff,
      (length >>> 16) & 0xff,
      (length >>> 8) & 0xff,
      length & 0xff,
    );
  }
  return `${header}${prefix}${payload}}`;
}

/** Places for `what` (subscriptions, sockets), per user and in all; a new one past either limit is refused. */
function createPlaces(what: string, perUser: number, perProcess: number) {
  const byUser = new Map<string, number>();
  let total = 0;
  return {
    /** A place for one more of `user`'s, as its release function; the refusal's reason when there is none. */
    reserve(user: string): (() => void) | string {
      if (total >= perProcess) return `Too many ${what}: this gateway holds at most ${perProcess}`;
      const held = byUser.get(user) ?? 0;
      if (held >= perUser) return `Too many ${what}: at most ${perUser} per user`;
      byUser.set(user, held + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = byUser.get(user)! - 1;
        if (left === 0) byUser.delete(user);
        else byUser.set(user, left);
      };
    },
    get open() {
      return total;
    },
  };
}

/**
 * The subscriptions' limits: as many subscriptions per user and per process as configured, and as
 * many sockets, so that signed-in sockets holding no subscription cannot pile up either.
 */
export const createSubscriptionLimits = (perUser: number, perProcess: number) => ({
  subscriptions: createPlaces('subscriptions', perUser, perProcess),
  sockets: createPlaces('sockets', perUser, perProcess),
});

/** The credential headers a connection_init payload carries: `privateToken`, `authorization`, or the headers' own names. */
export function headersOfConnectionParams(params: Record<string, unknown> | undefined): IncomingHttpHeaders {
  const text = (...names: string[]) => {
    for (const name of names) if (typeof params?.[name] === 'string') return params[name] as string;
    return undefined;
  };
  const headers: IncomingHttpHeaders = {};
  const privateToken = text('privateToken', 'private-token', 'PRIVATE-TOKEN', 'Private-Token');
  const authorization = text('authorization', 'Authorization');
  if (privateToken) headers['private-token'] = privateToken;
  if (authorization) headers.authorization = authorization;
  return headers;
}

const coded = (error: GraphQLError, code: string) =>
  new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { code, ...error.extensions },
  });

/**
 * The credentials of the open sockets that sent the same ones: resolved once for all of them at
 * most every CREDENTIALS_FRESH_MS. Per socket, the bench's 1,000 sockets of ten users resolved and
 * signed their principals a thousand times a second.
 */
interface Credentials {
  headers: IncomingHttpHeaders;
  /** The credentials resolved last, when, and what they resolved to once they have. */
  context: { value: Promise<GatewayContext>; at: number; resolved: GatewayContext | null } | null;
  sockets: number;
}

/** What each open socket holds. */
interface Connection {
  user: string;
  releases: Set<() => void>;
  credentials: Credentials;
  /** The TCP socket is corked until the end of this turn: its frames of the turn go in one write. */
  corked: boolean;
}

/** The end of a turn in which a socket's frames were corked. */
function uncork(connection: Connection, stream: Duplex) {
  connection.corked = false;
  stream.uncork();
}

/**
 * GraphQL subscriptions at `path` of the gateway's HTTP server: graphql-ws (graphql-transport-ws)
 * over `ws`, signed in by connection_init's payload, each subscription run by live-subscriptions.ts
 * against `schema`. Upgrades to any other path are refused.
 */
export function serveSubscriptions(options: {
  http: Server;
  path: string;
  schema: GraphQLSchema;
  contextFor: (headers: IncomingHttpHeaders) => Promise<GatewayContext>;
  limits: ReturnType<typeof createSubscriptionLimits>;
  credentialRefused: (ip: string) => Promise<number>;
  trustedProxies: NetworkList;
  validationRules: readonly ValidationRule[];
  parseOptions: ParseOptions;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  logger: Logger;
}) {
  const { schema, limits, logger } = options;
  // No permessage-deflate (ws's default for servers): ws then writes each frame as it is sent, so
  // frames written past it on the same socket (textFrame) keep their order.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const connections = new WeakMap<WebSocket, Connection>();
  /** The TCP socket under each WebSocket, which subscriptions write their frames to. */
  const streams = new WeakMap<WebSocket, Duplex>();
  const rules = [...specifiedRules, ...options.validationRules];

  const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();
  /**
   * A subscription's document parsed and validated, or its errors coded as Apollo codes them over
   * HTTP (so the error formatter shows them as they are); the same text is checked once.
   */
  const checkDocument = (query: string): DocumentNode | readonly GraphQLError[] => {
    const known = documents.get(query);
    if (known) return known;
    let checked: DocumentNode | readonly GraphQLError[];
    try {
      const document = parse(query, options.parseOptions);
      const errors = validate(schema, document, rules);
      checked = errors.length > 0 ? errors.map((error) => coded(error, 'GRAPHQL_VALIDATION_FAILED')) : document;
    } catch (error) {
      checked = [coded(error as GraphQLError, 'GRAPHQL_PARSE_FAILED')];
    }
    if (documents.size >= DOCUMENTS_KEPT) documents.delete(documents.keys().next().value!);
    documents.set(query, checked);
    return checked;
  };

  const credentialsByKey = new Map<string, Credentials>();
  /** The shared credentials of a socket that sent `headers` and resolved them to `context` just now. */
  const holdCredentials = (headers: IncomingHttpHeaders, context: GatewayContext): [Credentials, () => void] => {
    const key = `${headers['private-token'] ?? ''}\n${headers.authorization ?? ''}`;
    let credentials = credentialsByKey.get(key);
    if (!credentials) credentialsByKey.set(key, (credentials = { headers, context: null, sockets: 0 }));
    const now = Date.now();
    if (!credentials.context || now - credentials.context.at >= CREDENTIALS_FRESH_MS)
      credentials.context = { value: Promise.resolve(context), at: now, resolved: context };
    credentials.sockets++;
    const held = credentials;
    return [
      held,
      () => {
        if (--held.sockets === 0 && credentialsByKey.get(key) === held) credentialsByKey.delete(key);
      },
    ];
  };

  /** The socket's credentials resolved again once they are older than CREDENTIALS_FRESH_MS; a refusal is not kept. */
  const contextOf = ({ credentials }: Connection): Promise<GatewayContext> => {
    const now = Date.now();
    if (credentials.context && now - credentials.context.at < CREDENTIALS_FRESH_MS) return credentials.context.value;
    const value = options.contextFor(credentials.headers);
    const held: NonNullable<Credentials['context']> = { value, at: now, resolved: null };
    credentials.context = held;
    value.then(
      (context) => (held.resolved = context),
      () => {
        if (credentials.context === held) credentials.context = null;
      },
    );
    return value;
  };
  /** The socket's credentials when resolved within CREDENTIALS_FRESH_MS; null when they must be resolved again. */
  const contextNow = ({ credentials }: Connection): GatewayContext | null => {
    const held = credentials.context;
    return held?.resolved && Date.now() - held.at < CREDENTIALS_FRESH_MS ? held.resolved : null;
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = new URL(request.url ?? '/', 'http://gateway');
    if (pathname !== options.path) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      streams.set(ws, socket);
      wss.emit('connection', ws, request);
    });
  };
  options.http.on('upgrade', onUpgrade);

  // graphql-js's own refusals of the variables carry no code (Apollo gives them BAD_USER_INPUT):
  // they point at no field and come from no resolver.
  const format = (errors: readonly GraphQLError[]) =>
    errors.map((error) =>
      !error.extensions.code && !error.path && !error.originalError
        ? options.formatError(coded(error, ErrorCode.BAD_USER_INPUT).toJSON(), error)
        : options.formatError(error.toJSON(), error),
    );

  const server = useServer<Record<string, unknown>, { live?: Connection }>(
    {
      schema,
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      subscribe: subscribeSharingResults,
      async onConnect(ctx) {
        const { socket, request } = ctx.extra;
        const headers = headersOfConnectionParams(ctx.connectionParams);
        if (!hasCredentials(readCredentials(headers))) {
          socket.close(
            CLOSE_UNAUTHORIZED,
            'Unauthorized: send a token in connection_init, as {"privateToken": "…"} or {"authorization": "Bearer …"}',
          );
          return false;
        }
        let context: GatewayContext;
        try {
          context = await options.contextFor(headers);
        } catch (error) {
          if (error instanceof DomainError && error.extensions[CREDENTIALS_REFUSED] === true) {
            const wait = await options.credentialRefused(upgradeClientAddress(request, options.trustedProxies));
            socket.close(
              wait > 0 ? CloseCode.TooManyInitialisationRequests : CLOSE_UNAUTHORIZED,
              wait > 0
                ? `Too many refused credentials from this address: retry in ${wait} s`
                : 'Unauthorized: the token was refused',
            );
          } else {
            logger.warn({ err: error }, 'cannot check a subscriber’s credentials');
            socket.close(CLOSE_TRY_AGAIN_LATER, 'Try again later: credentials cannot be checked now');
          }
          return false;
        }
        const user = String(context.principal.userId);
        const socketPlace = limits.sockets.reserve(user);
        if (typeof socketPlace === 'string') {
          socket.close(CloseCode.TooManyInitialisationRequests, socketPlace);
          return false;
        }
        // Closed while its credentials were checked: its place goes back at once.
        if (socket.readyState !== socket.OPEN) {
          socketPlace();
          return false;
        }
        const [credentials, letGo] = holdCredentials(headers, context);
        const connection: Connection = {
          user,
          releases: new Set([socketPlace, letGo]),
          credentials,
          corked: false,
        };
        connections.set(socket, connection);
        socket.once('close', () => {
          for (const release of connection.releases) release();
        });
        return true;
      },
      onSubscribe(ctx, id, payload) {
        const { socket } = ctx.extra;
        const connection = connections.get(socket)!;
        const document = checkDocument(payload.query);
        if (!('kind' in document)) return document;
        const operation = getOperationAST(document, payload.operationName);
        if (operation && operation.operation !== 'subscription')
          return [
            new GraphQLError(
              'Only subscriptions are served over WebSocket: send queries and mutations to /graphql over HTTP',
              {
                extensions: { code: ErrorCode.BAD_REQUEST },
              },
            ),
          ];
        const reserved = limits.subscriptions.reserve(connection.user);
        if (typeof reserved === 'string') {
          socket.close(CloseCode.TooManyInitialisationRequests, reserved);
          return [new GraphQLError(reserved, { extensions: { code: ErrorCode.TOO_MANY_REQUESTS } })];
        }
        const release = () => {
          connection.releases.delete(release);
          reserved();
        };
        connection.releases.add(release);
        const stream = streams.get(socket)!;
        const prefix = bytesOf(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
        const contextValue: LiveConnection = {
          context: () => contextOf(connection),
          contextNow: () => contextNow(connection),
          close: (code, reason) => socket.close(code, reason),
          release,
          resultKey: `${payload.query}\n${payload.operationName ?? ''}\n${JSON.stringify(payload.variables ?? {})}`,
          frames: {
            // Once closing, nothing more: a frame after the close frame would break the protocol.
            write(payload, sent) {
              if (socket.readyState !== socket.OPEN) return false;
              // A read's settling or the tail's hand-out makes every message of its entries at
              // once: what a socket gets of them goes in one write.
              if (!connection.corked) {
                connection.corked = true;
                stream.cork();
                process.nextTick(uncork, connection, stream);
              }
              stream.write(textFrame(prefix, payload), 'latin1', sent);
              return true;
            },
            format,
            bytes: bytesOf,
          },
        };
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
          fieldResolver: readByResponseKey,
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: format(result.errors) } : undefined,
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
  );

  return {
    /** Closes every socket (1001, going away: clients reconnect and resume from their cursors) and stops taking new ones. */
    async close() {
      options.http.off('upgrade', onUpgrade);
      await server.dispose();
      wss.close();
    },
  };
}
