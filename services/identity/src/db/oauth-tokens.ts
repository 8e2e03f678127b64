import type { Sql, TransactionSql } from '@hub/common';

export interface OAuthTokenRow {
  id: number;
  userId: number;
  tokenDigest: string;
  refreshTokenDigest: string;
  scopes: string;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
}

type Db = Sql | TransactionSql;

export async function insertOAuthToken(
  sql: Db,
  values: { userId: number; tokenDigest: string; refreshTokenDigest: string; expiresAt: Date },
): Promise<OAuthTokenRow> {
  const [row] = await sql<OAuthTokenRow[]>`insert into oauth_access_tokens ${sql(values)} returning *`;
  return row;
}

/** The user id behind a live (unrevoked, unexpired) access token. */
export async function findLiveTokenUser(sql: Db, tokenDigest: string): Promise<number | undefined> {
  const [row] = await sql<{ userId: number }[]>`
    select user_id from oauth_access_tokens
    where token_digest = ${tokenDigest} and revoked_at is null and expires_at > now()`;
  return row?.userId;
}

/** Revokes the token a refresh token belongs to and returns it, once: a refresh token is single-use. */
export async function revokeByRefreshDigest(sql: Db, refreshDigest: string): Promise<OAuthTokenRow | undefined> {
  const [row] = await sql<OAuthTokenRow[]>`
    update oauth_access_tokens set revoked_at = now()
    where refresh_token_digest = ${refreshDigest} and revoked_at is null
    returning *`;
  return row;
}
