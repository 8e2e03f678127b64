import * as namespaceCopies from '../db/namespaces';
import * as projects from '../db/projects';
import type { CommandKit } from './kit';

/** Namespaces as project responses show them: the local copy, filled from identity when missing. */
export const namespacesByIds =
  (kit: CommandKit) =>
  async (ids: readonly number[]): Promise<Map<number, namespaceCopies.NamespaceCopyRow>> => {
    const { sql } = kit;
    const found = new Map((await namespaceCopies.findNamespaces(sql, ids)).map((n) => [n.id, n]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      await namespaceCopies.upsertNamespaces(sql, await kit.lookupNamespaces({ ids: missing }));
      for (const n of await namespaceCopies.findNamespaces(sql, missing)) found.set(n.id, n);
    }
    return found;
  };

/** Identity said a user changed: refresh the copies of their namespace, if projects holds any. */
export const refreshOwner =
  (kit: CommandKit) =>
  async (userId: number): Promise<void> => {
    if ((await projects.projectIdsOwnedBy(kit.sql, userId)).length === 0) return;
    const fresh = await kit.lookupNamespaces({ ownerIds: [userId] });
    await kit.sql.begin(async (tx) => {
      await namespaceCopies.upsertNamespaces(tx, fresh);
      for (const n of fresh) await projects.renameNamespace(tx, userId, n.path, n.name);
    });
  };
