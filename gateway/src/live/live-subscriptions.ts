import { CREDENTIALS_REFUSED, DomainError, ErrorCode, parseGlobalId, type Logger, type Principal } from '@hub/common';
import {
  buildSchema,
  getNamedType,
  GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLFormattedError,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { GatewayContext } from '../context';
import { cursorOf, streamIdOfCursor, type Follower, type LiveEntry, type LiveStreams } from './live-streams';
import { GATE_ALIAS, idVariable, planMessageReads, type MessageReadPlan } from './message-reads';
import { TOPICS, type Scope, type Topic, type TopicMessage } from './topics';

/** graphql-ws close codes of ours, beside the protocol's own (4400, 4401, 4403, 4429, …). */
export const CLOSE_SLOW_CONSUMER = 4008;
export const CLOSE_UNAUTHORIZED = 4401;
/** RFC 6455's "try again later": credentials cannot be checked now (identity is away). */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/** What a subscription needs of the socket it runs on (live-server.ts makes one per connection). */
export interface LiveConnection {
  /** The subscriber's gateway context now: the connection's credentials resolved again (cached; a reset token or a block ends them). */
  context(): Promise<GatewayContext>;
  /** Closes the socket, ending every subscription on it. */
  close(code: number, reason: string): void;
  /** Takes a subscription's place under the limits; the release function gives it back (idempotent). */
  release: () => void;
}

export interface LiveDependencies {
  streams: LiveStreams;
  /** Runs a query against the public graph with a subscriber's context. */
  execute(
    query: string,
    variables: Record<string, unknown>,
    context: GatewayContext,
  ): Promise<{ data?: Record<string, unknown> | null; errors?: readonly GraphQLFormattedError[] }>;
  /** Messages a subscription may have waiting; one more and its socket is closed as a slow consumer. */
  queueLimit: number;
  logger: Logger;
}

/** A message ready for graphql-js: its own fields, and its objects as the graph answered them. */
interface PreparedMessage {
  fields: Record<string, unknown>;
  /** By response key; an error stands where the graph failed to answer the object. */
  objects: Record<string, unknown>;
  /** Set for a message that reports an error instead (the graph could not answer, say). */
  error?: GraphQLError;
  /** Set when the subscription ends with this message: what it watches went out of view, or cannot be followed now. */
  final?: boolean;
}

/** Refusals that mean "not for this subscriber": the object is then treated as invisible. */
const INVISIBLE = new Set<unknown>([ErrorCode.NOT_FOUND, ErrorCode.FORBIDDEN, ErrorCode.UNAUTHENTICATED]);

const principalKey = (principal: Principal) =>
  `${principal.userId}:${principal.isAdmin ? 1 : 0}:${principal.impersonatorId ?? ''}`;

const errorOf = (formatted: GraphQLFormattedError) =>
  new GraphQLError(formatted.message, { extensions: formatted.extensions });

/** Resolvers below a message's objects read the graph's answer by response key: it was asked with the subscriber's aliases. */
export const readByResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) =>
  (source as Record<string, unknown> | null)?.[info.path.key as string];

/**
 * Whether the subscriber sees the gate: true, false (absent, or refused to them), or a thrown
 * error when the graph could not say (a service down).
 */
function gateAnswer(result: Awaited<ReturnType<LiveDependencies['execute']>>): boolean {
  const errors = (result.errors ?? []).filter((error) => error.path?.[0] === GATE_ALIAS || !error.path);
  const unexplained = errors.find((error) => !INVISIBLE.has(error.extensions?.code));
  if (unexplained) throw errorOf(unexplained);
  return errors.length === 0 && result.data?.[GATE_ALIAS] != null;
}

async function sees(deps: LiveDependencies, scope: Scope, context: GatewayContext): Promise<boolean> {
  const type = parseGlobalId(scope.id)!.type;
  const variable = idVariable('scope');
  const query = `query LiveScope($${variable}: ID!) { ${GATE_ALIAS}: node(id: $${variable}) { __typename ... on ${type} { __typename ${scope.gate ?? ''} } } }`;
  return gateAnswer(await deps.execute(query, { [variable]: scope.id }, context));
}

/**
 * One subscription: the entries of its topic's stream that concern it, waiting in a bounded queue,
 * each turned into a message when graphql-ws asks for the next one, so a subscriber that does not
 * read holds up no one else: its queue fills, and its socket is closed.
 */
class LiveSubscription implements AsyncIterableIterator<PreparedMessage> {
  private readonly queue: Array<{ entry: LiveEntry; message: TopicMessage }> = [];
  /** Why the subscription cannot go on (its catch-up failed): its last message says so. */
  private failure: GraphQLError | null = null;
  private readonly recent: string[] = [];
  private follower: Follower | null = null;
  private wakeReader: (() => void) | null = null;
  private roomWaiters: Array<() => void> = [];
  private finished = false;

  constructor(
    private readonly topic: Topic,
    private readonly args: Record<string, unknown>,
    private readonly scope: Scope,
    private readonly plan: MessageReadPlan,
    private readonly connection: LiveConnection,
    private readonly deps: LiveDependencies,
  ) {}

  async start(after: string | null) {
    const half = Math.max(1, Math.floor(this.deps.queueLimit / 2));
    this.follower = await this.deps.streams.follow(
      this.topic.service,
      after,
      (entry, live) => this.offer(entry, live),
      {
        room: () => this.queue.length < half,
        waitForRoom: () => new Promise<void>((resolve) => this.roomWaiters.push(resolve)),
        failed: (error) => {
          this.deps.logger.warn({ err: error }, 'a subscription could not catch up');
          this.failure = new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable');
          this.wakeReader?.();
        },
      },
    );
    if (this.finished) this.follower.stop();
  }

  /** Queues an entry that concerns this subscription; a full queue while following the tail means the subscriber does not read. */
  private offer(entry: LiveEntry, live: boolean) {
    if (this.finished || !entry.event) return;
    const message = this.topic.message(entry.event, this.args);
    if (!message) return;
    // A relay that crashed after writing to the stream writes the same outbox rows again.
    const outboxId = entry.event.event.id;
    if (this.recent.includes(outboxId)) return;
    this.recent.push(outboxId);
    if (this.recent.length > 128) this.recent.shift();
    if (live && this.queue.length >= this.deps.queueLimit) {
      this.connection.close(
        CLOSE_SLOW_CONSUMER,
        `Slow consumer: ${this.deps.queueLimit} messages were waiting to be read`,
      );
      this.finish();
      return;
    }
    this.queue.push({ entry, message });
    this.wakeReader?.();
  }

  private finish() {
    if (this.finished) return;
    this.finished = true;
    this.follower?.stop();
    this.connection.release();
    this.wakeReader?.();
    for (const resolve of this.roomWaiters.splice(0)) resolve();
  }

  async next(): Promise<IteratorResult<PreparedMessage>> {
    while (!this.finished) {
      const item = this.queue.shift();
      if (!item && this.failure) {
        this.finish();
        return { value: { fields: {}, objects: {}, error: this.failure, final: true }, done: false };
      }
      if (!item) {
        await new Promise<void>((resolve) => (this.wakeReader = resolve));
        this.wakeReader = null;
        continue;
      }
      if (this.queue.length < this.deps.queueLimit / 2) for (const resolve of this.roomWaiters.splice(0)) resolve();
      const prepared = await this.prepare(item.entry, item.message);
      if (!prepared) continue;
      if (prepared.final) this.finish();
      return { value: prepared, done: false };
    }
    return { value: undefined, done: true };
  }

  async return(): Promise<IteratorResult<PreparedMessage>> {
    this.finish();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** The message for an entry as the subscriber may see it now; null when it may not. */
  private async prepare(entry: LiveEntry, message: TopicMessage): Promise<PreparedMessage | null> {
    let context: GatewayContext;
    try {
      context = await this.connection.context();
    } catch (error) {
      // Refused now (a reset token, a blocked user): the socket ends. Not checkable now (identity
      // away): the client reconnects later and resumes from its last cursor, losing nothing.
      const refused = error instanceof DomainError && error.extensions[CREDENTIALS_REFUSED] === true;
      this.connection.close(
        refused ? CLOSE_UNAUTHORIZED : CLOSE_TRY_AGAIN_LATER,
        refused
          ? 'Unauthorized: the credentials are no longer accepted'
          : 'Try again later: credentials cannot be checked now',
      );
      this.finish();
      return null;
    }
    const present = new Set(Object.keys(message.objects).filter((field) => message.objects[field] !== null));
    const query = this.plan.queryFor(present);
    const variables = { ...this.plan.variables };
    for (const field of present) variables[idVariable(field)] = message.objects[field];
    // Subscribers with the same principal and selection share one read of an entry.
    const key = `${principalKey(context.principal)}\n${query}\n${JSON.stringify(variables)}`;
    let read = entry.reads.get(key) as ReturnType<LiveDependencies['execute']> | undefined;
    if (!read) {
      read = this.deps.execute(query, variables, context);
      entry.reads.set(key, read);
    }
    try {
      const result = await read;
      if (!gateAnswer(result)) {
        // Gone from view: the subscription ends when what it watches is gone from view too.
        return (await sees(this.deps, this.scope, context))
          ? null
          : { fields: {}, objects: {}, error: this.scope.missing, final: true };
      }
      const objects: Record<string, unknown> = {};
      for (const { responseKey, field, alias } of this.plan.selections) {
        const failed = result.errors?.find((error) => error.path?.[0] === alias);
        objects[responseKey] = !present.has(field) ? null : failed ? errorOf(failed) : (result.data?.[alias] ?? null);
      }
      return { fields: { ...message.fields, cursor: cursorOf(this.topic.service, entry.streamId) }, objects };
    } catch (error) {
      if (!(error instanceof GraphQLError))
        this.deps.logger.error({ err: error }, 'cannot make a subscription’s message');
      return {
        fields: { ...message.fields, cursor: cursorOf(this.topic.service, entry.streamId) },
        objects: {},
        error: error instanceof GraphQLError ? error : new DomainError(ErrorCode.INTERNAL, '500 Internal Server Error'),
      };
    }
  }
}

/**
 * The public API schema (with its Subscription type, gateway/src/live/subscriptions.graphql) made
 * executable for subscriptions: each field of Subscription follows its topic; a message's fields
 * read what the event said, its objects what the graph answered.
 */
export function buildLiveSchema(publicSdl: string, deps: LiveDependencies): GraphQLSchema {
  const schema = buildSchema(publicSdl);
  const subscription = schema.getSubscriptionType();
  if (!subscription)
    throw new Error(
      'the public schema has no Subscription type: compose it with gateway/src/live/subscriptions.graphql',
    );
  for (const [fieldName, field] of Object.entries(subscription.getFields())) {
    const topic = TOPICS[fieldName];
    if (!topic) throw new Error(`Subscription.${fieldName} has no topic (gateway/src/live/topics.ts)`);
    const messageType = getNamedType(field.type) as GraphQLObjectType;
    field.subscribe = (_root, args: Record<string, unknown>, connection: LiveConnection, info: GraphQLResolveInfo) =>
      subscribe(topic, messageType, args, connection, info, deps);
    field.resolve = (message: PreparedMessage) => {
      if (message.error) throw message.error;
      return message;
    };
    for (const messageField of Object.values(messageType.getFields())) {
      messageField.resolve =
        'getFields' in getNamedType(messageField.type)
          ? (message: PreparedMessage, _args, _context, info) => {
              const object = message.objects[info.path.key as string];
              if (object instanceof Error) throw object;
              return object;
            }
          : (message: PreparedMessage, _args, _context, info) => message.fields[info.fieldName];
    }
  }
  return schema;
}

async function subscribe(
  topic: Topic,
  messageType: GraphQLObjectType,
  args: Record<string, unknown>,
  connection: LiveConnection,
  info: GraphQLResolveInfo,
  deps: LiveDependencies,
): Promise<AsyncIterableIterator<PreparedMessage>> {
  try {
    const scope = topic.scope(args);
    const after = args.after == null ? null : streamIdOfCursor(String(args.after), topic.service);
    const plan = planMessageReads(info, messageType, { primary: topic.primary, selection: topic.gate });
    if (!(await sees(deps, scope, await connection.context()))) throw scope.missing;
    const subscription = new LiveSubscription(topic, args, scope, plan, connection, deps);
    await subscription.start(after);
    return subscription;
  } catch (error) {
    connection.release();
    if (!(error instanceof GraphQLError)) deps.logger.warn({ err: error }, 'a subscription could not start');
    throw error;
  }
}
