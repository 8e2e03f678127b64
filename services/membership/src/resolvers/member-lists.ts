import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import {
  countGroupMembers,
  GROUP_MEMBER_ORDERING,
  listGroupMembers,
  listGroupMembersKeyset,
  type GroupMemberRow,
} from '../db/groups';
import {
  countMembers,
  listMembers,
  listMembersKeyset,
  MEMBER_ORDERING,
  type MemberFilter,
  type MemberRow,
} from '../db/members';
import type { GroupMemberConnectionResolvers, ProjectMemberConnectionResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** A project's team as ProjectMemberConnection resolves it (common/connections.ts). */
export type ProjectMemberConnectionParent = ConnectionParent<MemberRow>;
/** A group's members as GroupMemberConnection resolves them (common/connections.ts). */
export type GroupMemberConnectionParent = ConnectionParent<GroupMemberRow>;

export const projectMemberList = (
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  filter: MemberFilter,
  args: ListArgs,
) =>
  pagedList(cursors, args, {
    ordering: MEMBER_ORDERING,
    byNumber: (window) => listMembers(sql, filter, window),
    byKeyset: (window) => listMembersKeyset(sql, filter, window),
    count: () => countMembers(sql, filter),
  });

export const groupMemberList = (
  { sql, cursors }: Pick<ResolverDeps, 'sql' | 'cursors'>,
  groupId: number,
  args: ListArgs,
) =>
  pagedList(cursors, args, {
    ordering: GROUP_MEMBER_ORDERING,
    byNumber: (window) => listGroupMembers(sql, groupId, window),
    byKeyset: (window) => listGroupMembersKeyset(sql, groupId, window),
    count: () => countGroupMembers(sql, groupId),
  });

export const projectMemberConnectionResolvers: ProjectMemberConnectionResolvers = connectionResolvers;
export const groupMemberConnectionResolvers: GroupMemberConnectionResolvers = connectionResolvers;
