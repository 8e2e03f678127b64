import { timingSafeEqual } from 'node:crypto';
import {
  conflict,
  DomainError,
  ErrorCode,
  identityEvents,
  type Logger,
  type Sql,
  type TransactionSql,
  isUniqueViolation,
} from '@hub/common';
import * as namespaces from './db/namespaces';
import { defaultProjectsLimit } from './db/settings';
import * as oauthTokens from './db/oauth-tokens';
import * as users from './db/users';
import type { UserRow } from './db/users';
import { hashPassword, needsRehash, verifyPassword } from './domain/passwords';
import type { TokenSealer } from './domain/token-seal';
import { digest, newOAuthToken, newPrivateToken } from './domain/tokens';
import { userColumns, validateUserAttributes, type UserAttributes } from './domain/user-attributes';

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

/** Credentials as the gateway forwards them; a Bearer value may be an OAuth or a private token. */
export interface Credentials {
  privateToken?: string | null;
  accessToken?: string | null;
  bearer?: string | null;
  basic?: { login: string; secret: string };
}

/** OAuth errors carry RFC 6749's error name; the facade renders them in OAuth's own body shape. */
const oauthError = (code: ErrorCode, error: string, description: string) =>
  new DomainError(code, description, { oauthError: error });

// A verify against this keeps a sign-in for an unknown login as slow as one with a wrong password.
const DUMMY_HASH = hashPassword('timing-equaliser');

type UserEventType = Extract<keyof typeof identityEvents.schemas, `user.${string}`>;
const MAX_INT32 = 2 ** 31 - 1;

/** Everything identity does to its data: users, tokens, namespaces, sign-ins. */
export function createIdentityService(deps: {
  sql: Sql;
  logger: Logger;
  oauthTokenTtlSeconds: number;
  sealer: TokenSealer;
}) {
  const { sql, sealer } = deps;

  /** A private token as stored: its digest to match requests, its sealed copy to show its owner. */
  const storedToken = (token: string) => ({
    privateTokenDigest: digest(token),
    privateTokenSealed: sealer.seal(token),
  });

  const event = (tx: TransactionSql, type: UserEventType, user: UserRow) =>
    identityEvents.record(tx, type, {
      user_id: user.id,
      username: user.username,
      email: user.email,
      name: user.name,
      is_admin: user.isAdmin,
      created_at: user.createdAt.toISOString(),
    });

  /** 409 for a taken email or username, GitLab's order: email first. */
  async function refuseTaken(attrs: UserAttributes, exceptId: number | null): Promise<void> {
    if (attrs.email) {
      const owner = await users.findUserByEmail(sql, attrs.email.trim());
      if (owner && owner.id !== exceptId) throw conflict('Email has already been taken');
    }
    if (attrs.username) {
      const owner = await users.findUserByUsername(sql, attrs.username.trim());
      if (owner && owner.id !== exceptId) throw conflict('Username has already been taken');
    }
  }

  /** A concurrent create can pass refuseTaken and still lose at the unique index. */
  function mapUniqueViolation(error: unknown): never {
    const pg = error as { code?: string; constraint_name?: string };
    if (isUniqueViolation(pg)) {
      if (pg.constraint_name === 'users_email_key') throw conflict('Email has already been taken');
      if (pg.constraint_name === 'users_username_key' || pg.constraint_name === 'namespaces_path_key') {
        throw conflict('Username has already been taken');
      }
    }
    throw error;
  }

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
    async createUser(attrs: UserAttributes): Promise<UserRow> {
      await refuseTaken(attrs, null);
      validateUserAttributes(attrs, true);
      const values = {
        ...userColumns(attrs),
        // GitLab's User#set_projects_limit: without a limit given, the application setting's.
        projectsLimit: attrs.projectsLimit ?? (await defaultProjectsLimit(sql)),
        passwordHash: await hashPassword(attrs.password!),
        ...storedToken(newPrivateToken()),
      };
      return sql
        .begin(async (tx) => {
          const user = await users.insertUser(tx, values);
          await namespaces.insertUserNamespace(tx, user);
          await event(tx, 'user.created', user);
          return user;
        })
        .catch(mapUniqueViolation);
    },

    async updateUser(id: number, attrs: UserAttributes): Promise<UserRow | null> {
      if (!(await users.findUserById(sql, id))) return null;
      await refuseTaken(attrs, id);
      validateUserAttributes(attrs, false);
      const values = {
        ...userColumns(attrs),
        ...(attrs.password ? { passwordHash: await hashPassword(attrs.password) } : {}),
      };
      return sql
        .begin(async (tx) => {
          const user = await users.updateUser(tx, id, values);
          if (!user) return null;
          if (values.username) await namespaces.renameUserNamespace(tx, id, user.username);
          await event(tx, 'user.updated', user);
          return user;
        })
        .catch(mapUniqueViolation);
    },

    /** Null when there was no such user: deleting is idempotent. */
    async deleteUser(id: number): Promise<UserRow | null> {
      return sql.begin(async (tx) => {
        const user = await users.deleteUser(tx, id);
        if (user) await event(tx, 'user.deleted', user);
        return user ?? null;
      });
    },

    async setState(id: number, state: UserRow['state']): Promise<UserRow | null> {
      return sql.begin(async (tx) => {
        const user = await users.updateUser(tx, id, { state });
        if (user) await event(tx, state === 'blocked' ? 'user.blocked' : 'user.unblocked', user);
        return user ?? null;
      });
    },

    /** POST /session: username or email plus password; 401 otherwise. */
    async signIn(login: string, password: string): Promise<UserRow> {
      const user = await authenticatePassword(login, password);
      if (!user) throw new DomainError(ErrorCode.UNAUTHENTICATED, '401 Unauthorized');
      return users.touchSignIn(sql, user.id);
    },

    /** The OAuth2 token endpoint's password and refresh_token grants. */
    async issueOAuthToken(grant: OAuthGrant): Promise<IssuedOAuthToken> {
      const invalidGrant = () =>
        oauthError(
          ErrorCode.UNAUTHENTICATED,
          'invalid_grant',
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
        );
      if (grant.grantType === 'password') {
        if (!grant.username || !grant.password) {
          throw oauthError(ErrorCode.BAD_REQUEST, 'invalid_request', 'The request is missing a required parameter.');
        }
        const user = await authenticatePassword(grant.username, grant.password);
        if (!user) throw invalidGrant();
        return issueToken(user.id);
      }
      if (grant.grantType === 'refresh_token') {
        if (!grant.refreshToken) {
          throw oauthError(ErrorCode.BAD_REQUEST, 'invalid_request', 'The request is missing a required parameter.');
        }
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

    /** A new random token, or the one given (the seeded root's ROOT_TOKEN). */
    async resetPrivateToken(userId: number, token = newPrivateToken()): Promise<string> {
      return sql.begin(async (tx) => {
        const user = await users.updateUser(tx, userId, storedToken(token));
        if (!user) throw new DomainError(ErrorCode.NOT_FOUND, '404 User Not Found');
        await event(tx, 'user.private_token_reset', user);
        return token;
      });
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

    /** The user's private token, for the user alone (GitLab 7's UserLogin); null if it cannot be opened. */
    privateTokenOf(user: UserRow): string | null {
      const token = user.privateTokenSealed ? sealer.open(user.privateTokenSealed) : null;
      if (token === null)
        deps.logger.warn(
          { userId: user.id },
          'private token cannot be unsealed (TOKEN_ENCRYPTION_KEY changed?); a reset issues a new one',
        );
      return token;
    },

    /** The sudo target: a numeric value is a user id, anything else a username (GitLab's rule). */
    async findSudoTarget(value: string): Promise<UserRow | undefined> {
      if (!/^\d+$/.test(value)) return users.findUserByUsername(sql, value);
      const id = Number(value);
      return id <= MAX_INT32 ? users.findUserById(sql, id) : undefined;
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
