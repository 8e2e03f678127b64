import { basename } from 'node:path';
import { badRequest, conflict } from '@hub/common';
import { gitDomainError, gitFailureOf } from '@hub/protos';
import type { FileAction } from './generated/graphql';

/** GitLab 7.14's Gitlab::Regex.file_name_regex, which a created file's name had to match. */
const FILE_NAME = /^[a-zA-Z0-9_\-.]*$/;

/** What GitLab 7.14's Files services answered for each refusal, per action (all 400 unless said). */
const REFUSALS: Record<FileAction, { protectedBranch: string; changedMeanwhile: string }> = {
  CREATE: {
    protectedBranch: 'You are not allowed to create file in this branch',
    changedMeanwhile: 'Your changes could not be committed, because the file has been changed',
  },
  UPDATE: {
    protectedBranch: 'You are not allowed to push into this branch',
    changedMeanwhile: 'Your changes could not be committed. Maybe the file was changed by another process?',
  },
  DELETE: {
    protectedBranch: 'You are not allowed to push into this branch',
    changedMeanwhile: 'Your changes could not be committed, because the file has been changed',
  },
};
const NOT_ON_A_BRANCH = 'You can only create files if you are on top of a branch';

export const protectedBranchRefusal = (action: FileAction) => badRequest(REFUSALS[action].protectedBranch);

/** A created file's name GitLab would not take; null when it is fine. */
export function fileNameRefusal(action: FileAction, path: string) {
  if (action !== 'CREATE' || FILE_NAME.test(basename(path))) return null;
  return badRequest(
    "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-' and '.'. ",
  );
}

/** The content to write: GitLab decoded it only when `encoding` was base64, and took it as text otherwise. */
export const decodeContent = (content: string, encoding: string | null | undefined) =>
  encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');

/** A refused CommitFile in GitLab's words for the action, by the worker's error kind. */
export function fileCommitRefusal(action: FileAction, error: unknown): Error {
  const kind = gitFailureOf(error)?.kind;
  switch (kind) {
    case 'REF_NOT_FOUND':
    case 'EMPTY_REPOSITORY':
      return badRequest(NOT_ON_A_BRANCH);
    case 'ALREADY_EXISTS':
      return action === 'CREATE'
        ? badRequest('Your changes could not be committed, because file with such name exists')
        : // The content given is what the file holds already: nothing to commit (GitLab's 409).
          conflict('Your changes could not be committed. Maybe there was nothing to commit?');
    case 'PATH_NOT_FOUND':
      return badRequest('You can only edit text files');
    case 'CONCURRENT_UPDATE':
      return action === 'UPDATE'
        ? conflict(REFUSALS.UPDATE.changedMeanwhile)
        : badRequest(REFUSALS[action].changedMeanwhile);
    default:
      return gitDomainError(error);
  }
}
