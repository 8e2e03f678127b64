import { containsPattern, idOrderedList, type Sql, type TransactionSql } from '@hub/common';
import { digest } from '../domain/tokens';

/** A row of identity.users, camelCased. */
export interface UserRow {
  id: number;
  username: string;
  email: string;
  name: string;
  state: 'active' | 'blocked';
  isAdmin: boolean;
  passwordHash: string;
  /** SHA-256 of the private token, what requests are matched against. */
  privateTokenDigest: string;
  /** The token sealed for showing it to its owner (domain/token-seal.ts). */
  privateTokenSealed: string | null;
  bio: string | null;
  skype: string;
  linkedin: string;
  twitter: string;
  websiteUrl: string;
  projectsLimit: number;
  canCreateGroup: boolean;
  themeId: number;
  colorSchemeId: number;
  externUid: string | null;
  provider: string | null;
  currentSignInAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Columns a create or update may set. */
export type UserWritable = Partial<Omit<UserRow, 'id' | 'createdAt' | 'updatedAt' | 'currentSignInAt'>>;

type Db = Sql | TransactionSql;

export async function findUsersByIds(sql: Db, ids: readonly number[]): Promise<UserRow[]> {
  return sql<UserRow[]>`select * from users where id in ${sql(ids as number[])}`;
}

/** The users among `ids`, narrowed to those whose username, name or email contains `query`. */
export async function lookupUsers(sql: Db, ids: number[], query?: string): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  const pattern = query ? containsPattern(query) : null;
  return sql<UserRow[]>`select * from users where id in ${sql(ids)}
    ${pattern ? sql`and (username ilike ${pattern} or name ilike ${pattern} or email ilike ${pattern})` : sql``}
    order by id`;
}

export async function findUserById(sql: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where id = ${id}`;
  return row;
}

export async function findUserByUsername(sql: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where lower(username) = lower(${username})`;
  return row;
}

/** `login` is a username or an email, compared case-insensitively as GitLab's `by_login` did. */
export async function findUserByLogin(sql: Db, login: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    select * from users where lower(username) = lower(${login}) or lower(email) = lower(${login})
    order by (lower(username) = lower(${login})) desc limit 1`;
  return row;
}

export async function findUserByEmail(sql: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where lower(email) = lower(${email})`;
  return row;
}

export async function findUserByPrivateTokenDigest(sql: Db, tokenDigest: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from users where private_token_digest = ${tokenDigest}`;
  return row;
}

/**
 * Seals the plain private tokens migration 0005 left and clears them; run on start, before
 * requests are served (the key is a setting, so SQL alone could not). Safe to run in every
 * replica at once: a row is changed only while its plain token is still there. The digest is set
 * again too: a replica of the older release that reset a token during a rolling update wrote
 * only the plain column, and the digest would keep finding the old token and not the new one.
 */
export async function sealPlainTokens(sql: Sql, seal: (token: string) => string): Promise<number> {
  const rows = await sql<
    { id: number; privateToken: string }[]
  >`select id, private_token from users where private_token is not null`;
  for (const row of rows) {
    await sql`update users set private_token_sealed = ${seal(row.privateToken)}, private_token_digest = ${digest(row.privateToken)}, private_token = null
      where id = ${row.id} and private_token = ${row.privateToken}`;
  }
  return rows.length;
}

export interface UserFilter {
  search?: string | null;
  username?: string | null;
  active?: boolean | null;
  blocked?: boolean | null;
}

/** Which users a list holds, as SQL conditions (`where ...`). */
function userConditions(sql: Db, filter: UserFilter) {
  const pattern = filter.search ? containsPattern(filter.search) : null;
  return sql`
    where true
    ${pattern ? sql`and (username || ' ' || name || ' ' || email) ilike ${pattern}` : sql``}
    ${filter.username ? sql`and lower(username) = lower(${filter.username})` : sql``}
    ${filter.active ? sql`and state = 'active'` : sql``}
    ${filter.blocked ? sql`and state = 'blocked'` : sql``}`;
}

/** The ordering a user list's cursors are made for: v3's, by id ascending. */
export const USER_ORDERING = 'users:id:asc';

const userList = idOrderedList<UserRow, UserFilter>('users', userConditions);
/** A page of users by number (v3's page and per_page), by id ascending, and how many there are. */
export const listUsers = userList.page;
export const countUsers = userList.count;
/** A keyset page of a user list (common/connections.ts), and whether rows lie past the caller's cursor. */
export const listUsersKeyset = userList.keyset;

export async function insertUser(tx: TransactionSql, values: UserWritable): Promise<UserRow> {
  const [row] = await tx<UserRow[]>`insert into users ${tx(values as Record<string, unknown>)} returning *`;
  return row;
}

export async function updateUser(tx: TransactionSql, id: number, values: UserWritable): Promise<UserRow | undefined> {
  if (Object.keys(values).length === 0) return findUserById(tx, id);
  const [row] = await tx<UserRow[]>`
    update users set ${tx(values as Record<string, unknown>)}, updated_at = now() where id = ${id} returning *`;
  return row;
}

export async function deleteUser(tx: TransactionSql, id: number): Promise<UserRow | undefined> {
  const [row] = await tx<UserRow[]>`delete from users where id = ${id} returning *`;
  return row;
}

export async function touchSignIn(sql: Db, id: number): Promise<UserRow> {
  const [row] = await sql<UserRow[]>`update users set current_sign_in_at = now() where id = ${id} returning *`;
  return row;
}
