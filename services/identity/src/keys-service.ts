import {
  accessLevelOf,
  AccessLevel,
  authorize,
  buryProject,
  DomainError,
  fitsIntegerColumn,
  guardProjectWrite,
  identityEvents,
  missingAttribute,
  notFound,
  readOrNull,
  recordNotFound,
  requireAdmin,
  requireUser,
  type AccessClient,
  type Principal,
  type Sql,
  type TransactionSql,
  isUniqueViolation,
} from '@hub/common';
import * as keys from './db/keys';
import type { KeyRow } from './db/keys';
import { findUserById } from './db/users';
import { isBlank, isTooLongKey, keyValidation, prepareKey, type KeyAttributes } from './domain/ssh-keys';

/** key_create and key_destroy, as GitLab's Key after_create/after_destroy hooks announced them. */
async function keyEvent(tx: TransactionSql, type: 'key.created' | 'key.deleted', row: KeyRow): Promise<void> {
  const owner = row.userId === null ? undefined : await findUserById(tx, row.userId);
  await identityEvents.record(tx, type, {
    key_id: row.id,
    kind: row.kind,
    title: row.title,
    key: row.key,
    fingerprint: row.fingerprint,
    user_id: row.userId,
    username: owner?.username ?? null,
    created_at: row.createdAt.toISOString(),
  });
}

/**
 * SSH keys (GitLab 7.14's users.rb key routes and deploy_keys.rb). Users manage their own keys,
 * admins anyone's; deploy keys are GitLab's admin_project (Master and above, and admins), which
 * membership decides through the access client. Keys are stored and listed; no SSH server uses
 * them yet.
 */
export function createKeysService(deps: { sql: Sql; access: AccessClient }) {
  const { sql } = deps;

  async function authorizeAdminProject(principal: Principal, projectId: number): Promise<void> {
    requireUser(principal);
    authorize(await deps.access.loader(principal).load(projectId), principal, 'admin_project');
  }

  /**
   * Whose keys a call names: the caller's own (no id), or a user's by id, for admins only
   * (GitLab's authenticated_as_admin!, even for their own id). Checked before anything else the
   * call sends; `mustExist` then looks the user up, answering `missing` for an id naming nobody.
   */
  function keyOwner(
    principal: Principal,
    userId: number | null | undefined,
  ): { id: number; mustExist: (missing: () => Error) => Promise<void> } {
    if (userId === null || userId === undefined) return { id: requireUser(principal), mustExist: async () => {} };
    requireAdmin(principal);
    return {
      id: userId,
      mustExist: async (missing) => {
        if (!(await findUserById(sql, userId))) throw missing();
      },
    };
  }

  /** A user's keys are shown to the user and to admins; to anyone else they are not there. */
  const maySeeKeysOf = (principal: Principal, userId: number) => principal.isAdmin || principal.userId === userId;

  /** Runs Key's validations (uniqueness included) and inserts; a concurrent duplicate is reported as one. */
  async function insertValidated(
    attrs: KeyAttributes,
    owner: Pick<KeyRow, 'kind' | 'userId'>,
    also?: (tx: TransactionSql, row: KeyRow) => Promise<void>,
  ): Promise<KeyRow> {
    const prepared = prepareKey(attrs);
    const check = async () => {
      // A text over the length limit matches no stored key; it is not sent to the database.
      const taken = await keys.keyTaken(sql, isTooLongKey(prepared.key) ? null : prepared.key, prepared.fingerprint);
      keyValidation(prepared, taken).throwIfAny();
    };
    await check();
    try {
      return await sql.begin(async (tx) => {
        const row = await keys.insertKey(tx, {
          ...owner,
          title: prepared.title!,
          key: prepared.key!,
          fingerprint: prepared.fingerprint!,
        });
        await also?.(tx, row);
        await keyEvent(tx, 'key.created', row);
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) await check();
      throw error;
    }
  }

  /** GitLab's accessible_deploy_keys: keys of projects the user belongs to (any level, or the namespace owner). */
  async function mayReuse(principal: Principal, projectIds: number[]): Promise<boolean> {
    const answers = await deps.access.loader(principal).loadMany(projectIds);
    return answers.some(
      (access) => access !== null && !(access instanceof Error) && accessLevelOf(access, principal) > AccessLevel.NONE,
    );
  }

  async function projectDeployKey(principal: Principal, projectId: number, id: number): Promise<KeyRow | null> {
    await authorizeAdminProject(principal, projectId);
    return (await keys.findProjectDeployKey(sql, projectId, id)) ?? null;
  }

  return {
    /**
     * A key by its id alone (node(id:)): a user's key for the user and admins; a deploy key for
     * those who may see it on one of its projects (Masters and up, and admins). Null otherwise.
     */
    async keyById(principal: Principal, id: number): Promise<KeyRow | null> {
      if (!fitsIntegerColumn(id)) return null;
      const key = await keys.findKeyById(sql, id);
      if (!key) return null;
      if (key.kind === 'user') return key.userId !== null && maySeeKeysOf(principal, key.userId) ? key : null;
      for (const projectId of await keys.deployKeyProjectIds(sql, id)) {
        const seen = await readOrNull(() => projectDeployKey(principal, projectId, id));
        if (seen) return seen;
      }
      return null;
    },

    /** Whether `principal` may list the user's keys: the user and admins (User.keys is null for anyone else). */
    maySeeKeysOf,

    async userKey(principal: Principal, userId: number, id: number): Promise<KeyRow | null> {
      return maySeeKeysOf(principal, userId) ? ((await keys.findUserKey(sql, userId, id)) ?? null) : null;
    },

    /** POST /user/keys and (admins) POST /users/:id/keys: title and key are required attributes there. */
    async createUserKey(
      principal: Principal,
      userId: number | null | undefined,
      attrs: KeyAttributes,
    ): Promise<KeyRow> {
      const owner = keyOwner(principal, userId);
      if (isBlank(attrs.title)) throw missingAttribute('title');
      if (isBlank(attrs.key)) throw missingAttribute('key');
      // GitLab looked the user up with find after the attributes: RecordNotFound's answer.
      await owner.mustExist(recordNotFound);
      return insertValidated(attrs, { kind: 'user', userId: owner.id });
    },

    /** Null when the user has no such key: deleting is idempotent. A missing user is 404 User Not Found. */
    async deleteUserKey(principal: Principal, userId: number | null | undefined, id: number): Promise<KeyRow | null> {
      const owner = keyOwner(principal, userId);
      await owner.mustExist(() => notFound('User'));
      return sql.begin(async (tx) => {
        const row = await keys.deleteUserKey(tx, owner.id, id);
        if (row) await keyEvent(tx, 'key.deleted', row);
        return row ?? null;
      });
    },

    /** Reading a project's deploy keys: Master and up, and admins (see authorizeAdminProject). */
    authorizeDeployKeys: authorizeAdminProject,

    projectDeployKey,

    /**
     * GitLab 7.14's POST /projects/:id/keys: a key this project has already is answered as it is;
     * one on another project the caller belongs to is added to this one as it is (title unchanged);
     * anything else is a new deploy key, validated as every key is.
     */
    async addDeployKey(principal: Principal, projectId: number, attrs: KeyAttributes): Promise<KeyRow> {
      await authorizeAdminProject(principal, projectId);
      const prepared = prepareKey(attrs);
      const existingKey = async (): Promise<KeyRow | null> => {
        if (prepared.key === null || prepared.fingerprint === null || isTooLongKey(prepared.key)) return null;
        const existing = await keys.findDeployKeyByText(sql, prepared.key, prepared.fingerprint);
        if (existing?.projectIds.includes(projectId)) return existing.row;
        if (existing && (await mayReuse(principal, existing.projectIds))) {
          return sql.begin(async (tx) => {
            // Locked, so it cannot be removed as orphaned while it is being added here.
            await guardProjectWrite(tx, projectId);
            const row = await keys.lockKey(tx, existing.row.id);
            if (row) await keys.linkDeployKey(tx, projectId, row.id);
            return row ?? null;
          });
        }
        return null;
      };
      const found = await existingKey();
      if (found) return found;
      try {
        return await insertValidated(attrs, { kind: 'deploy', userId: null }, async (tx, row) => {
          // Not onto a project whose deletion identity has already applied (project-tombstones).
          await guardProjectWrite(tx, projectId);
          await keys.linkDeployKey(tx, projectId, row.id);
        });
      } catch (error) {
        // A concurrent add of the same key won the insert: answered as a repeat is, with that key.
        const winner = error instanceof DomainError ? await existingKey() : null;
        if (winner) return winner;
        throw error;
      }
    },

    /**
     * Takes the key off this project; the key itself goes when no project has it any more. (GitLab
     * 7.14 destroyed the key, taking it off every project, even those the caller may not manage;
     * GitLab 8 removed only the project's link, as here.) Null when the project has no such key.
     */
    async removeDeployKey(principal: Principal, projectId: number, id: number): Promise<KeyRow | null> {
      await authorizeAdminProject(principal, projectId);
      return sql.begin(async (tx) => {
        const row = await keys.lockKey(tx, id);
        if (!row || !(await keys.unlinkDeployKey(tx, projectId, id))) return null;
        for (const deleted of await keys.deleteOrphanedDeployKeys(tx, [id])) await keyEvent(tx, 'key.deleted', deleted);
        return row;
      });
    },

    /** A deleted project: its links go, and keys no other project uses (an event, so idempotent). */
    async projectDeleted(projectId: number): Promise<void> {
      await buryProject(sql, projectId, async (tx) => {
        for (const deleted of await keys.removeProjectDeployKeys(tx, projectId))
          await keyEvent(tx, 'key.deleted', deleted);
      });
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
