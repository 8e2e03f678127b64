import { GIT_ACCESS_HEADER, signClaims, type GitAccessClaims } from '@hub/common';

/** A repository held by another shard, read over that shard's git smart HTTP. */
export interface RemoteRepository {
  /** `<shard's git HTTP URL>/<project id>.git` */
  url: string;
  /** Environment for the git command that fetches from it: the signed read-only claims header. */
  env: Record<string, string>;
}

/**
 * The source repository of a fork or a merge when another shard holds it (`remote_url` set), or
 * null for one on this worker's disk. The other shard's HTTP side serves only signed requests; the
 * claims allow reading that one repository, nothing else, and never make it there (a missing one
 * answers 404). The header travels in git's environment (GIT_CONFIG_*), never in its arguments,
 * so it is not in the process list.
 */
export function remoteRepository(
  secret: string,
  repository: { projectId: number; remoteUrl?: string } | null | undefined,
): RemoteRepository | null {
  if (!repository?.remoteUrl) return null;
  const claims: GitAccessClaims = {
    projectId: repository.projectId,
    userId: null,
    username: null,
    push: false,
    pushProtected: false,
    protectedBranches: [],
    developersCanPush: [],
    defaultBranch: 'master',
    create: false,
  };
  return {
    url: `${repository.remoteUrl.replace(/\/+$/, '')}/${repository.projectId}.git`,
    env: {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `${GIT_ACCESS_HEADER}: ${signClaims(claims, secret)}`,
      GIT_CONFIG_KEY_1: 'http.followRedirects',
      GIT_CONFIG_VALUE_1: 'false',
    },
  };
}
