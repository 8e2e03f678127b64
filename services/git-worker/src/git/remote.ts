import { shardRead, type ShardRead } from '@hub/common';

/**
 * The source repository of a fork or a merge when another shard holds it (`remote_url` set), read
 * over that shard's git smart HTTP with read-only claims (shardRead); null for one on this
 * worker's disk.
 */
export function remoteRepository(
  secret: string,
  repository: { projectId: number; remoteUrl?: string } | null | undefined,
): ShardRead | null {
  if (!repository?.remoteUrl) return null;
  return shardRead({ httpUrl: repository.remoteUrl, projectId: repository.projectId, defaultBranch: 'master', secret });
}
