import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import { countProjects, listProjects, listProjectsKeyset, type ListFilter, type ShownProjectRow } from '../db/projects';
import { countEvents, eventOrdering, listEvents, listEventsKeyset, type EventRow } from '../db/events';
import type { ProjectConnectionResolvers, ProjectEventConnectionResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** A list of projects as ProjectConnection resolves it (common/connections.ts). */
export type ProjectConnectionParent = ConnectionParent<ShownProjectRow>;

export const projectList = (
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  filter: ListFilter,
  args: ListArgs,
) =>
  pagedList(cursors, args, {
    ordering: `projects:${filter.orderBy}:${filter.sort}`,
    byNumber: (window) => listProjects(sql, filter, window),
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
