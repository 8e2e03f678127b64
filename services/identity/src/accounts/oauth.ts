import { DomainError, ErrorCode, type Sql } from '@hub/common';
import * as oauthTokens from '../db/oauth-tokens';
import * as users from '../db/users';
import type { UserRow } from '../db/users';
import { digest, newOAuthToken } from '../domain/tokens';

export interface OAuthGrant {
  grantType: string;
  username?: string | null;
  password?: string | null;
  refreshToken?: string | null;
}

export interface IssuedOAuthToken {
  accessToken: string;
  tokenType: 'bearer';
  expiresIn: number;
  refreshToken: string;
  scope: string;
  createdAt: number;
}

/** OAuth errors carry RFC 6749's error name; the facade renders them in OAuth's own body shape. */
const oauthError = (code: ErrorCode, error: string, description: string) =>
  new DomainError(code, description, { oauthError: error });

const invalidRequest = () =>
  oauthError(ErrorCode.BAD_REQUEST, 'invalid_request', 'The request is missing a required parameter.');

const invalidGrant = () =>
  oauthError(
    ErrorCode.UNAUTHENTICATED,
    'invalid_grant',
    'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  );

/** The OAuth2 token endpoint. */
export function createOAuth(deps: {
  sql: Sql;
  oauthTokenTtlSeconds: number;
  authenticatePassword: (login: string, password: string) => Promise<UserRow | null>;
}) {
  const { sql } = deps;

  async function issueToken(userId: number): Promise<IssuedOAuthToken> {
    const accessToken = newOAuthToken();
    const refreshToken = newOAuthToken();
    const row = await oauthTokens.insertOAuthToken(sql, {
      userId,
      tokenDigest: digest(accessToken),
      refreshTokenDigest: digest(refreshToken),
      expiresAt: new Date(Date.now() + deps.oauthTokenTtlSeconds * 1000),
    });
    return {
      accessToken,
      tokenType: 'bearer',
      expiresIn: deps.oauthTokenTtlSeconds,
      refreshToken,
      scope: row.scopes,
      createdAt: Math.floor(row.createdAt.getTime() / 1000),
    };
  }

  return {
    /** The password and refresh_token grants. */
    async issueOAuthToken(grant: OAuthGrant): Promise<IssuedOAuthToken> {
      if (grant.grantType === 'password') {
        if (!grant.username || !grant.password) throw invalidRequest();
        const user = await deps.authenticatePassword(grant.username, grant.password);
        if (!user) throw invalidGrant();
        return issueToken(user.id);
      }
      if (grant.grantType === 'refresh_token') {
        if (!grant.refreshToken) throw invalidRequest();
        const old = await oauthTokens.revokeByRefreshDigest(sql, digest(grant.refreshToken));
        const user = old && (await users.findUserById(sql, old.userId));
        if (!user || user.state !== 'active') throw invalidGrant();
        return issueToken(user.id);
      }
      throw oauthError(
        ErrorCode.BAD_REQUEST,
        'unsupported_grant_type',
        'The authorization grant type is not supported by the authorization server.',
      );
    },
  };
}
