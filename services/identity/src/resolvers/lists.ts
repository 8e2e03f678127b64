import { connectionResolvers, pagedList, type ConnectionParent, type ListArgs } from '@hub/common';
import { countKeys, keyOrdering, listKeys, listKeysKeyset, type KeyList, type KeyRow } from '../db/keys';
import {
  countNamespaces,
  listNamespaces,
  listNamespacesKeyset,
  namespaceOrdering,
  type NamespaceFilter,
  type NamespaceRow,
} from '../db/namespaces';
import { countUsers, listUsers, listUsersKeyset, USER_ORDERING, type UserFilter, type UserRow } from '../db/users';
import type {
  GroupConnectionResolvers,
  NamespaceConnectionResolvers,
  SshKeyConnectionResolvers,
  UserConnectionResolvers,
} from '../generated/graphql';
import type { ResolverDeps } from './deps';

// Identity's lists as their connection types resolve them (common/connections.ts): v3's pages by
// number for the facade (page, perPage), keyset pages over the same order for the public schema.

export type UserConnectionParent = ConnectionParent<UserRow>;
export type NamespaceConnectionParent = ConnectionParent<NamespaceRow>;
/** Groups are namespaces of kind group. */
export type GroupConnectionParent = ConnectionParent<NamespaceRow>;
export type SshKeyConnectionParent = ConnectionParent<KeyRow>;

type ListDeps = Pick<ResolverDeps, 'sql' | 'cursors'>;

/** Query.users: by id ascending. */
export const userList = ({ sql, cursors }: ListDeps, filter: UserFilter, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: USER_ORDERING,
    byNumber: (window) => listUsers(sql, filter, window),
    byKeyset: (window) => listUsersKeyset(sql, filter, window),
    count: () => countUsers(sql, filter),
  });

/** Query.namespaces and (kind group) Query.groups: by id ascending. */
export const namespaceList = ({ sql, cursors }: ListDeps, filter: NamespaceFilter, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: namespaceOrdering(filter),
    byNumber: (window) => listNamespaces(sql, filter, window),
    byKeyset: (window) => listNamespacesKeyset(sql, filter, window),
    count: () => countNamespaces(sql, filter),
  });

/** User.keys and Project.deployKeys: newest first, the id breaking ties. */
export const keyList = ({ sql, cursors }: ListDeps, list: KeyList, args: ListArgs) =>
  pagedList(cursors, args, {
    ordering: keyOrdering(list),
    byNumber: (window) => listKeys(sql, list, window),
    byKeyset: (window) => listKeysKeyset(sql, list, window),
    count: () => countKeys(sql, list),
  });

export const userConnectionResolvers: UserConnectionResolvers = connectionResolvers;
export const namespaceConnectionResolvers: NamespaceConnectionResolvers = connectionResolvers;
export const groupConnectionResolvers: GroupConnectionResolvers = connectionResolvers;
export const sshKeyConnectionResolvers: SshKeyConnectionResolvers = connectionResolvers;
