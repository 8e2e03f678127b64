import {
  authorize,
  conflict,
  DomainError,
  ErrorCode,
  mergeRequestsEvents,
  notFound,
  projectsLookup,
  type AccessClient,
  type InternalClient,
  type Logger,
  type Principal,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import { gitDomainError, gitFailureOf, type GitShards } from '@hub/protos';
import * as db from '../db/merge-requests';
import type { MergeRequestRow } from '../db/merge-requests';
import { mergeRequestAttributes } from '../event-attributes';
import { createLabelsAndMilestones } from '../labels';

export interface MergeRequestsDeps {
  sql: Sql;
  access: AccessClient;
  git: GitShards;
  repository: InternalClient;
  projects: InternalClient;
  notes: InternalClient;
  logger: Logger;
}

export const OPEN_STATES = ['opened', 'reopened'];
export const SAME_BRANCH = 'You can not use same project/branch for source and target';
export const NOT_A_FORK = 'Source project is not a fork of target project';

/** A merge request the project does not have: ActiveRecord::RecordNotFound's answer (lower-case f). */
export const mergeRequestNotFound = () => new DomainError(ErrorCode.NOT_FOUND, '404 Not found');

/** GitLab's validate_branches message, naming the open merge requests already there (Ruby's Array#inspect). */
export const duplicateMessage = (titles: string[]) =>
  `Cannot Create: This merge request already exists: [${titles.map((t) => JSON.stringify(t)).join(', ')}]`;

/** What every command of the merge requests service shares: its clients, lookups and events. */
export function createCommandKit(deps: MergeRequestsDeps) {
  const { sql } = deps;
  const metadata = createLabelsAndMilestones(deps.notes);
  const ref = deps.git.unary('ref');
  // A merge's deadline; a claim older than twice that was left by a process that died mid-merge.
  const merge = deps.git.unary('merge', db.MERGE_TIMEOUT_MS);

  const accessOf = (principal: Principal, projectId: number) => deps.access.loader(principal).load(projectId);

  /**
   * Whether the project's repository has the branch. A project deleted while this request ran
   * takes its repository with it, which reads as no branch (or no repository): that is the
   * project not being found, as GitLab answered for a project gone, not a branch that does not exist.
   */
  async function branchExists(projectId: number, name: string): Promise<boolean> {
    try {
      await ref.FindBranch({ repository: { projectId }, name });
      return true;
    } catch (error) {
      if (!gitFailureOf(error)) throw gitDomainError(error);
      const { projects } = await deps.projects.call(projectsLookup, { ids: [projectId] });
      if (projects.length === 0) throw notFound('Project');
      return false;
    }
  }

  /** The source branch's head in GitLab's hook terms; null when the worker cannot say (never fails a write). */
  async function lastCommitOf(mr: MergeRequestRow) {
    try {
      const { commit } = await ref.FindBranch({ repository: { projectId: mr.sourceProjectId }, name: mr.sourceBranch });
      if (!commit) return null;
      return {
        id: commit.id,
        message: commit.message,
        timestamp: commit.author?.date ?? null,
        author: { name: commit.author?.name ?? '', email: commit.author?.email ?? '' },
      };
    } catch {
      return null;
    }
  }

  const event = async (
    tx: TransactionSql,
    action: 'opened' | 'updated' | 'closed' | 'reopened' | 'merged',
    principal: Principal,
    mr: MergeRequestRow,
  ) =>
    mergeRequestsEvents.record(tx, `merge_request.${action}`, {
      project_id: mr.projectId,
      actor_id: principal.userId,
      actor_username: principal.username,
      action,
      merge_request_id: mr.id,
      iid: mr.iid,
      title: mr.title,
      state: mr.state,
      source_project_id: mr.sourceProjectId,
      source_branch: mr.sourceBranch,
      target_branch: mr.targetBranch,
      author_id: mr.authorId,
      assignee_id: mr.assigneeId,
      merge_commit_sha: mr.mergeCommitSha,
      attributes: mergeRequestAttributes(mr, await lastCommitOf(mr)),
    });

  /**
   * GitLab's order: the project first (404 Project Not Found, also for one the caller may not
   * see, so a stranger cannot tell it from a missing one), then the merge request (404 Not found).
   */
  async function findOr404(principal: Principal, projectId: number, id: number) {
    const access = authorize(await accessOf(principal, projectId), principal, 'read_project');
    const mr = await db.findMergeRequest(sql, projectId, id);
    if (!mr) throw mergeRequestNotFound();
    return { mr, access };
  }

  /**
   * 409 with `message`'s words when another open merge request has the pair's source and target
   * branches; `always` when the open-pair key has already refused the row.
   */
  async function refuseOpenDuplicate(
    pair: Pick<MergeRequestRow, 'projectId' | 'sourceProjectId' | 'sourceBranch' | 'targetBranch'>,
    exceptId: number | null,
    message: (titles: string[]) => string,
    always = false,
  ) {
    const titles = await db.openDuplicateTitles(sql, pair, exceptId);
    if (titles.length || always) throw conflict(message(titles));
  }

  return { deps, sql, metadata, merge, accessOf, branchExists, event, findOr404, refuseOpenDuplicate };
}

export type CommandKit = ReturnType<typeof createCommandKit>;
