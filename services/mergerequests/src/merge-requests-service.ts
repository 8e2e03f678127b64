import {
  protectedBranches,
  authorize,
  authorizeIssuableChange,
  badRequest,
  can,
  conflict,
  DomainError,
  ErrorCode,
  guardProjectWrite,
  invalid,
  labelNames,
  methodNotAllowed,
  mergeRequestsEvents,
  notFound,
  projectsLookup,
  unauthenticated,
  unprocessable,
  type AccessClient,
  type InternalClient,
  type Logger,
  type Principal,
  type Sql,
  type TransactionSql,
  isUniqueViolation,
} from '@hub/common';
import { gitDomainError, gitFailureOf, type GitShards } from '@hub/protos';
import * as db from './db/merge-requests';
import { isWorkInProgress, mergeRequestAttributes } from './event-attributes';
import type { MergeRequestRow } from './db/merge-requests';
import { createLabelsAndMilestones } from './labels';

/** A new merge request, in the source project. */
export interface NewMergeRequest {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description?: string | null;
  assigneeId?: number | null;
  targetProjectId?: number | null;
  labels?: readonly string[] | null;
  milestoneId?: number | null;
}

/** Changes to a merge request; null or absent fields keep their value. */
export interface MergeRequestChanges {
  title?: string | null;
  description?: string | null;
  targetBranch?: string | null;
  assigneeId?: number | null;
  /** close, reopen or merge; an empty one changes no state, anything else is refused (state_event "is invalid"). */
  stateEvent?: string | null;
  labels?: readonly string[] | null;
  milestoneId?: number | null;
  /** Refused when not empty: a merge request keeps its source branch. */
  sourceBranch?: string | null;
}

const OPEN_STATES = ['opened', 'reopened'];
const SAME_BRANCH = 'You can not use same project/branch for source and target';
const NOT_A_FORK = 'Source project is not a fork of target project';

/** A merge request the project does not have: ActiveRecord::RecordNotFound's answer (lower-case f). */
const mergeRequestNotFound = () => new DomainError(ErrorCode.NOT_FOUND, '404 Not found');

/** GitLab 7.14's MergeRequest#merge_commit_message, used when the accept names none. */
export const mergeCommitMessage = (
  mr: Pick<MergeRequestRow, 'sourceBranch' | 'targetBranch' | 'title' | 'description' | 'iid'>,
) =>
  `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\n${mr.description ?? ''}\n\nSee merge request !${mr.iid}`;

/** GitLab's validate_branches message, naming the open merge requests already there (Ruby's Array#inspect). */
const duplicateMessage = (titles: string[]) =>
  `Cannot Create: This merge request already exists: [${titles.map((t) => JSON.stringify(t)).join(', ')}]`;

/** Merge requests: their state machine, iids, and merges done by the git worker. */
export function createMergeRequestsService(deps: {
  sql: Sql;
  access: AccessClient;
  git: GitShards;
  repository: InternalClient;
  projects: InternalClient;
  notes: InternalClient;
  logger: Logger;
}) {
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

  /**
   * Accepting needs push rights on the target branch: Master when it is protected, unless
   * Developers may push to it (GitLab's can_push_to_branch?; GitLab answered 401).
   */
  async function authorizeMerge(principal: Principal, mr: MergeRequestRow) {
    const access = authorize(await accessOf(principal, mr.projectId), principal, 'read_project');
    const { names, developersCanPush } = await deps.repository.call(protectedBranches, { projectId: mr.projectId });
    const masterOnly = names.includes(mr.targetBranch) && !developersCanPush.includes(mr.targetBranch);
    const ability = masterOnly ? 'push_code_to_protected_branches' : 'push_code';
    if (!can(access, principal, ability)) throw unauthenticated();
  }

  /**
   * Accepting in three steps, so that no transaction, connection or row lock is held while git
   * merges (which may fetch from another shard): claim the merge request (concurrent accepts find
   * it claimed or merged: 405), merge outside any transaction, then record the merge, or give the
   * claim back when git refused.
   */
  async function accept(
    principal: Principal,
    projectId: number,
    id: number,
    message: string | null | undefined,
  ): Promise<MergeRequestRow> {
    const { mr: current } = await findOr404(principal, projectId, id);
    await authorizeMerge(principal, current);
    const { mr, claim } = await sql.begin(async (tx) => {
      await guardProjectWrite(tx, projectId);
      const row = await db.findMergeRequest(tx, projectId, id, true);
      if (!row) throw mergeRequestNotFound();
      if (!OPEN_STATES.includes(row.state) || isWorkInProgress(row.title))
        throw methodNotAllowed('405 Method Not Allowed');
      const claimed = await db.claimForMerge(tx, row.id, db.MERGE_CLAIM_STALE_S);
      if (!claimed) throw methodNotAllowed('405 Method Not Allowed');
      return { mr: row, claim: claimed };
    });
    let commitId: string;
    try {
      ({ commitId } = await merge.MergeBranch({
        repository: { projectId: mr.projectId },
        source: mr.sourceBranch,
        target: mr.targetBranch,
        sourceRepository: { projectId: mr.sourceProjectId },
        message: message || mergeCommitMessage(mr),
        author: { name: principal.username ?? 'Hub', email: '' },
      }));
    } catch (error) {
      await db
        .releaseMergeClaim(sql, mr.id, claim)
        .catch((release) =>
          deps.logger.warn({ err: release, mergeRequest: mr.id }, 'merge claim not released; it goes stale'),
        );
      // Conflicts, or a branch gone since: either way GitLab's "cannot be merged".
      if (gitFailureOf(error)) throw methodNotAllowed('Branch cannot be merged');
      throw gitDomainError(error);
    }
    return sql.begin(async (tx) => {
      await guardProjectWrite(tx, projectId);
      const merged = await db.recordMerge(tx, mr.id, claim, commitId);
      // The claim went stale and another accept took it over: the merge request is theirs to record.
      if (!merged) throw methodNotAllowed('405 Method Not Allowed');
      await event(tx, 'merged', principal, merged);
      return merged;
    });
  }

  return {
    accessOf,

    async create(principal: Principal, projectId: number, input: NewMergeRequest): Promise<MergeRequestRow> {
      const access = authorize(await accessOf(principal, projectId), principal, 'create_merge_request');
      // GitLab checked the label names before anything else of the merge request.
      const labels = labelNames(input.labels ?? []);
      const targetProjectId = input.targetProjectId ?? projectId;
      // Labels and the milestone are the target project's, where the merge request lives: from a
      // fork, the milestone needs admin_merge_request there, not in the fork.
      let targetAccess = access;
      if (targetProjectId !== projectId) {
        targetAccess = authorize(await accessOf(principal, targetProjectId), principal, 'read_project');
        if (!targetAccess.mergeRequestsEnabled)
          throw unprocessable('Merge requests are disabled on the target project');
        // GitLab 7.14's MergeRequest#validate_fork: another project may only be targeted from its fork.
        const [source] = (await deps.projects.call(projectsLookup, { ids: [projectId] })).projects;
        if (source?.forkedFromProjectId !== targetProjectId) throw unprocessable(NOT_A_FORK);
      }
      if (targetProjectId === projectId && input.sourceBranch === input.targetBranch) {
        throw unprocessable(SAME_BRANCH);
      }
      const [sourceOk, targetOk] = await Promise.all([
        branchExists(projectId, input.sourceBranch),
        branchExists(targetProjectId, input.targetBranch),
      ]);
      if (!sourceOk || !targetOk) {
        throw invalid({
          ...(sourceOk ? {} : { source_branch: ['does not exist'] }),
          ...(targetOk ? {} : { target_branch: ['does not exist'] }),
        });
      }
      const pair = {
        projectId: targetProjectId,
        sourceProjectId: projectId,
        sourceBranch: input.sourceBranch,
        targetBranch: input.targetBranch,
      };
      // Before notes makes any label; the open-pair key still settles concurrent creates below.
      await refuseOpenDuplicate(pair, null, duplicateMessage);
      // add_labels_by_names: names the project has no label for become labels. filter_params: below
      // Developer on the target a milestone is not taken.
      const milestoneId = await metadata.prepare(
        targetProjectId,
        labels,
        can(targetAccess, principal, 'admin_merge_request') ? input.milestoneId : undefined,
      );
      return sql
        .begin(async (tx) => {
          await guardProjectWrite(tx, targetProjectId);
          const iid = await db.nextIid(tx, targetProjectId);
          const mr = await db.insertMergeRequest(tx, {
            ...pair,
            iid,
            title: input.title,
            description: input.description ?? null,
            authorId: principal.userId!,
            assigneeId: input.assigneeId ?? null,
            labels,
            milestoneId: milestoneId ?? null,
          });
          await event(tx, 'opened', principal, mr);
          return mr;
        })
        .catch(async (error) => {
          if (isUniqueViolation(error)) await refuseOpenDuplicate(pair, null, duplicateMessage, true);
          throw error;
        });
    },

    /** The spec's state table: close from opened, reopen from closed (state reopened), merge as accept. */
    async update(
      principal: Principal,
      projectId: number,
      id: number,
      input: MergeRequestChanges,
    ): Promise<MergeRequestRow> {
      const { mr, access } = await findOr404(principal, projectId, id);
      authorizeIssuableChange(access, principal, mr, 'update_merge_request');
      // GitLab's message exactly, once the merge request is found and the caller may change it.
      if (input.sourceBranch != null && input.sourceBranch !== '') throw badRequest('Source branch cannot be changed');
      const labels = input.labels == null ? null : labelNames(input.labels);
      if (input.stateEvent && !['close', 'reopen', 'merge'].includes(input.stateEvent))
        throw invalid({ state_event: ['is invalid'] });
      const retarget = input.targetBranch != null && input.targetBranch !== mr.targetBranch ? input.targetBranch : null;
      // The model's validate_branches, as on create: never into its own source branch.
      if (retarget !== null && mr.sourceProjectId === mr.projectId && retarget === mr.sourceBranch)
        throw unprocessable(SAME_BRANCH);
      if (retarget !== null && !(await branchExists(projectId, retarget)))
        throw invalid({ target_branch: ['does not exist'] });
      const changes: Partial<MergeRequestRow> = {};
      if (input.title != null) changes.title = input.title;
      if (input.description != null) changes.description = input.description;
      if (retarget !== null) changes.targetBranch = retarget;
      if (input.assigneeId != null) changes.assigneeId = input.assigneeId;
      if (labels !== null && labels.join('\n') !== mr.labels.join('\n')) changes.labels = labels;
      /** The state the input moves a merge request in `state` to, and the action that is. */
      // A merge request being merged is not closed under the merge (GitLab's locked state).
      const transition = (row: MergeRequestRow) =>
        input.stateEvent === 'close' && OPEN_STATES.includes(row.state) && !db.isMerging(row)
          ? ({ state: 'closed', action: 'closed' } as const)
          : input.stateEvent === 'reopen' && row.state === 'closed'
            ? ({ state: 'reopened', action: 'reopened' } as const)
            : ({ state: undefined, action: 'updated' } as const);
      let { state, action } = transition(mr);
      if (state) changes.state = state;
      // Reopened or moved onto the branches of another open merge request: refused before notes
      // makes any label; the open-pair key still settles concurrent changes below.
      const duplicate = (titles: string[]) =>
        retarget !== null ? duplicateMessage(titles) : 'Cannot Reopen: This merge request already exists';
      const opensPair = OPEN_STATES.includes(changes.state ?? mr.state) && (action === 'reopened' || retarget !== null);
      if (opensPair) await refuseOpenDuplicate({ ...mr, ...changes }, mr.id, duplicate);
      // filter_params: below admin_merge_request (Developer) a milestone is not taken.
      const milestoneId = await metadata.prepare(
        projectId,
        changes.labels ?? [],
        can(access, principal, 'admin_merge_request') ? input.milestoneId : undefined,
      );
      if (milestoneId !== undefined && milestoneId !== mr.milestoneId) changes.milestoneId = milestoneId;
      let updated = mr;
      if (Object.keys(changes).length) {
        updated = await sql
          .begin(async (tx) => {
            await guardProjectWrite(tx, mr.projectId);
            // Concurrent changes take turns on the row; the state moves from where the one
            // before left it: closed many times at once, closed (and noted) once; never a merged
            // one closed by a close that read it open.
            const current = await db.findMergeRequest(tx, projectId, mr.id, true);
            if (!current) throw mergeRequestNotFound();
            ({ state, action } = transition(current));
            if (state) changes.state = state;
            else delete changes.state;
            if (Object.keys(changes).length === 0) return current;
            const row = await db.updateMergeRequest(tx, mr.id, changes);
            await event(tx, action, principal, row);
            return row;
          })
          .catch(async (error) => {
            // Another merge request opened on these branches meanwhile (GitLab's validate_branches message).
            if (isUniqueViolation(error)) await refuseOpenDuplicate({ ...mr, ...changes }, mr.id, duplicate, true);
            throw error;
          });
      }
      if (input.stateEvent === 'merge') return accept(principal, projectId, id, null);
      return updated;
    },

    accept,
  };
}

export type MergeRequestsService = ReturnType<typeof createMergeRequestsService>;
