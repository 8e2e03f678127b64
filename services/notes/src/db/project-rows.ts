import { buryProject, type Sql } from '@hub/common';
import { deleteProjectIssues } from './issues';
import { deleteProjectLabels } from './labels';
import { deleteProjectMilestones } from './milestones';
import { deleteProjectNotes } from './notes';
import { deleteProjectSnippets } from './snippets';

/** A deleted project's issues, notes, snippets, labels and milestones, once no write on it is in flight (project-tombstones). */
export const deleteProjectRows = (sql: Sql, projectId: number) =>
  buryProject(sql, projectId, async (tx) => {
    await deleteProjectNotes(tx, projectId);
    await deleteProjectIssues(tx, projectId);
    await deleteProjectSnippets(tx, projectId);
    await deleteProjectLabels(tx, projectId);
    await deleteProjectMilestones(tx, projectId);
  });
