import type { Logger } from '../logger';
import { parseStreamEntry, type StreamedEvent } from '../outbox';
import type { Entry, HandleEntry } from './dispatch';
import type { StreamReply } from './stream-reply';

/** Runs at most `limit` tasks at once; the rest wait in the order they asked, each handed a slot as one frees. */
function createSlots(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < limit) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}

/** A reply's entries, stream by stream. */
const entriesOf = (reply: StreamReply): Entry[] =>
  (reply ?? []).flatMap(([stream, list]) =>
    list.map(([id, fields]) => ({ stream, id, fields: fields as string[] | null })),
  );

/**
 * Handles a reply's entries; false when one failed. Without `orderKeys`, each stream's entries
 * strictly one after another, stopping at a failure. With them, an entry waits only for the
 * earlier entries it shares a key with (all earlier ones for a null key), up to `concurrency` at
 * once; an entry whose predecessor failed is not run. Either way what was not acknowledged stays
 * pending and is read again, in stream order, before anything newer.
 */
export function createReplyHandler(options: {
  handleEntry: HandleEntry;
  logger: Logger;
  serviceOf: (stream: string) => string;
  orderKeys?: (event: StreamedEvent) => string[] | null;
  concurrency: number;
}): (reply: StreamReply) => Promise<boolean> {
  const { handleEntry, orderKeys } = options;

  /** An entry's order keys; one the function cannot key (it threw) waits for, and holds up, everything. */
  function keysOf(keyed: (event: StreamedEvent) => string[] | null, { stream, id, fields }: Entry): string[] | null {
    if (!fields) return [];
    try {
      return keyed(parseStreamEntry(options.serviceOf(stream), id, fields));
    } catch (error) {
      options.logger.warn({ err: error, stream, id }, 'cannot tell this event’s order keys; it is handled alone');
      return null;
    }
  }

  if (!orderKeys)
    return async (reply) => {
      let ok = true;
      for (const [stream, list] of reply ?? []) {
        for (const [id, fields] of list) {
          if (await handleEntry({ stream, id, fields })) continue;
          ok = false;
          break;
        }
      }
      return ok;
    };
  return async (reply) => {
    const last = new Map<string, Promise<boolean>>();
    let barrier: Promise<boolean> = Promise.resolve(true);
    const started: Array<Promise<boolean>> = [];
    const slots = createSlots(options.concurrency);
    for (const entry of entriesOf(reply)) {
      const keys = keysOf(orderKeys, entry);
      const before = keys === null ? [...started] : [barrier, ...keys.flatMap((key) => last.get(key) ?? [])];
      const done = Promise.all(before).then((ok) => (ok.every(Boolean) ? slots.run(() => handleEntry(entry)) : false));
      if (keys === null) barrier = done;
      else for (const key of keys) last.set(key, done);
      started.push(done);
    }
    return (await Promise.all(started)).every(Boolean);
  };
}
