import {
  authorize,
  authorizeIssuableChange,
  can,
  guardProjectWrite,
  invalid,
  labelNames,
  NO_MILESTONE,
  notesEvents,
  recordNotFound,
  usersLookup,
  type AccessClient,
  type InternalClient,
  type Principal,
  type ProjectAccess,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import * as issues from '../db/issues';
import type { IssueRow } from '../db/issues';
import { issueAttributes } from '../event-attributes';
import type { Labels } from './labels';
import type { Milestones } from './milestones';
import type { Notes } from './notes';

/** A new issue. */
export interface NewIssue {
  title: string;
  description?: string | null;
  assigneeId?: number | null;
  labels?: readonly string[] | null;
  milestoneId?: number | null;
}

/** Changes to an issue; null or absent fields keep their value. */
export interface IssueChanges {
  title?: string | null;
  description?: string | null;
  assigneeId?: number | null;
  labels?: readonly string[] | null;
  milestoneId?: number | null;
  /** close or reopen; an empty one changes no state, anything else is refused (state_event "is invalid"). */
  stateEvent?: string | null;
}

/** Issues: per-project iids, labels, milestones, close and reopen with system notes. */
export function createIssues(deps: {
  sql: Sql;
  access: AccessClient;
  identity: InternalClient;
  notes: Notes;
  labels: Labels;
  milestones: Milestones;
}) {
  const { sql, notes } = deps;
  const accessOf = (principal: Principal, projectId: number) => deps.access.loader(principal).load(projectId);

  const issueEvent = (
    tx: TransactionSql,
    action: 'opened' | 'updated' | 'closed' | 'reopened',
    principal: Principal,
    issue: IssueRow,
  ) =>
    notesEvents.record(tx, `issue.${action}`, {
      project_id: issue.projectId,
      actor_id: principal.userId,
      actor_username: principal.username,
      action,
      issue_id: issue.id,
      iid: issue.iid,
      title: issue.title,
      state: issue.state,
      attributes: issueAttributes(issue),
    });

  /**
   * The milestone an issue is given: undefined leaves it as it is. GitLab's filter_params dropped
   * it for those below Reporter (no admin_issue); 0 removes it; a milestone that is not the
   * project's counts as none (GitLab 7.14 took any id, which showed other projects' milestones;
   * later versions' filter_milestone cleared it, as here).
   */
  async function milestoneFor(
    access: ProjectAccess,
    principal: Principal,
    projectId: number,
    milestoneId: number | null | undefined,
  ) {
    if (milestoneId == null || !can(access, principal, 'admin_issue')) return undefined;
    if (milestoneId === NO_MILESTONE) return null;
    return deps.milestones.milestoneOfProject(projectId, milestoneId);
  }

  async function issueOr404(projectId: number, id: number): Promise<IssueRow> {
    const issue = await issues.findIssue(sql, projectId, id);
    if (!issue) throw recordNotFound();
    return issue;
  }

  return {
    /** Guests may open issues; a project with issues disabled refuses them (403), as GitLab did. */
    async createIssue(principal: Principal, projectId: number, input: NewIssue) {
      const access = authorize(await accessOf(principal, projectId), principal, 'create_issue');
      // GitLab checked the label names before anything else of the issue.
      const labels = labelNames(input.labels ?? []);
      if (input.title.trim() === '') throw invalid({ title: ["can't be blank"] });
      const milestone = await milestoneFor(access, principal, projectId, input.milestoneId);
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        // add_labels_by_names: a name the project has no label for makes one.
        await deps.labels.ensureLabels(tx, projectId, labels);
        const issue = await issues.insertIssue(tx, {
          projectId,
          title: input.title,
          description: input.description ?? null,
          authorId: principal.userId!,
          assigneeId: input.assigneeId ?? null,
          labels,
          milestoneId: milestone?.id ?? null,
        });
        await issueEvent(tx, 'opened', principal, issue);
        return issue;
      });
    },

    /** Its author, its assignee, or Reporter and above; a state, assignee or title change leaves a system note. */
    async updateIssue(principal: Principal, projectId: number, id: number, input: IssueChanges) {
      // The project first, as GitLab's user_project did: a caller who may not see it must not
      // learn from a 404's wording which issue ids it holds.
      const access = authorize(await accessOf(principal, projectId), principal, 'read_project');
      const issue = await issueOr404(projectId, id);
      authorizeIssuableChange(access, principal, issue, 'update_issue');
      if (input.stateEvent && !['close', 'reopen'].includes(input.stateEvent))
        throw invalid({ state_event: ['is invalid'] });
      const labels = input.labels == null ? null : labelNames(input.labels);
      const milestone = await milestoneFor(access, principal, projectId, input.milestoneId);
      /** What the input changes of `base`, and the state transition it makes. */
      const changesOf = (base: IssueRow) => {
        const changes: Partial<IssueRow> = {};
        if (input.title != null) changes.title = input.title;
        if (input.description != null) changes.description = input.description;
        if (input.assigneeId != null) changes.assigneeId = input.assigneeId;
        if (labels !== null && labels.join('\n') !== base.labels.join('\n')) changes.labels = labels;
        if (milestone !== undefined && (milestone?.id ?? null) !== base.milestoneId)
          changes.milestoneId = milestone?.id ?? null;
        let action: 'updated' | 'closed' | 'reopened' = 'updated';
        if (input.stateEvent === 'close' && base.state !== 'closed') [changes.state, action] = ['closed', 'closed'];
        if (input.stateEvent === 'reopen' && base.state === 'closed')
          [changes.state, action] = ['reopened', 'reopened'];
        return { changes, action };
      };
      if (Object.keys(changesOf(issue).changes).length === 0) return issue;
      const assigneeId = input.assigneeId != null && input.assigneeId !== issue.assigneeId ? input.assigneeId : null;
      // An id no user has (0, negative) is stored as sent, as GitLab did.
      const assignee =
        assigneeId !== null ? (await deps.identity.call(usersLookup, { ids: [assigneeId] })).users[0] : undefined;
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        // The labels before the issue's row, in the order label renames and deletions lock them
        // (labels, then their issues): the other order could deadlock with them.
        if (labels !== null) await deps.labels.ensureLabels(tx, projectId, labels);
        // Concurrent changes of the issue take turns on its row, each measured against the one
        // before: closing it many times at once closes it (and notes it) once.
        const current = await issues.findIssue(tx, projectId, issue.id, true);
        if (!current) throw recordNotFound();
        const { changes, action } = changesOf(current);
        if (Object.keys(changes).length === 0) return current;
        const updated = await issues.updateIssue(tx, issue.id, changes);
        await issueEvent(tx, action, principal, updated);
        // GitLab 7.14's system notes for what changed (the state, through the close and reopen services, first).
        const target = { projectId, noteableType: 'Issue' as const, noteableId: issue.id };
        const system = (body: string) => notes.addSystemNote(tx, target, principal.userId!, body, principal);
        if (action === 'closed' || action === 'reopened') await system(`Status changed to ${action}`);
        // Label changes leave no note: GitLab 7.14's API set labels outside its UpdateService.
        if (updated.milestoneId !== current.milestoneId)
          await system(milestone ? `Milestone changed to ${milestone.title}` : 'Milestone removed');
        if (updated.assigneeId !== current.assigneeId)
          await system(
            updated.assigneeId === null
              ? 'Assignee removed'
              : `Reassigned to @${assignee?.username ?? updated.assigneeId}`,
          );
        if (updated.title !== current.title)
          await system(`Title changed from **${current.title}** to **${updated.title}**`);
        return updated;
      });
    },

    /** The issue a note is made on, as the note's event shows it; null when the project has none such. */
    async issueForNote(projectId: number, id: number) {
      const issue = await issues.findIssue(sql, projectId, id);
      return issue ? issueAttributes(issue) : null;
    },
  };
}
