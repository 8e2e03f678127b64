import type { Logger, Sql } from '@hub/common';
import { createOAuth } from './accounts/oauth';
import { createSignIn } from './accounts/sign-in';
import { createUserAccounts } from './accounts/users';
import type { TokenSealer } from './domain/token-seal';

export type { IssuedOAuthToken, OAuthGrant } from './accounts/oauth';
export type { Credentials } from './accounts/sign-in';

/** Everything identity does to its users: their accounts (accounts/users.ts), sign-ins, OAuth tokens. */
export function createIdentityService(deps: {
  sql: Sql;
  logger: Logger;
  oauthTokenTtlSeconds: number;
  sealer: TokenSealer;
}) {
  const { authenticatePassword, ...signIn } = createSignIn(deps);
  return {
    ...createUserAccounts(deps),
    ...signIn,
    ...createOAuth({ ...deps, authenticatePassword }),
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
