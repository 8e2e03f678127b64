import { authorize, commitFind, invalid, type AccessClient, type InternalClient, type Principal } from '@hub/common';
import type { NoteRow } from '../db/notes';
import type { DiffPosition, Notes } from './notes';

/**
 * Comments on commits (GitLab's commit comments). Commits belong to the repository service, which
 * says whether a ref names one and what its full id is; a comment may point at a line of its diff.
 */
export function createCommitNotes(deps: { access: AccessClient; repository: InternalClient; notes: Notes }) {
  /** Those who may read the code read and write its comments (GitLab's commits API asked download_code). */
  async function commitOf(
    principal: Principal,
    projectId: number,
    ref: string,
    ability: 'download_code' | 'create_note',
  ) {
    const access = authorize(await deps.access.loader(principal).load(projectId), principal, 'download_code');
    if (ability === 'create_note') authorize(access, principal, 'create_note');
    // The contract's bounds: longer refs name no commit.
    if (ref.length === 0 || ref.length > 1024) return null;
    return (await deps.repository.call(commitFind, { projectId, ref })).commit;
  }

  return {
    /**
     * The full id of the commit a ref names, to list its comments (for those who may read the code;
     * throws otherwise); null when it names none.
     */
    async commitForNotes(principal: Principal, projectId: number, ref: string): Promise<string | null> {
      return (await commitOf(principal, projectId, ref, 'download_code'))?.id ?? null;
    },

    /** A comment on a commit; null when the ref names no commit. A line needs its path and side too. */
    async createCommitNote(
      principal: Principal,
      projectId: number,
      ref: string,
      body: string,
      position: DiffPosition,
    ): Promise<NoteRow | null> {
      const { path, line, lineType } = position;
      const given = [path, line, lineType].filter((v) => v != null).length;
      if (given > 0 && given < 3) throw invalid({ line: ['needs path, line and line_type together'] });
      if (line != null && line < 1) throw invalid({ line: ['must be greater than 0'] });
      const commit = await commitOf(principal, projectId, ref, 'create_note');
      if (!commit) return null;
      return deps.notes.create(
        principal,
        { projectId, noteableType: 'Commit', noteableId: null, commitId: commit.id },
        body,
        commit,
        given ? position : {},
      );
    },
  };
}
