import type { Sql } from '@hub/common';

/** How long counted projects per shard are reused (counting 100,000 projects takes ~0.1 s). */
const RECOUNT_AFTER_MS = 10_000;

/**
 * Where a new project's repository goes: of the shards new projects may go to, the one holding
 * the fewest projects (ties: the first named). The counts are read at most every 10 s and the
 * shards picked meanwhile counted here, so a create costs no count; replicas placing at once may
 * pick the same shard, and the next count evens it out. With one shard nothing is counted.
 */
export function createRepositoryPlacement(deps: {
  sql: Sql;
  shards: readonly string[];
  recountAfterMs?: number;
}): () => Promise<string> {
  const { sql, shards } = deps;
  if (shards.length === 1) return async () => shards[0];
  let counts: Promise<Map<string, number>> | null = null;
  let countedAt = 0;
  const count = async () => {
    const rows = await sql<{ repositoryStorage: string; count: number }[]>`
      select repository_storage, count(*)::int as count from projects where repository_storage in ${sql(shards as string[])} group by repository_storage`;
    return new Map(rows.map((row) => [row.repositoryStorage, row.count]));
  };
  return async () => {
    if (!counts || Date.now() - countedAt > (deps.recountAfterMs ?? RECOUNT_AFTER_MS)) {
      countedAt = Date.now();
      counts = count();
      counts.catch(() => (counts = null));
    }
    const known = await counts;
    const shard = shards.reduce((best, candidate) =>
      (known.get(candidate) ?? 0) < (known.get(best) ?? 0) ? candidate : best,
    );
    known.set(shard, (known.get(shard) ?? 0) + 1);
    return shard;
  };
}
