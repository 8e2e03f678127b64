import {
  DomainError,
  ErrorCode,
  eventStream,
  parseStreamEntry,
  type KnownEvent,
  type Logger,
  type Redis,
  type StreamedEvent,
} from '@hub/common';

/** An event as subscriptions read it: its place in its stream, and the event checked against its contract. */
export interface LiveEntry {
  service: string;
  streamId: string;
  /** Null for a type no contract declares or a payload that breaks its contract (logged once by the reader). */
  event: KnownEvent | null;
  /**
   * What subscribers of this entry have asked the graph for it, by principal and document: one
   * read per distinct question, however many subscribers ask it (live-messages.ts).
   */
  reads: Map<string, unknown>;
  /**
   * The message this entry makes for each kind of subscription (field and arguments), made once
   * however many subscriptions of that kind it is offered to (live-subscriptions.ts).
   */
  messages?: Map<string, unknown>;
  /** The `next` payloads made of this entry, by result key and the data read (live-subscriptions.ts). */
  payloads?: Map<string, string>;
}

type StreamReply = Array<[string, Array<[string, string[]]>]> | null;

/** Stream entries read at once, by the tail and by each catch-up. */
const PAGE = 200;
/** Entries a catching-up follower keeps from the tail; past them it reads the stream again instead. */
const CATCH_UP_BUFFER = 1_000;

const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

/** Two unsigned decimal integers, a[aStart, aEnd) and b[bStart, bEnd), in order: leading zeros aside, the longer is larger, and equal lengths compare digit by digit. */
function compareDigits(a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number): number {
  while (aStart < aEnd - 1 && a.charCodeAt(aStart) === 48) aStart++;
  while (bStart < bEnd - 1 && b.charCodeAt(bStart) === 48) bStart++;
  if (aEnd - aStart !== bEnd - bStart) return aEnd - aStart > bEnd - bStart ? 1 : -1;
  for (; aStart < aEnd; aStart++, bStart++) {
    const difference = a.charCodeAt(aStart) - b.charCodeAt(bStart);
    if (difference !== 0) return difference > 0 ? 1 : -1;
  }
  return 0;
}

/**
 * Stream ids in order (they are `<ms>-<seq>`, both parts unbounded integers). Compared as digits,
 * without BigInt or splitting: the tail compares each entry once per subscription of its stream
 * (200,000 times a second in the bench's subscriptions scenario: 1,000 subscriptions, two entries
 * per issue update). With BigInt it took 15 % of the gateway's CPU there (the tail's hand-out 38 %
 * with it); as digits 0.3 % (the hand-out 2 %), 100-130 ns a comparison instead of 850-1,100.
 */
export function compareStreamIds(a: string, b: string): number {
  if (a === b) return 0;
  const aDash = a.indexOf('-');
  const bDash = b.indexOf('-');
  return compareDigits(a, 0, aDash, b, 0, bDash) || compareDigits(a, aDash + 1, a.length, b, bDash + 1, b.length);
}

/** A message's cursor: the stream and the entry it was made of, opaque to clients. */
export const cursorOf = (service: string, streamId: string) =>
  Buffer.from(`${service}/${streamId}`, 'utf8').toString('base64url');

/** The stream id a cursor names, or BAD_USER_INPUT when it is not a cursor of `service`'s stream. */
export function streamIdOfCursor(cursor: string, service: string): string {
  const [owner, streamId] = Buffer.from(cursor, 'base64url').toString('utf8').split('/');
  if (owner !== service || !streamId || !STREAM_ID.test(streamId) || cursorOf(service, streamId) !== cursor)
    throw new DomainError(
      ErrorCode.BAD_USER_INPUT,
      `"after" is not a cursor of this subscription: ${JSON.stringify(cursor)}`,
      {
        argument: 'after',
      },
    );
  return streamId;
}

type Listener = (entry: LiveEntry) => void;

/**
 * The followers of one stream: those that take every entry, and those that take only the entries
 * of one route. With 1,000 subscriptions on five projects, each entry went to all 1,000 to be
 * turned down by 800; routed, it goes to the 200 it concerns.
 */
class Followers {
  readonly all = new Set<Listener>();
  readonly routed = new Map<string, Set<Listener>>();
  size = 0;

  add(listener: Listener, route?: string) {
    if (route === undefined) this.all.add(listener);
    else {
      let set = this.routed.get(route);
      if (!set) this.routed.set(route, (set = new Set()));
      set.add(listener);
    }
    this.size++;
  }

  delete(listener: Listener, route?: string) {
    const set = route === undefined ? this.all : this.routed.get(route);
    if (!set?.delete(listener)) return;
    this.size--;
    if (route !== undefined && set.size === 0) this.routed.delete(route);
  }

  has(listener: Listener, route?: string) {
    return (route === undefined ? this.all : this.routed.get(route))?.has(listener) ?? false;
  }
}

export interface Follower {
  /** Stops following: nothing more is handed over. */
  stop(): void;
}

/**
 * The event streams as one process's subscriptions read them: one blocking read of every stream's
 * tail for all of them (`tail`), and, for a subscription that starts from a cursor, a catch-up read
 * of what came since, handed over to the tail without a gap or a repeat. Needs two connections:
 * `blocking` is held by XREAD BLOCK.
 */
export function createLiveStreams(options: {
  blocking: Redis;
  redis: Redis;
  services: string[];
  read: (event: StreamedEvent) => KnownEvent | null;
  /**
   * The routes of an event of `service`'s stream: a follower given a route (`follow`) is handed
   * the tail's entries whose event has it, and no others.
   */
  routes?: (service: string, event: KnownEvent) => string[];
  logger: Logger;
}) {
  const { blocking, redis, services, read, logger } = options;
  const streams = services.map(eventStream);
  const listeners = new Map(services.map((service) => [service, new Followers()]));
  let stopped = false;

  const entryOf = (service: string, id: string, fields: string[]): LiveEntry => ({
    service,
    streamId: id,
    event: read(parseStreamEntry(service, id, fields)),
    reads: new Map(),
  });

  /** The id of a stream's newest entry, or 0-0 for an empty stream: where reading "from now" starts. */
  async function tailId(service: string, connection = redis): Promise<string> {
    const [newest] = (await connection.xrevrange(eventStream(service), '+', '-', 'COUNT', 1)) as Array<
      [string, string[]]
    >;
    return newest?.[0] ?? '0-0';
  }

  // Positions are always real ids, never '$': a '$' re-sent after an empty BLOCK would skip what
  // arrived between two reads.
  const tail = (async () => {
    let lastIds: string[] | null = null;
    while (!stopped) {
      try {
        // On the blocking connection, which queues commands until Redis is reached: no failure at start-up.
        lastIds ??= await Promise.all(services.map((service) => tailId(service, blocking)));
        const reply = (await blocking.xread(
          'COUNT',
          PAGE,
          'BLOCK',
          2000,
          'STREAMS',
          ...streams,
          ...lastIds,
        )) as StreamReply;
        for (const [stream, entries] of reply ?? []) {
          const index = streams.indexOf(stream);
          const service = services[index]!;
          const following = listeners.get(service)!;
          for (const [id, fields] of entries) {
            lastIds[index] = id;
            // Nobody follows this stream: not worth parsing.
            if (following.size === 0) continue;
            const entry = entryOf(service, id, fields);
            for (const listener of following.all) listener(entry);
            if (entry.event && following.routed.size > 0 && options.routes)
              for (const route of options.routes(service, entry.event))
                for (const listener of following.routed.get(route) ?? []) listener(entry);
          }
        }
      } catch (error) {
        if (stopped) break;
        logger.warn({ err: error, streams }, 'event streams unavailable for subscriptions; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })();

  /** Entries of `service`'s stream after `after`, at most a page. */
  async function range(service: string, after: string): Promise<LiveEntry[]> {
    const entries = (await redis.xrange(eventStream(service), `(${after}`, '+', 'COUNT', PAGE)) as Array<
      [string, string[]]
    >;
    return entries.map(([id, fields]) => entryOf(service, id, fields));
  }

  /**
   * Refuses a cursor older than what the stream still holds when entries after it may have been
   * trimmed away: resuming from it would silently skip them.
   */
  async function checkKept(service: string, after: string) {
    const info = (await redis.xinfo('STREAM', eventStream(service)).catch(() => null)) as unknown[] | null;
    if (!info) return;
    const field = (name: string) => info[info.indexOf(name) + 1];
    const first = field('first-entry') as [string, unknown] | null;
    const trimmed = Number(field('entries-added')) > Number(field('length'));
    if (trimmed && first && compareStreamIds(after, first[0]) < 0)
      throw new DomainError(
        ErrorCode.BAD_USER_INPUT,
        '"after" is too old: events after it are no longer kept. Subscribe without it, and read what you missed with queries',
        { argument: 'after' },
      );
  }

  return {
    tailId,

    /**
     * Hands `deliver` every entry of `service`'s stream after `after` (a stream id; the stream's
     * current end when null), in stream order, each once, until stopped. While it catches up
     * (`live` false) it waits for `flow.room()` before each entry; once it follows the tail (`live`
     * true) it never waits: a receiver that falls behind there must give up itself. Resolves once
     * following has started (a cursor checked, the tail listened to); the catch-up goes on behind,
     * and `failed` hears of it if it cannot finish (Redis away), after which nothing more comes.
     */
    async follow(
      service: string,
      after: string | null,
      deliver: (entry: LiveEntry, live: boolean) => void,
      flow: { room: () => boolean; waitForRoom: () => Promise<void>; failed: (error: unknown) => void },
      route?: string,
    ): Promise<Follower> {
      if (after !== null) await checkKept(service, after);
      let position = after ?? (await tailId(service));
      let catchingUp = true;
      // Once the tail hands over an entry past the catch-up's last, every later one is past it too:
      // no more comparisons (the tail hands each entry to every follower of its stream).
      let ahead = false;
      let pending: LiveEntry[] = [];
      let overflowed = false;
      const listener = (entry: LiveEntry) => {
        if (!catchingUp) {
          if (!ahead) {
            if (compareStreamIds(entry.streamId, position) <= 0) return;
            ahead = true;
          }
          position = entry.streamId;
          return deliver(entry, true);
        }
        if (pending.length < CATCH_UP_BUFFER) pending.push(entry);
        else overflowed = true;
      };
      const following = listeners.get(service)!;
      following.add(listener, route);
      const follower: Follower = { stop: () => following.delete(listener, route) };
      /** Hands over one entry of the catch-up once the receiver has room; false once stopped. */
      const handOver = async (entry: LiveEntry) => {
        if (!flow.room()) await flow.waitForRoom();
        if (!following.has(listener, route)) return false;
        position = entry.streamId;
        deliver(entry, false);
        return true;
      };
      // Entries the tail hands over while pages are read are kept; those added before a page's
      // read are in that page. When the kept ones overflowed, the stream is read again instead.
      const catchUp = async () => {
        for (;;) {
          for (;;) {
            pending = [];
            overflowed = false;
            const page = await range(service, position);
            for (const entry of page) if (!(await handOver(entry))) return;
            if (page.length < PAGE && !overflowed) break;
          }
          while (pending.length > 0 && !overflowed) {
            const entry = pending.shift()!;
            if (compareStreamIds(entry.streamId, position) > 0 && !(await handOver(entry))) return;
          }
          if (!overflowed) break;
        }
        catchingUp = false;
      };
      catchUp().catch((error) => {
        follower.stop();
        flow.failed(error);
      });
      return follower;
    },

    stop: async () => {
      stopped = true;
      blocking.disconnect();
      await tail;
    },
  };
}

export type LiveStreams = ReturnType<typeof createLiveStreams>;
