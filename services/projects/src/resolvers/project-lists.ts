import {
  connectionOf,
  DomainError,
  ErrorCode,
  pageWindow,
  type ConnectionArgs,
  type Connection,
  type PageInfo,
} from '@hub/common';
import { countProjects, listProjects, listProjectsKeyset, type ListFilter, type ShownProjectRow } from '../db/projects';
import type { ProjectConnectionResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/**
 * A list of projects as ProjectConnection resolves it: a keyset page (the public schema's
 * first/after/last/before), or a page by number (the facade's v3 page and per_page, on the
 * internal contract), which has nodes and a total but no cursors.
 */
export interface ProjectConnectionParent {
  nodes: ShownProjectRow[];
  edges: Connection<ShownProjectRow>['edges'] | null;
  pageInfo: PageInfo | null;
  /** The list's size, counted only when asked for. */
  total: () => Promise<number> | number;
}

export interface ProjectListArgs extends ConnectionArgs {
  page?: number | null;
  perPage?: number | null;
}

export async function projectList(
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  filter: ListFilter,
  args: ProjectListArgs,
): Promise<ProjectConnectionParent> {
  if (args.page != null || args.perPage != null) {
    const { rows, total } = await listProjects(sql, filter, pageWindow(args.page, args.perPage));
    return { nodes: rows, edges: null, pageInfo: null, total: () => total };
  }
  const ordering = `projects:${filter.orderBy}:${filter.sort}`;
  const window = cursors.window(ordering, args);
  const { rows, beyond } = await listProjectsKeyset(sql, filter, window);
  const page = connectionOf<ShownProjectRow & { sortKey: string }>(rows, window, beyond, (row) =>
    cursors.encode(ordering, [row.sortKey, String(row.id)]),
  );
  return { ...page, total: () => countProjects(sql, filter) };
}

const noCursors = (field: string) =>
  new DomainError(ErrorCode.BAD_USER_INPUT, `A page asked for by number has no ${field}: page with first and after`, {
    argument: 'page',
  });

export const projectConnectionResolvers: ProjectConnectionResolvers = {
  edges: (parent) => parent.edges ?? Promise.reject(noCursors('edges')),
  pageInfo: (parent) => parent.pageInfo ?? Promise.reject(noCursors('pageInfo')),
  nodes: (parent) => parent.nodes,
  count: (parent) => parent.total(),
  total: (parent) => parent.total(),
};
