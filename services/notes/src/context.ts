import { fitsIntegerColumn, type AccessClient, type Principal, type ProjectAccess, type Sql } from '@hub/common';
import DataLoader from 'dataloader';
import { findIssuesById, findIssuesByIid, type IssueRow } from './db/issues';
import { findLabelsById } from './db/labels';
import { findMilestonesById } from './db/milestones';
import { findSnippetsById } from './db/snippets';
import { countVotes, findNotesById, type Noteable } from './db/notes';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface NotesContext {
  principal: Principal;
  loaders: ReturnType<typeof createLoaders>;
}

type Votes = { up: number; down: number };

/** A merge request as the gateway hands it over, with the project this subgraph @requires. */
export interface MergeRequestRef {
  id: number;
  projectId?: number;
}

/** An issue, snippet or merge request as a thing notes are on: found in its project already. */
export interface NoteableRef {
  projectId: number;
  type: Noteable['noteableType'];
  id: number;
}

export interface UserRef {
  id: number;
}

/**
 * Access answers, the issues a request names (by id or by project and iid: node(ids:) and the
 * subscriptions' reads ask for a hundred at once), the votes of every issue or merge request it
 * shows and their milestones: one query per kind.
 */
export function createLoaders(sql: Sql, access: AccessClient, principal: Principal) {
  const votes = (noteableType: 'Issue' | 'MergeRequest') =>
    new DataLoader<number, Votes>(async (ids) => {
      const counts = await countVotes(sql, noteableType, ids);
      return ids.map((id) => counts.get(id) ?? { up: 0, down: 0 });
    });
  return {
    access: access.loader(principal) as DataLoader<number, ProjectAccess | null>,
    issues: byId(sql, findIssuesById),
    issuesByIid: new DataLoader<{ projectId: number; iid: number }, IssueRow | null, string>(
      async (keys) => {
        const wanted = keys.filter((key) => fitsIntegerColumn(key.projectId) && fitsIntegerColumn(key.iid));
        const found = new Map((await findIssuesByIid(sql, wanted)).map((row) => [`${row.projectId}:${row.iid}`, row]));
        return keys.map((key) => found.get(`${key.projectId}:${key.iid}`) ?? null);
      },
      { cacheKeyFn: (key) => `${key.projectId}:${key.iid}` },
    ),
    issueVotes: votes('Issue'),
    mergeRequestVotes: votes('MergeRequest'),
    milestones: byId(sql, findMilestonesById),
    labels: byId(sql, findLabelsById),
    snippets: byId(sql, findSnippetsById),
    notes: byId(sql, findNotesById),
  };
}

/** Rows by id, one query for all a request asks for; null for an id no row has. */
function byId<Row extends { id: number }>(sql: Sql, find: (sql: Sql, ids: readonly number[]) => Promise<Row[]>) {
  return new DataLoader<number, Row | null>(async (ids) => {
    const found = new Map((await find(sql, ids.filter(fitsIntegerColumn))).map((row) => [row.id, row]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** A project as the gateway hands it over. */
export interface ProjectRef {
  id: number;
}
