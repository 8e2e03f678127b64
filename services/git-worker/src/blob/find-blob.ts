import { gitError } from '../git/errors';
import type { ObjectInfo, ObjectReader } from '../git/object-reader';
import { existingRepo } from '../git/run';
import { validateOid, validatePath, validateRef } from '../git/validate';
import type { WorkerDeps } from '../rpc';

/** A blob found for a download, whichever way it is sent (a gRPC stream, an HTTP answer). */
export interface FoundBlob {
  repo: string;
  reader: ObjectReader;
  info: ObjectInfo;
  /** The commit a blob found by path was read at; '' for one named by its id. */
  commitId: string;
}

/** A blob by its object id; fields are named as the v3 route names them (`sha`). */
export async function findRawBlob(
  deps: Pick<WorkerDeps, 'root' | 'readers'>,
  projectId: number,
  oid: string,
): Promise<FoundBlob> {
  const repo = existingRepo(deps.root, projectId);
  const reader = deps.readers.get(repo);
  const info = await reader.info(validateOid(oid));
  if (!info || info.type !== 'blob') throw gitError('OBJECT_NOT_FOUND', 'no blob has this id', 'sha');
  return { repo, reader, info, commitId: '' };
}

/** A file at a commit or branch, by path: two lookups in the warm reader. */
export async function findBlobAtPath(
  deps: Pick<WorkerDeps, 'root' | 'readers'>,
  projectId: number,
  refName: string,
  filePath: string,
): Promise<FoundBlob> {
  const repo = existingRepo(deps.root, projectId);
  const ref = validateRef(refName, 'sha');
  const path = validatePath(filePath, 'filepath');
  if (path === '') throw gitError('INVALID_ARGUMENT', 'filepath is invalid', 'filepath');
  const reader = deps.readers.get(repo);
  const commit = await reader.info(`${ref}^{commit}`);
  if (!commit) throw gitError('REF_NOT_FOUND', 'the ref names no commit', 'sha');
  const info = await reader.info(`${commit.oid}:${path}`);
  if (!info || info.type !== 'blob') throw gitError('PATH_NOT_FOUND', 'no blob at this path', 'filepath');
  return { repo, reader, info, commitId: commit.oid };
}
