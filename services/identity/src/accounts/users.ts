import {
  conflict,
  DomainError,
  ErrorCode,
  identityEvents,
  isUniqueViolation,
  type Logger,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import * as namespaces from '../db/namespaces';
import { defaultProjectsLimit } from '../db/settings';
import * as users from '../db/users';
import type { UserRow } from '../db/users';
import { hashPassword } from '../domain/passwords';
import type { TokenSealer } from '../domain/token-seal';
import { digest, newPrivateToken } from '../domain/tokens';
import { userColumns, validateUserAttributes, type UserAttributes } from '../domain/user-attributes';

type UserEventType = Extract<keyof typeof identityEvents.schemas, `user.${string}`>;
const MAX_INT32 = 2 ** 31 - 1;

/** Users' accounts: each change records its event in the same transaction. */
export function createUserAccounts(deps: { sql: Sql; logger: Logger; sealer: TokenSealer }) {
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

    /** A new random token, or the one given (the seeded root's ROOT_TOKEN). */
    async resetPrivateToken(userId: number, token = newPrivateToken()): Promise<string> {
      return sql.begin(async (tx) => {
        const user = await users.updateUser(tx, userId, storedToken(token));
        if (!user) throw new DomainError(ErrorCode.NOT_FOUND, '404 User Not Found');
        await event(tx, 'user.private_token_reset', user);
        return token;
      });
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
