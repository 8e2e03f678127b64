import {
  authorize,
  guardProjectWrite,
  missingAttribute,
  recordNotFound,
  notesEvents,
  type AccessClient,
  type Principal,
  type Sql,
  type TransactionSql,
} from '@hub/common';
import * as db from '../db/milestones';
import type { MilestoneRow } from '../db/milestones';
import { blank, present } from './presence';

/**
 * A due date as Rails cast it into a date column: a real calendar date (YYYY-MM-DD, also with
 * slashes or none), else nothing. GitLab 7.14 kept an unreadable date as no date, without an error.
 */
export function dueDateOf(text: string): string | null {
  const match = /^\s*(\d{4})[-/]?(\d{2})[-/]?(\d{2})\s*$/.exec(text);
  if (!match) return null;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

export interface MilestoneChanges {
  title?: string | null;
  description?: string | null;
  dueDate?: string | null;
  /** close or activate; anything else changes no state (GitLab's case had no else). */
  stateEvent?: string | null;
}

/**
 * Milestones (GitLab 7.14's lib/api/milestones.rb): read with read_milestone (Guest and above,
 * any signed-in user on internal and public projects), made and changed with admin_milestone
 * (Master and above); both go when the project has issues and merge requests disabled.
 */
export function createMilestones(deps: { sql: Sql; access: AccessClient }) {
  const { sql } = deps;
  const accessOf = (principal: Principal, projectId: number) => deps.access.loader(principal).load(projectId);

  // Issues and merge requests show their milestone: its change advances their versions.
  const milestoneEvent = (
    tx: TransactionSql,
    type: 'milestone.created' | 'milestone.updated',
    principal: Principal,
    milestone: MilestoneRow,
  ) =>
    notesEvents.record(tx, type, {
      project_id: milestone.projectId,
      actor_id: principal.userId,
      actor_username: principal.username,
      milestone_id: milestone.id,
      title: milestone.title,
      state: milestone.state,
    });

  async function milestoneOr404(projectId: number, id: number): Promise<MilestoneRow> {
    const milestone = await db.findMilestone(sql, projectId, id);
    if (!milestone) throw recordNotFound();
    return milestone;
  }

  return {
    /** Whether the viewer may list the project's milestones: read_milestone (throws otherwise). */
    async authorizeMilestones(principal: Principal, projectId: number): Promise<void> {
      authorize(await accessOf(principal, projectId), principal, 'read_milestone');
    },

    /** Null when the project has no such milestone. */
    async milestone(principal: Principal, projectId: number, id: number): Promise<MilestoneRow | null> {
      authorize(await accessOf(principal, projectId), principal, 'read_milestone');
      return (await db.findMilestone(sql, projectId, id)) ?? null;
    },

    /** Whether the viewer may list the milestone's issues: its project's read_milestone (throws otherwise). */
    async authorizeMilestoneIssues(principal: Principal, milestone: MilestoneRow): Promise<void> {
      authorize(await accessOf(principal, milestone.projectId), principal, 'read_milestone');
    },

    async createMilestone(
      principal: Principal,
      projectId: number,
      input: { title?: string | null; description?: string | null; dueDate?: string | null },
    ): Promise<MilestoneRow> {
      authorize(await accessOf(principal, projectId), principal, 'admin_milestone');
      if (blank(input.title)) throw missingAttribute('title');
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        const created = await db.insertMilestone(tx, {
          projectId,
          title: input.title!,
          description: present(input.description) ? input.description : null,
          dueDate: present(input.dueDate) ? dueDateOf(input.dueDate) : null,
        });
        await milestoneEvent(tx, 'milestone.created', principal, created);
        return created;
      });
    },

    /** GitLab's UpdateService: the state event first, then the attributes sent (blank ones are not sent). */
    async updateMilestone(
      principal: Principal,
      projectId: number,
      id: number,
      input: MilestoneChanges,
    ): Promise<MilestoneRow> {
      authorize(await accessOf(principal, projectId), principal, 'admin_milestone');
      const milestone = await milestoneOr404(projectId, id);
      const changes: Parameters<typeof db.updateMilestone>[2] = {};
      if (input.stateEvent === 'close' && milestone.state === 'active') changes.state = 'closed';
      if (input.stateEvent === 'activate' && milestone.state === 'closed') changes.state = 'active';
      if (present(input.title) && input.title !== milestone.title) changes.title = input.title;
      if (present(input.description) && input.description !== milestone.description)
        changes.description = input.description;
      if (present(input.dueDate)) {
        const dueDate = dueDateOf(input.dueDate);
        if (dueDate !== milestone.dueDate) changes.dueDate = dueDate;
      }
      if (Object.keys(changes).length === 0) return milestone;
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        const updated = await db.updateMilestone(tx, milestone.id, changes);
        await milestoneEvent(tx, 'milestone.updated', principal, updated);
        return updated;
      });
    },

    /** The milestone an issue or merge request of the project may be given; null when it is not the project's. */
    async milestoneOfProject(projectId: number, id: number): Promise<MilestoneRow | null> {
      return (await db.findMilestone(sql, projectId, id)) ?? null;
    },
  };
}

export type Milestones = ReturnType<typeof createMilestones>;
