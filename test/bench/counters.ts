import { createRedis, createSql, type Redis, type Sql } from '@hub/common';

/**
 * The data servers' own counters, read before and after a target: what the stack asked of
 * Postgres and Redis, for the capacity model (docs/capacity.md) to divide by the requests or
 * events of the target. Postgres's backends publish their counts about once a second while
 * busy (and some seconds after going idle), so a target's figures may miss its last second and
 * carry the one before it: read them over rounds of 10 s or more.
 */
export interface ServerCounters {
  /** pg_stat_database of the stack's database: transactions committed or rolled back. */
  pgTransactions: number;
  /** Rows handed to queries (tup_fetched) and rows written (tup_inserted + tup_updated + tup_deleted). */
  pgRowsRead: number;
  pgRowsWritten: number;
  /** Commands Redis ran (the sum of INFO commandstats' calls), and its used_memory. */
  redisCommands: number;
  redisMemory: number;
}

/**
 * What one read adds to the next: two INFO commands on Redis (an INFO's calls are counted after
 * it answers), one statement in its own transaction on Postgres.
 */
const OWN = { pgTransactions: 1, redisCommands: 2 };

export const commandCalls = (commandstats: string): number =>
  [...commandstats.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);

export class CounterReader {
  private readonly sql: Sql;
  private readonly redis: Redis;

  constructor(databaseUrl: string, redisUrl: string) {
    this.sql = createSql({ url: databaseUrl, schema: 'public', max: 1 });
    // Queued until connected: the first read may come before the connection is up.
    this.redis = createRedis(redisUrl, { blocking: true });
  }

  async read(): Promise<ServerCounters> {
    const [[db], commandstats, memory] = await Promise.all([
      this.sql<{ xacts: string; fetched: string; written: string }[]>`
        select xact_commit + xact_rollback as xacts, tup_fetched as fetched,
               tup_inserted + tup_updated + tup_deleted as written
        from pg_stat_database where datname = current_database()`,
      this.redis.info('commandstats'),
      this.redis.info('memory'),
    ]);
    return {
      pgTransactions: Number(db.xacts),
      pgRowsRead: Number(db.fetched),
      pgRowsWritten: Number(db.written),
      redisCommands: commandCalls(commandstats),
      redisMemory: Number(/^used_memory:(\d+)/m.exec(memory)?.[1] ?? 0),
    };
  }

  /** The counts between two reads, less the reads' own; memory is its growth. */
  static delta(before: ServerCounters, after: ServerCounters): ServerCounters {
    return {
      pgTransactions: Math.max(0, after.pgTransactions - before.pgTransactions - OWN.pgTransactions),
      pgRowsRead: Math.max(0, after.pgRowsRead - before.pgRowsRead),
      pgRowsWritten: Math.max(0, after.pgRowsWritten - before.pgRowsWritten),
      redisCommands: Math.max(0, after.redisCommands - before.redisCommands - OWN.redisCommands),
      redisMemory: after.redisMemory - before.redisMemory,
    };
  }

  /** Figures of repeated calls with one label add up. */
  static add(a: ServerCounters | undefined, b: ServerCounters): ServerCounters {
    if (!a) return b;
    return {
      pgTransactions: a.pgTransactions + b.pgTransactions,
      pgRowsRead: a.pgRowsRead + b.pgRowsRead,
      pgRowsWritten: a.pgRowsWritten + b.pgRowsWritten,
      redisCommands: a.redisCommands + b.redisCommands,
      redisMemory: a.redisMemory + b.redisMemory,
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.sql.end(), this.redis.quit().catch(() => {})]);
  }
}
