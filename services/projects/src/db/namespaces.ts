import type { NamespaceSummary, Sql, TransactionSql, UserProfile } from '@hub/common';

/** A row of projects.namespaces (identity's namespace, copied), camelCased. */
export interface NamespaceCopyRow {
  id: number;
  path: string;
  name: string;
  kind: 'user' | 'group';
  description: string;
  ownerId: number | null;
  owner: UserProfile | null;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Sql | TransactionSql;

export async function upsertNamespaces(sql: Db, namespaces: NamespaceSummary[]): Promise<void> {
  for (const n of namespaces) {
    await sql`
      insert into namespaces (id, path, name, kind, description, owner_id, owner, created_at, updated_at)
      values (${n.id}, ${n.path}, ${n.name}, ${n.kind}, ${n.description}, ${n.ownerId}, ${n.owner ? sql.json(n.owner as never) : null}, ${n.createdAt}, ${n.updatedAt})
      on conflict (id) do update set path = excluded.path, name = excluded.name, kind = excluded.kind, description = excluded.description,
        owner_id = excluded.owner_id, owner = excluded.owner, updated_at = excluded.updated_at`;
  }
}

export async function findNamespaces(sql: Db, ids: readonly number[]): Promise<NamespaceCopyRow[]> {
  return sql<NamespaceCopyRow[]>`select * from namespaces where id in ${sql(ids as number[])}`;
}

export async function deleteNamespacesOwnedBy(tx: TransactionSql, ownerId: number): Promise<void> {
  await tx`delete from namespaces where owner_id = ${ownerId}`;
}

export async function deleteNamespace(tx: TransactionSql, id: number): Promise<void> {
  await tx`delete from namespaces where id = ${id}`;
}
