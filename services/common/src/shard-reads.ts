import { GIT_ACCESS_HEADER, type GitAccessClaims } from './contracts/git-worker';
import { signClaims } from './principal';

/** What a git command needs to fetch one repository from a shard's git smart HTTP side. */
export interface ShardRead {
  /** `<shard's git HTTP URL>/<project id>.git` */
  url: string;
  /** Environment for the fetching git command: the signed read-only claims header. */
  env: Record<string, string>;
}

/**
 * Reading one repository from another shard (a fork's or merge's source, a backup's mirror): the
 * claims allow reading that repository, nothing else, and never make it there (a missing one
 * answers 404). The header travels in git's environment (GIT_CONFIG_*), never in its arguments,
 * so the signed claims are not in the process list.
 */
export function shardRead(options: {
  httpUrl: string;
  projectId: number;
  defaultBranch: string;
  secret: string;
}): ShardRead {
  const claims: GitAccessClaims = {
    projectId: options.projectId,
    userId: null,
    username: null,
    push: false,
    pushProtected: false,
    protectedBranches: [],
    developersCanPush: [],
    defaultBranch: options.defaultBranch,
    create: false,
  };
  return {
    url: `${options.httpUrl.replace(/\/+$/, '')}/${options.projectId}.git`,
    env: {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `${GIT_ACCESS_HEADER}: ${signClaims(claims, options.secret)}`,
      GIT_CONFIG_KEY_1: 'http.followRedirects',
      GIT_CONFIG_VALUE_1: 'false',
    },
  };
}
