import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import type { GraphQLResolveInfo } from 'graphql';
import {
  countProjects,
  listProjects,
  listProjectsKeyset,
  type ListFilter,
  type ListShape,
  type ShownProjectRow,
} from '../db/projects';
import { countEvents, eventOrdering, listEvents, listEventsKeyset, type EventRow } from '../db/events';
import type { ProjectConnectionResolvers, ProjectEventConnectionResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/**
 * A list of projects as ProjectConnection resolves it (common/connections.ts): shown rows, or
 * RevisionRows when only ids and revisions were asked for (listShapeOf). Project's resolvers of
 * those two fields read nothing else of a row.
 */
export type ProjectConnectionParent = ConnectionParent<ShownProjectRow>;

/** The fields of a listed project a revisions read answers (RevisionRow holds what they read). */
const REVISION_FIELDS = new Set(['id', 'databaseId', 'revision', '__typename']);

/**
 * 'revisions' when a list's selection asks nothing of its projects but ids and revisions (the
 * REST facade's first question for a page) as plain fields of `nodes`; 'shown' for anything else.
 */
export function listShapeOf(info: Pick<GraphQLResolveInfo, 'fieldNodes'>): ListShape {
  for (const list of info.fieldNodes) {
    for (const field of list.selectionSet?.selections ?? []) {
      if (field.kind !== 'Field' || field.directives?.length) return 'shown';
      if (field.name.value === 'total' || field.name.value === '__typename') continue;
      if (field.name.value !== 'nodes') return 'shown';
      for (const item of field.selectionSet?.selections ?? [])
        if (item.kind !== 'Field' || item.directives?.length || !REVISION_FIELDS.has(item.name.value)) return 'shown';
    }
  }
  return 'revisions';
}

export const projectList = (
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  filter: ListFilter,
  args: ListArgs,
  shape: ListShape = 'shown',
) =>
  pagedList(cursors, args, {
    ordering: `projects:${filter.orderBy}:${filter.sort}`,
    // Typed as shown rows for the connection: a revisions read's rows are only asked what they hold.
    byNumber: (window) =>
      listProjects(sql, filter, window, shape) as Promise<{ rows: ShownProjectRow[]; total: number }>,
    byKeyset: (window) => listProjectsKeyset(sql, filter, window),
    count: () => countProjects(sql, filter),
  });

export const projectConnectionResolvers: ProjectConnectionResolvers = connectionResolvers;

/** A project's activity feed as ProjectEventConnection resolves it. */
export type ProjectEventConnectionParent = ConnectionParent<EventRow>;

export const projectEventList = (
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  projectId: number,
  args: ListArgs,
) =>
  pagedList(cursors, args, {
    ordering: eventOrdering(projectId),
    byNumber: (window) => listEvents(sql, projectId, window),
    byKeyset: (window) => listEventsKeyset(sql, projectId, window),
    count: () => countEvents(sql, projectId),
  });

export const projectEventConnectionResolvers: ProjectEventConnectionResolvers = connectionResolvers;
