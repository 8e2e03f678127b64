import { conflict, isUniqueViolation, type FieldErrors, type Sql } from '@hub/common';
import * as projects from '../db/projects';

const takenErrors = (taken: { name: boolean; path: boolean }): FieldErrors | null => {
  const fields: FieldErrors = {};
  if (taken.name) fields.name = ['has already been taken'];
  if (taken.path) fields.path = ['has already been taken'];
  return Object.keys(fields).length ? fields : null;
};

/** 409 naming each of `name` and `path` that another project of the namespace has. */
export async function refuseTaken(
  sql: Sql,
  namespaceId: number,
  name: string | undefined,
  path: string | undefined,
  exceptId: number | null,
) {
  const fields = takenErrors(await projects.takenInNamespace(sql, namespaceId, name, path, exceptId));
  if (fields) throw conflict(fields);
}

/**
 * Two concurrent writes can both pass refuseTaken; the unique index decides. The loser is
 * answered as a repeat would be: the winner has committed, so refuseTaken now names every
 * field it took (the index names only the first).
 */
export const mapUniqueViolation =
  (sql: Sql, namespaceId: number, name: string | undefined, path: string | undefined, exceptId: number | null) =>
  async (error: unknown): Promise<never> => {
    const pg = error as { code?: string; constraint_name?: string };
    if (!isUniqueViolation(pg)) throw error;
    await refuseTaken(sql, namespaceId, name, path, exceptId);
    if (pg.constraint_name === 'projects_namespace_name_key') throw conflict({ name: ['has already been taken'] });
    if (pg.constraint_name === 'projects_namespace_path_key') throw conflict({ path: ['has already been taken'] });
    throw error;
  };
