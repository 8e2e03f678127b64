import { CREDENTIALS_REFUSED, DomainError, ErrorCode, parseGlobalId, type Logger, type Principal } from '@hub/common';
import {
  buildSchema,
  createSourceEventStream,
  execute,
  getNamedType,
  GraphQLError,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { GatewayContext } from '../context';
import { errorOf, INVISIBLE, type ExecuteLive, type MessageRead, type MessageReader } from './live-reads';
import { cursorOf, streamIdOfCursor, type Follower, type LiveEntry, type LiveStreams } from './live-streams';
import { GATE_ALIAS, planMessageReads, type MessageReadPlan } from './message-reads';
import { TOPICS, type Scope, type Topic, type TopicMessage } from './topics';

/** graphql-ws close codes of ours, beside the protocol's own (4400, 4401, 4403, 4429, …). */
export const CLOSE_SLOW_CONSUMER = 4008;
export const CLOSE_UNAUTHORIZED = 4401;
/** RFC 6455's "try again later": credentials cannot be checked now (identity is away). */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/** What a subscription needs of the socket it runs on (live-server.ts makes one per subscription). */
export interface LiveConnection {
  /** The subscriber's gateway context now: the connection's credentials resolved again (cached briefly; a reset token or a block ends them). */
  context(): Promise<GatewayContext>;
  /** Closes the socket, ending every subscription on it. */
  close(code: number, reason: string): void;
  /** Takes a subscription's place under the limits; the release function gives it back (idempotent). */
  release: () => void;
  /**
   * Equal for subscriptions whose messages execute alike (one document, operation and variables):
   * they share the execution of a message their group prepared (`subscribeSharingResults`).
   */
  resultKey: string;
}

export interface LiveDependencies {
  streams: LiveStreams;
  /** Runs a query against the public graph with a subscriber's context. */
  execute: ExecuteLive;
  /** Reads messages' objects in batches, shared by subscribers who read alike. */
  reader: MessageReader;
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
  /** Executions of this message by result key, for a message shared by a group's subscriptions. */
  results?: Map<string, ExecutionResult | Promise<ExecutionResult>>;
}

const principalKey = (principal: Principal) =>
  `${principal.userId}:${principal.isAdmin ? 1 : 0}:${principal.impersonatorId ?? ''}`;

/** Resolvers below a message's objects read the graph's answer by response key: it was asked with the subscriber's aliases. */
export const readByResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) =>
  (source as Record<string, unknown> | null)?.[info.path.key as string];

/** Whether the subscriber sees what a subscription watches (its scope); throws when the graph cannot say. */
async function sees(deps: LiveDependencies, scope: Scope, context: GatewayContext): Promise<boolean> {
  const type = parseGlobalId(scope.id)!.type;
  const query = `query LiveScope($id: ID!) { ${GATE_ALIAS}: node(id: $id) { __typename ... on ${type} { __typename ${scope.gate ?? ''} } } }`;
  const result = await deps.execute(query, { id: scope.id }, context);
  const errors = (result.errors ?? []).filter((error) => error.path?.[0] === GATE_ALIAS || !error.path);
  const unexplained = errors.find((error) => !INVISIBLE.has(error.extensions?.code));
  if (unexplained) throw errorOf(unexplained);
  return errors.length === 0 && result.data?.[GATE_ALIAS] != null;
}

/** An entry waiting to be sent, and the read of its objects once asked for. */
interface Queued {
  entry: LiveEntry;
  message: TopicMessage;
  read?: Promise<MessageRead>;
}

/** Outbox ids a subscription remembers having sent, to drop a relay's repeats. */
const RECENT = 128;

/**
 * One subscription: the entries of its topic's stream that concern it, waiting in a bounded queue.
 * Their objects are asked for as they arrive (batched with the other subscribers', live-reads.ts)
 * and each becomes a message when graphql-ws asks for the next one, so a subscriber that does not
 * read holds up no one else: its queue fills, and its socket is closed.
 */
class LiveSubscription implements AsyncIterableIterator<PreparedMessage> {
  private readonly queue: Queued[] = [];
  /** Why the subscription cannot go on (its catch-up failed): its last message says so. */
  private failure: GraphQLError | null = null;
  private readonly recent = new Set<string>();
  private follower: Follower | null = null;
  private wakeReader: (() => void) | null = null;
  private roomWaiters: Array<() => void> = [];
  private finished = false;
  /** The reads asked for the queue's entries, under way. */
  private asking: Promise<void> | null = null;
  /** The read group of the principal last seen, and that principal. */
  private group = { principal: '', key: '' };

  constructor(
    private readonly fieldName: string,
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
    if (this.recent.has(outboxId)) return;
    this.recent.add(outboxId);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.values().next().value!);
    if (live && this.queue.length >= this.deps.queueLimit) {
      this.connection.close(
        CLOSE_SLOW_CONSUMER,
        `Slow consumer: ${this.deps.queueLimit} messages were waiting to be read`,
      );
      this.finish();
      return;
    }
    this.queue.push({ entry, message });
    void this.askReads();
    this.wakeReader?.();
  }

  /** Asks for the objects of every queued entry not asked for yet, with the subscriber's credentials now. */
  private askReads(): Promise<void> {
    this.asking ??= this.connection.context().then(
      (context) => {
        this.asking = null;
        if (this.finished) return;
        const principal = principalKey(context.principal);
        if (principal !== this.group.principal)
          this.group = { principal, key: `${principal}\n${this.fieldName}\n${this.plan.key}` };
        for (const item of this.queue)
          item.read ??= this.deps.reader.read(this.group.key, this.plan, context, item.entry, item.message.objects);
      },
      (error) => {
        this.asking = null;
        this.refused(error);
      },
    );
    return this.asking;
  }

  /**
   * The credentials cannot be used now. Refused (a reset token, a blocked user): the socket ends.
   * Not checkable (identity away): the client reconnects later and resumes from its last cursor,
   * losing nothing.
   */
  private refused(error: unknown) {
    const refused = error instanceof DomainError && error.extensions[CREDENTIALS_REFUSED] === true;
    this.connection.close(
      refused ? CLOSE_UNAUTHORIZED : CLOSE_TRY_AGAIN_LATER,
      refused
        ? 'Unauthorized: the credentials are no longer accepted'
        : 'Try again later: credentials cannot be checked now',
    );
    this.finish();
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
      const item = this.queue[0];
      if (!item && this.failure) {
        this.finish();
        return { value: { fields: {}, objects: {}, error: this.failure, final: true }, done: false };
      }
      if (!item) {
        await new Promise<void>((resolve) => (this.wakeReader = resolve));
        this.wakeReader = null;
        continue;
      }
      if (!item.read) {
        await this.askReads();
        continue;
      }
      this.queue.shift();
      if (this.queue.length < this.deps.queueLimit / 2) for (const resolve of this.roomWaiters.splice(0)) resolve();
      const prepared = await this.prepare(item.entry, item.message, item.read);
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
  private async prepare(
    entry: LiveEntry,
    message: TopicMessage,
    reading: Promise<MessageRead>,
  ): Promise<PreparedMessage | null> {
    const fields = () => ({ ...message.fields, cursor: cursorOf(this.topic.service, entry.streamId) });
    try {
      const read = await reading;
      if (read.visible) {
        // The group's subscribers share the message, and with it the executions of it.
        read.shared ??= { fields: fields(), objects: read.objects, results: new Map() } satisfies PreparedMessage;
        return read.shared as PreparedMessage;
      }
      // Gone from view: the subscription ends when what it watches is gone from view too.
      let context: GatewayContext;
      try {
        context = await this.connection.context();
      } catch (error) {
        this.refused(error);
        return null;
      }
      return (await sees(this.deps, this.scope, context))
        ? null
        : { fields: {}, objects: {}, error: this.scope.missing, final: true };
    } catch (error) {
      if (!(error instanceof GraphQLError))
        this.deps.logger.error({ err: error }, 'cannot make a subscription’s message');
      return {
        fields: fields(),
        objects: {},
        error: error instanceof GraphQLError ? error : new DomainError(ErrorCode.INTERNAL, '500 Internal Server Error'),
      };
    }
  }
}

/**
 * graphql-js's subscribe, but a message shared by a group of subscriptions (PreparedMessage.results)
 * is executed once per result key rather than once per subscription: with 200 subscriptions alike
 * on a project, one execution serves them all.
 */
export async function subscribeSharingResults(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const source = stream as AsyncIterableIterator<PreparedMessage>;
  const key = (args.contextValue as LiveConnection).resultKey;
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const step = await source.next();
      if (step.done) return { value: undefined, done: true };
      const message = step.value;
      // Kept before it is awaited: the group's other subscriptions ask for it in the meantime.
      let result = message.results?.get(key);
      if (!result) {
        result = execute({ ...args, rootValue: message });
        message.results?.set(key, result);
      }
      return { value: await result, done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
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
      subscribe(fieldName, topic, messageType, args, connection, info, deps);
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
  fieldName: string,
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
    const subscription = new LiveSubscription(fieldName, topic, args, scope, plan, connection, deps);
    await subscription.start(after);
    return subscription;
  } catch (error) {
    connection.release();
    if (!(error instanceof GraphQLError)) deps.logger.warn({ err: error }, 'a subscription could not start');
    throw error;
  }
}
