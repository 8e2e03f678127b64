import { timingSafeEqual } from 'node:crypto';
import { DomainError, ErrorCode, type Sql } from '@hub/common';
import * as oauthTokens from '../db/oauth-tokens';
import * as users from '../db/users';
import type { UserRow } from '../db/users';
import { hashPassword, needsRehash, verifyPassword } from '../domain/passwords';
import { digest } from '../domain/tokens';

/** Credentials as the gateway forwards them; a Bearer value may be an OAuth or a private token. */
export interface Credentials {
  privateToken?: string | null;
  accessToken?: string | null;
  bearer?: string | null;
  basic?: { login: string; secret: string };
}

// A verify against this keeps a sign-in for an unknown login as slow as one with a wrong password.
const DUMMY_HASH = hashPassword('timing-equaliser');

/** Who a request is: passwords, private tokens and OAuth access tokens checked against the users. */
export function createSignIn(deps: { sql: Sql }) {
  const { sql } = deps;

  async function authenticatePassword(login: string, password: string): Promise<UserRow | null> {
    const user = await users.findUserByLogin(sql, login);
    if (!user) {
      await verifyPassword(password, await DUMMY_HASH);
      return null;
    }
    if (!(await verifyPassword(password, user.passwordHash)) || user.state !== 'active') return null;
    // Hashes made with weaker parameters than today's are replaced while the password is at hand.
    if (needsRehash(user.passwordHash)) {
      const passwordHash = await hashPassword(password);
      await sql`update users set password_hash = ${passwordHash} where id = ${user.id} and password_hash = ${user.passwordHash}`;
    }
    return user;
  }

  return {
    authenticatePassword,

    /** POST /session: username or email plus password; 401 otherwise. */
    async signIn(login: string, password: string): Promise<UserRow> {
      const user = await authenticatePassword(login, password);
      if (!user) throw new DomainError(ErrorCode.UNAUTHENTICATED, '401 Unauthorized');
      return users.touchSignIn(sql, user.id);
    },

    /** The active user behind the credentials, or undefined. */
    async userForCredentials(credentials: Credentials): Promise<UserRow | undefined> {
      let user: UserRow | undefined;
      // Tokens are found by their digest: the database compares digests, never the token, so how
      // long a lookup takes says nothing about how close a guess was.
      if (credentials.privateToken)
        user = await users.findUserByPrivateTokenDigest(sql, digest(credentials.privateToken));
      else if (credentials.basic) {
        // git's basic auth: the private token is accepted in place of the password, as GitLab did.
        const { login, secret } = credentials.basic;
        const owner = await users.findUserByLogin(sql, login);
        const given = Buffer.from(digest(secret), 'hex');
        const token = Buffer.from(owner?.privateTokenDigest ?? '', 'hex');
        if (owner && given.length === token.length && timingSafeEqual(given, token)) user = owner;
        else user = (await authenticatePassword(login, secret)) ?? undefined;
      } else {
        const token = credentials.accessToken ?? credentials.bearer;
        if (!token) return undefined;
        const userId = await oauthTokens.findLiveTokenUser(sql, digest(token));
        if (userId !== undefined) user = await users.findUserById(sql, userId);
        // One widely used client sends private tokens as Bearer; GitLab accepted that too.
        else if (credentials.bearer) user = await users.findUserByPrivateTokenDigest(sql, digest(credentials.bearer));
      }
      return user?.state === 'active' ? user : undefined;
    },
  };
}
