import type { Sql } from '@hub/common';

/**
 * Where a new project's repository goes: of the shards new projects may go to, the one holding
 * the fewest projects (ties: the first named). Concurrent creates may all pick the same shard; the
 * balance evens out over the next ones. With one shard nothing is counted.
 */
export function createRepositoryPlacement(deps: { sql: Sql; shards: readonly string[] }): () => Promise<string> {
  const { sql, shards } = deps;
  if (shards.length === 1) return async () => shards[0];
  return async () => {
    const rows = await sql<{ repositoryStorage: string; count: number }[]>`
      select repository_storage, count(*)::int as count from projects where repository_storage in ${sql(shards as string[])} group by repository_storage`;
    const counts = new Map(rows.map((row) => [row.repositoryStorage, row.count]));
    return shards.reduce((best, shard) => ((counts.get(shard) ?? 0) < (counts.get(best) ?? 0) ? shard : best));
  };
}
