import { appendFileSync } from 'node:fs';

/** What happened to one stream entry in the gateway, in ms since the epoch. */
interface EntryTrace {
  streamId: string;
  tail: number;
  tailBatch: number;
  readFirst?: number;
  readLast?: number;
  sendFirst?: number;
  sendLast?: number;
  sends: number;
  maxBuffered: number;
}

const file = process.env.LIVE_TRACE_FILE;
const entries = new Map<string, EntryTrace>();
const queries: object[] = [];

const flush = (olderThan: number) => {
  const lines: string[] = [];
  for (const [id, trace] of entries)
    if (trace.tail < olderThan) {
      lines.push(JSON.stringify(trace));
      entries.delete(id);
    }
  if (lines.length) appendFileSync(file!, lines.join('\n') + '\n');
};
if (file) {
  setInterval(() => flush(Date.now() - 30_000), 5_000).unref();
  process.on('exit', () => {
    flush(Infinity);
    if (queries.length) appendFileSync(file!, queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  });
}

export const liveTrace = file
  ? {
      tail(streamId: string, batch: number) {
        entries.set(streamId, { streamId, tail: Date.now(), tailBatch: batch, sends: 0, maxBuffered: 0 });
      },
      read(streamId: string) {
        const trace = entries.get(streamId);
        if (!trace) return;
        trace.readFirst ??= Date.now();
        trace.readLast = Date.now();
      },
      send(streamId: string, buffered: number) {
        const trace = entries.get(streamId);
        if (!trace) return;
        trace.sendFirst ??= Date.now();
        trace.sendLast = Date.now();
        trace.sends++;
        trace.maxBuffered = Math.max(trace.maxBuffered, buffered);
      },
      query(group: string, batch: number, started: number, waited: number) {
        queries.push({ group: group.slice(0, 12), batch, started, ms: Date.now() - started, waited });
        if (queries.length >= 200) appendFileSync(file!, queries.splice(0).map((q) => JSON.stringify(q)).join('\n') + '\n');
      },
    }
  : null;
