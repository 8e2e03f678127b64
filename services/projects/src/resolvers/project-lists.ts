import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import { countProjects, listProjects, listProjectsKeyset, type ListFilter, type ShownProjectRow } from '../db/projects';
import type { ProjectConnectionResolvers } from '../generated/graphql';
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
