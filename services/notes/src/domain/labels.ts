import {
  authorize,
  badRequest,
  colorProblems,
  conflict,
  DEFAULT_LABEL_COLOR,
  DomainError,
  ErrorCode,
  guardProjectWrite,
  invalid,
  missingAttribute,
  notesEvents,
  titleProblems,
  type AccessClient,
  type FieldErrors,
  type Principal,
  type Sql,
  type TransactionSql,
  isUniqueViolation,
} from '@hub/common';
import * as db from '../db/labels';
import type { LabelRow } from '../db/labels';
import { removeIssueLabel, renameIssueLabel } from '../db/issues';
import { blank, present } from './presence';

const TAKEN = 'has already been taken';

/** The model's validation hash, in its order (color, then title), for render_validation_error!. */
function validationErrors(title: string, color: string, taken: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const colorMessages = colorProblems(color);
  if (colorMessages.length) errors.color = colorMessages;
  const titleMessages = [...titleProblems(title), ...(taken ? [TAKEN] : [])];
  if (titleMessages.length) errors.title = titleMessages;
  return errors;
}

/**
 * Project labels (GitLab 7.14's lib/api/labels.rb): anyone who reads the project lists them;
 * Reporters and above (admin_label) make, change and remove them, by name. A rename or removal
 * rewrites the issues that carry the label and is announced for merge requests.
 */
export function createLabels(deps: { sql: Sql; access: AccessClient }) {
  const { sql } = deps;
  const accessOf = (principal: Principal, projectId: number) => deps.access.loader(principal).load(projectId);

  const labelEvent = (
    tx: TransactionSql,
    type: 'label.updated' | 'label.deleted',
    principal: Principal,
    label: LabelRow,
    previousTitle: string,
  ) =>
    notesEvents.record(tx, type, {
      project_id: label.projectId,
      actor_id: principal.userId,
      actor_username: principal.username,
      label_id: label.id,
      previous_title: previousTitle,
      title: type === 'label.deleted' ? null : label.title,
    });

  return {
    /** Whether the viewer may list the project's labels: anyone who may read the project (throws otherwise). */
    async authorizeLabels(principal: Principal, projectId: number): Promise<void> {
      authorize(await accessOf(principal, projectId), principal, 'read_project');
    },

    /** 409 'Label already exists' for a name the project has; 400 with the model's messages otherwise. */
    async createLabel(
      principal: Principal,
      projectId: number,
      name: string | null | undefined,
      color: string | null | undefined,
    ): Promise<LabelRow> {
      authorize(await accessOf(principal, projectId), principal, 'admin_label');
      if (blank(name)) throw missingAttribute('name');
      if (blank(color)) throw missingAttribute('color');
      if (await db.findLabel(sql, projectId, name)) throw conflict('Label already exists');
      const errors = validationErrors(name, color, false);
      if (Object.keys(errors).length) throw invalid(errors);
      const label = await sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        return db.insertLabel(tx, { projectId, title: name, color });
      });
      // Made by a concurrent request between the look-up and the insert.
      if (!label) throw conflict('Label already exists');
      return label;
    },

    /** GitLab 7.14's PUT: the label by `name`, then new_name and/or color. */
    async updateLabel(
      principal: Principal,
      projectId: number,
      name: string | null | undefined,
      changes: { newName?: string | null; color?: string | null },
    ): Promise<LabelRow> {
      authorize(await accessOf(principal, projectId), principal, 'admin_label');
      if (blank(name)) throw missingAttribute('name');
      const found = await db.findLabel(sql, projectId, name);
      // not_found!('Label not found'): GitLab's own doubled wording.
      if (!found) throw new DomainError(ErrorCode.NOT_FOUND, '404 Label not found Not Found');
      const newName = present(changes.newName) ? changes.newName : undefined;
      const color = present(changes.color) ? changes.color : undefined;
      if (newName === undefined && color === undefined)
        throw badRequest('Required parameters "new_name" or "color" missing');
      const title = newName ?? found.title;
      const taken = title !== found.title && Boolean(await db.findLabel(sql, projectId, title));
      const errors = validationErrors(title, color ?? found.color, taken);
      if (Object.keys(errors).length) throw invalid(errors);
      return sql
        .begin(async (tx) => {
          // Locks in the order every notes write takes them: the project, labels, then issues.
          await guardProjectWrite(tx, projectId);
          const label = await db.updateLabel(tx, found.id, {
            ...(newName !== undefined ? { title } : {}),
            ...(color !== undefined ? { color } : {}),
          });
          // Deleted meanwhile: the answer a repeat would get.
          if (!label) throw new DomainError(ErrorCode.NOT_FOUND, '404 Label not found Not Found');
          if (label.title !== found.title) {
            await renameIssueLabel(tx, projectId, found.title, label.title);
            await labelEvent(tx, 'label.updated', principal, label, found.title);
          }
          return label;
        })
        .catch((error) => {
          if (isUniqueViolation(error)) throw invalid({ title: [TAKEN] });
          throw error;
        });
    },

    /** The removed label; it leaves every issue (and, through its event, merge request) that had it. */
    async deleteLabel(principal: Principal, projectId: number, name: string | null | undefined): Promise<LabelRow> {
      authorize(await accessOf(principal, projectId), principal, 'admin_label');
      if (blank(name)) throw missingAttribute('name');
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        const label = await db.findLabel(tx, projectId, name, true);
        if (!label) throw new DomainError(ErrorCode.NOT_FOUND, '404 Label Not Found');
        await db.deleteLabel(tx, label.id);
        await removeIssueLabel(tx, projectId, label.title);
        await labelEvent(tx, 'label.deleted', principal, label, label.title);
        return label;
      });
    },

    /** add_labels_by_names: the names (already checked) the project lacks become labels in the default colour. */
    ensureLabels: (tx: Sql | TransactionSql, projectId: number, names: readonly string[]) =>
      db.ensureLabels(tx, projectId, names, DEFAULT_LABEL_COLOR),
  };
}

export type Labels = ReturnType<typeof createLabels>;
