import { CREDENTIALS_REFUSED, DomainError, ErrorCode, parseGlobalId, type Logger, type Principal } from '@hub/common';
import {
  buildSchema,
  createSourceEventStream,
  execute,
  getNamedType,
  GraphQLError,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { GatewayContext } from '../context';
import {
  errorOf,
  INVISIBLE,
  type ExecuteLive,
  type MessageReader,
  type PendingRead,
  type ReadWaiter,
} from './live-reads';
import { cursorOf, streamIdOfCursor, type Follower, type LiveEntry, type LiveStreams } from './live-streams';
import { CloseCode } from 'graphql-ws';
import { createReadPlans, GATE_ALIAS, type OwnerLookups, type SharedPlan } from './message-reads';
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
  /**
   * The context `context()` would give when one fresh enough is at hand, without waiting; null when
   * the credentials must be resolved again (then `context()` does).
   */
  contextNow?(): GatewayContext | null;
  /** Closes the socket, ending every subscription on it. */
  close(code: number, reason: string): void;
  /** Takes a subscription's place under the limits; the release function gives it back (idempotent). */
  release: () => void;
  /**
   * Equal for subscriptions whose messages execute alike (one document, operation and variables):
   * they share the execution of a message their group prepared (`subscribeSharingResults`).
   */
  resultKey: string;
  /**
   * Given by a socket that takes the subscription's `next` messages written by the subscription
   * itself (subscribeSharingResults), rather than through graphql-ws.
   */
  frames?: LiveFrames;
}

/** graphql-ws `next` messages of one subscription, as the subscription writes them. */
export interface LiveFrames {
  /**
   * Writes the message `{"id":<the subscription's id>,"type":"next","payload":<payload>}`, the
   * payload given as its UTF-8 bytes, one character per byte (`bytes`); false
   * when the socket is no longer open, else `sent` follows once it has left the process.
   */
  write(payload: string, sent: () => void): boolean;
  /** A result's errors as graphql-ws's onNext shows them. */
  format(errors: readonly GraphQLError[]): readonly GraphQLFormattedError[];
  /** A text's UTF-8 bytes, one character per byte. */
  bytes(text: string): string;
}

export interface LiveDependencies {
  streams: LiveStreams;
  /** Runs a query against the graph (the internal contract, for `lookups`) with a subscriber's context. */
  execute: ExecuteLive;
  /** The owners' one-hop lookups by global ids that `execute` may use, by type. */
  lookups: OwnerLookups;
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
  /** The same serialized as `next` payloads (LiveFrames), by result key. */
  payloads?: Map<string, string>;
  /**
   * The objects as JSON, when they are plain data: groups (principals) whose reads of an entry
   * answered the same data make the same payload of it, kept in `payloadsByData` (the entry's) by
   * result key and data. Each group still reads with its own principal; only the execution and
   * serialization of an answer already seen are spared (ten users on a project: one, not ten).
   */
  data?: string;
  payloadsByData?: Map<string, string>;
}

/** Objects larger than this as JSON are not compared: kept as keys, they would cost more than they save. */
const MAX_SHARED_DATA = 64 * 1024;

/** The objects of a read as JSON; undefined when an error stands for one (errors are not data), or when large. */
function dataOf(objects: Record<string, unknown>): string | undefined {
  for (const key in objects) if (objects[key] instanceof Error) return undefined;
  const data = JSON.stringify(objects);
  return data.length <= MAX_SHARED_DATA ? data : undefined;
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
  read: PendingRead | undefined;
}

/** Outbox ids a subscription remembers having sent, to drop a relay's repeats. */
const RECENT = 128;

/** Writes a message to the socket (LiveConnection.frames); true when `sent` is to follow, a promise when the message is not made yet. */
type WriteMessage = (message: PreparedMessage, sent: () => void) => boolean | Promise<boolean>;

/**
 * One subscription: the entries of its topic's stream that concern it, waiting in a bounded queue.
 * Their objects are asked for as they arrive (batched with the other subscribers', live-reads.ts)
 * and each becomes a message, in stream order, as soon as its read has come: written to the socket
 * at once when the connection takes frames (`sendTo`), otherwise kept until graphql-ws asks for
 * the next one. A subscriber that does not read holds up no one else: what it has waiting (queued,
 * made, or written and not yet sent) grows, and past the limit its socket is closed.
 */
class LiveSubscription implements AsyncIterableIterator<PreparedMessage>, ReadWaiter {
  private readonly queue: Queued[] = [];
  /** Messages made and not taken yet by `next()` (without frames). */
  private readonly ready: PreparedMessage[] = [];
  /** Frames written and not yet sent (with frames). */
  private unsent = 0;
  /** Why the subscription cannot go on (its catch-up failed): its last message says so. */
  private failure: GraphQLError | null = null;
  /**
   * The last RECENT outbox ids sent, as a ring of numbers (the relay's ids come from a bigserial,
   * exact as doubles below 2^53): 1 KiB a subscription, searched in place. As a Set of strings
   * beside a ring of them, each held 5 KiB once full, and every message made a Set entry to collect.
   */
  private readonly recent = new Float64Array(RECENT).fill(NaN);
  private recentAt = 0;
  private follower: Follower | null = null;
  private wakeReader: (() => void) | null = null;
  private roomWaiters: Array<() => void> = [];
  private finished = false;
  private ended: (() => void) | null = null;
  /** The subscriber's credentials are being resolved again for the reads of what is queued. */
  private asking = false;
  /** A message that needs the graph again (gone from view) is being made: the next ones wait. */
  private busy = false;
  /** The read of the queue's head, once this waits for it. */
  private waitingFor: PendingRead | null = null;
  private write: WriteMessage | null = null;
  /** The read group of the principal last seen, that principal, and the context it was seen in. */
  private group: { context: GatewayContext | null; principal: string; key: string } = {
    context: null,
    principal: '',
    key: '',
  };
  /** Subscriptions of one kind (field and arguments) take the same message from an entry. */
  private readonly kind: string;
  /** What the read groups of this subscription have in common: field and plan (short: a group key is hashed often). */
  private readonly groupBase: string;
  private readonly sent = () => {
    this.unsent--;
    this.makeRoom();
  };

  constructor(
    private readonly fieldName: string,
    private readonly topic: Topic,
    private readonly args: Record<string, unknown>,
    private readonly scope: Scope,
    private readonly plan: SharedPlan,
    private readonly connection: LiveConnection,
    private readonly deps: LiveDependencies,
  ) {
    const { after: _after, ...watched } = args;
    this.kind = `${fieldName}\n${JSON.stringify(watched)}`;
    this.groupBase = `${fieldName}\n${plan.id}`;
  }

  /** Messages waiting for the subscriber: queued, made and not taken, or written and not yet sent. */
  private get backlog() {
    return this.queue.length + this.ready.length + this.unsent;
  }

  async start(after: string | null) {
    const half = Math.max(1, Math.floor(this.deps.queueLimit / 2));
    this.follower = await this.deps.streams.follow(
      this.topic.service,
      after,
      (entry, live) => this.offer(entry, live),
      {
        room: () => this.backlog < half,
        waitForRoom: () => new Promise<void>((resolve) => this.roomWaiters.push(resolve)),
        failed: (error) => {
          this.deps.logger.warn({ err: error }, 'a subscription could not catch up');
          this.failure = new DomainError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable');
          this.pump();
        },
      },
      `${this.fieldName}:${this.topic.route(this.args)}`,
    );
    if (this.finished) this.follower.stop();
  }

  /**
   * Writes the messages to the socket as they are made, from now on; resolves once the
   * subscription has ended.
   */
  sendTo(write: WriteMessage): Promise<void> {
    const ended = new Promise<void>((resolve) => (this.ended = resolve));
    this.write = write;
    this.guarded(() => {
      for (const message of this.ready.splice(0)) this.deliver(message);
    });
    if (this.finished) this.ended!();
    else this.pump();
    return ended;
  }

  /** Queues an entry that concerns this subscription; a full queue while following the tail means the subscriber does not read. */
  private offer(entry: LiveEntry, live: boolean) {
    if (this.finished || !entry.event) return;
    const messages = (entry.messages ??= new Map()) as Map<string, TopicMessage | null>;
    let message = messages.get(this.kind);
    if (message === undefined) {
      message = this.topic.message(entry.event, this.args);
      messages.set(this.kind, message);
    }
    if (!message) return;
    // A relay that crashed after writing to the stream writes the same outbox rows again.
    if (this.sentBefore(Number(entry.event.event.id))) return;
    if (live && this.backlog >= this.deps.queueLimit) {
      this.connection.close(
        CLOSE_SLOW_CONSUMER,
        `Slow consumer: ${this.deps.queueLimit} messages were waiting to be read`,
      );
      this.finish();
      return;
    }
    // With its read in place from the start, the item keeps one shape.
    this.queue.push({ entry, message, read: undefined });
    this.askReads();
    this.pump();
  }

  /** Whether `outboxId` is among the last RECENT sent; remembers it when not. */
  private sentBefore(outboxId: number): boolean {
    const recent = this.recent;
    for (let i = 0; i < RECENT; i++) if (recent[i] === outboxId) return true;
    recent[this.recentAt] = outboxId;
    this.recentAt = (this.recentAt + 1) % RECENT;
    return false;
  }

  /** Asks for the objects of every queued entry not asked for yet, with the subscriber's credentials now. */
  private askReads() {
    if (this.asking) return;
    const now = this.connection.contextNow?.();
    if (now) return this.readQueued(now);
    this.asking = true;
    this.connection.context().then(
      (context) => {
        this.asking = false;
        if (this.finished) return;
        this.readQueued(context);
        this.pump();
      },
      (error) => {
        this.asking = false;
        this.refused(error);
      },
    );
  }

  private readQueued(context: GatewayContext) {
    // The same context (the socket's, resolved at most once a second) has the same principal.
    if (context !== this.group.context) {
      const principal = principalKey(context.principal);
      this.group =
        principal === this.group.principal
          ? { ...this.group, context }
          : { context, principal, key: `${principal}\n${this.groupBase}` };
    }
    // Reads are asked in queue order: those before the last one asked for have theirs.
    let first = this.queue.length;
    while (first > 0 && !this.queue[first - 1]!.read) first--;
    for (let i = first; i < this.queue.length; i++) {
      const item = this.queue[i]!;
      item.read = this.deps.reader.read(this.group.key, this.plan, context, item.entry, item.message.objects);
    }
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
    this.ended?.();
  }

  private makeRoom() {
    if (this.roomWaiters.length > 0 && this.backlog < this.deps.queueLimit / 2)
      for (const resolve of this.roomWaiters.splice(0)) resolve();
  }

  readSettled() {
    this.waitingFor = null;
    this.pump();
  }

  /**
   * Makes the messages whose reads have come, in stream order, as far as it can without waiting.
   * It runs inside the tail's hand-out and a read's settling, which go on to other subscriptions:
   * a failure here ends this subscription's socket (4500, as graphql-ws ends one on an internal
   * error) and stops there.
   */
  private pump() {
    this.guarded(() => this.pumpNow());
  }

  private guarded(step: () => void) {
    try {
      step();
    } catch (error) {
      this.broke(error);
    }
  }

  private broke(error: unknown) {
    this.deps.logger.error({ err: error }, 'cannot send a subscription’s message');
    this.connection.close(CloseCode.InternalServerError, 'Internal server error');
    this.finish();
  }

  private pumpNow() {
    while (!this.finished && !this.busy) {
      const item = this.queue[0];
      if (!item) {
        if (this.failure) this.emit({ fields: {}, objects: {}, error: this.failure, final: true });
        return;
      }
      const read = item.read;
      // Asked for once the subscriber's credentials are at hand (askReads).
      if (!read) return;
      if (!read.settled) {
        if (this.waitingFor !== read) {
          this.waitingFor = read;
          read.wait(this);
        }
        return;
      }
      this.queue.shift();
      const prepared = this.prepare(item, read);
      if (prepared === undefined) {
        this.busy = true;
        void this.prepareGone(item).then((message) => {
          this.busy = false;
          this.guarded(() => {
            if (message) this.emit(message);
            this.pumpNow();
          });
        });
        return;
      }
      this.emit(prepared);
    }
  }

  /** Hands a message on: to the socket when writing, else to `next()`. */
  private emit(message: PreparedMessage) {
    if (!this.finished) this.deliver(message);
  }

  /** Hands a message on, even past the end: a final message made before graphql-ws asked for any (`sendTo`). */
  private deliver(message: PreparedMessage) {
    if (!this.write) {
      this.ready.push(message);
      this.wakeReader?.();
    } else {
      const written = this.write(message, this.sent);
      if (written === true) this.unsent++;
      else if (written !== false) {
        // Not made at once (an execution that waits): what follows waits for it.
        this.busy = true;
        void written.then(
          (later) => {
            if (later) this.unsent++;
            this.busy = false;
            if (message.final) this.finish();
            else this.pump();
          },
          (error: unknown) => this.broke(error),
        );
        return;
      }
    }
    if (message.final) this.finish();
  }

  async next(): Promise<IteratorResult<PreparedMessage>> {
    for (;;) {
      const message = this.ready.shift();
      if (message) {
        this.makeRoom();
        return { value: message, done: false };
      }
      if (this.finished) return { value: undefined, done: true };
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
      this.wakeReader = null;
    }
  }

  async return(): Promise<IteratorResult<PreparedMessage>> {
    this.finish();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /**
   * The message for an entry whose read has come, as the subscriber may see it now; undefined
   * when its primary object is gone from view (`prepareGone` says what then).
   */
  private prepare(item: Queued, read: PendingRead): PreparedMessage | undefined {
    if (read.failed) return this.failed(item, read.error);
    const value = read.value!;
    if (!value.visible) return undefined;
    // The group's subscribers share the message, and with it the executions of it.
    value.shared ??= {
      fields: this.fields(item),
      objects: value.objects,
      results: new Map(),
      payloads: new Map(),
      data: dataOf(value.objects),
      payloadsByData: (item.entry.payloads ??= new Map()),
    } satisfies PreparedMessage;
    return value.shared as PreparedMessage;
  }

  /** Gone from view: the subscription ends when what it watches is gone from view too; null when it goes on. */
  private async prepareGone(item: Queued): Promise<PreparedMessage | null> {
    let context: GatewayContext;
    try {
      context = await this.connection.context();
    } catch (error) {
      this.refused(error);
      return null;
    }
    try {
      return (await sees(this.deps, this.scope, context))
        ? null
        : { fields: {}, objects: {}, error: this.scope.missing(), final: true };
    } catch (error) {
      return this.failed(item, error);
    }
  }

  private fields({ entry, message }: Queued) {
    return { ...message.fields, cursor: cursorOf(this.topic.service, entry.streamId) };
  }

  /** The message that reports why an entry's message cannot be made; the subscription goes on. */
  private failed(item: Queued, error: unknown): PreparedMessage {
    if (!(error instanceof GraphQLError))
      this.deps.logger.error({ err: error }, 'cannot make a subscription’s message');
    return {
      fields: this.fields(item),
      objects: {},
      error: error instanceof GraphQLError ? error : new DomainError(ErrorCode.INTERNAL, '500 Internal Server Error'),
    };
  }
}

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof (value as Promise<T> | null)?.then === 'function';

/**
 * graphql-js's subscribe, but a message shared by a group of subscriptions (PreparedMessage.results)
 * is executed once per result key rather than once per subscription: with 200 subscriptions alike
 * on a project, one execution serves them all. When the connection takes frames, the execution is
 * serialized once per result key too, and each subscription writes its frames itself: graphql-ws
 * then only hears when the subscription ends (and sends `complete`), and serializing, framing and
 * awaiting each message for each subscriber, which cost more than everything else, is left out.
 */
export async function subscribeSharingResults(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const source = stream as AsyncIterableIterator<PreparedMessage>;
  const connection = args.contextValue as LiveConnection;
  const key = connection.resultKey;
  const executed = (message: PreparedMessage) => {
    // Kept before it is awaited: the group's other subscriptions ask for it in the meantime.
    let result = message.results?.get(key);
    if (!result) {
      result = execute({ ...args, rootValue: message });
      message.results?.set(key, result);
    }
    return result;
  };
  const frames = connection.frames;
  if (frames && source instanceof LiveSubscription) {
    const serialized = (result: ExecutionResult) =>
      frames.bytes(JSON.stringify(result.errors ? { ...result, errors: frames.format(result.errors) } : result));
    const write: WriteMessage = (message, sent) => {
      const known = message.payloads?.get(key);
      if (known !== undefined) return frames.write(known, sent);
      // Another group's read of the entry answered the same data: its payload serves this one.
      const dataKey = message.data === undefined ? undefined : `${key}\n${message.data}`;
      const seen = dataKey === undefined ? undefined : message.payloadsByData?.get(dataKey);
      if (seen !== undefined) {
        message.payloads!.set(key, seen);
        return frames.write(seen, sent);
      }
      const result = executed(message);
      if (isPromise(result))
        return result.then((done) => {
          const payload = serialized(done);
          message.payloads?.set(key, payload);
          if (dataKey !== undefined) message.payloadsByData?.set(dataKey, payload);
          return frames.write(payload, sent);
        });
      const payload = serialized(result);
      message.payloads?.set(key, payload);
      if (dataKey !== undefined) message.payloadsByData?.set(dataKey, payload);
      return frames.write(payload, sent);
    };
    let ended: Promise<void> | null = null;
    const direct: AsyncIterableIterator<ExecutionResult> = {
      // graphql-ws asks for the first message once the subscription is registered: from then on
      // the subscription writes its own, and this answers once it has ended.
      async next() {
        ended ??= source.sendTo(write);
        await ended;
        return { value: undefined, done: true };
      },
      return: async () => {
        await source.return?.();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => direct,
    };
    return direct;
  }
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const step = await source.next();
      if (step.done) return { value: undefined, done: true };
      return { value: await executed(step.value), done: false };
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
  // No locations: nothing reports a place in the schema's text, and they held 2 of its 3.5 MiB.
  const schema = buildSchema(publicSdl, { noLocation: true });
  const plans = createReadPlans(deps.lookups);
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
      subscribe(fieldName, topic, messageType, args, connection, info, plans, deps);
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
  plans: ReturnType<typeof createReadPlans>,
  deps: LiveDependencies,
): Promise<AsyncIterableIterator<PreparedMessage>> {
  try {
    const scope = topic.scope(args);
    const after = args.after == null ? null : streamIdOfCursor(String(args.after), topic.service);
    const plan = plans(info, messageType, { primary: topic.primary, selection: topic.gate });
    if (!(await sees(deps, scope, await connection.context()))) throw scope.missing();
    const subscription = new LiveSubscription(fieldName, topic, args, scope, plan, connection, deps);
    await subscription.start(after);
    return subscription;
  } catch (error) {
    connection.release();
    if (!(error instanceof GraphQLError)) deps.logger.warn({ err: error }, 'a subscription could not start');
    throw error;
  }
}
