import { isGlobalIdReference, referencedDatabaseId, toGlobalId, userStateEnumOf, type Principal } from '@hub/common';
import type { UserRow } from '../db/users';
import { gravatarUrl } from '../domain/tokens';
import type { UserResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const isSelf = (principal: Principal, user: UserRow) => principal.userId === user.id;
const mayReadSettings = (principal: Principal, user: UserRow) => principal.isAdmin || isSelf(principal, user);

/** Account settings are for the user and admins; everyone signed in sees the public profile. */
const setting =
  <T>(read: (user: UserRow) => T) =>
  (user: UserRow, _args: unknown, { principal }: { principal: Principal }) =>
    mayReadSettings(principal, user) ? read(user) : null;

export const createUserResolvers = ({ externalUrl, identity }: ResolverDeps): UserResolvers => ({
  // `{ databaseId }` from another subgraph: the user as it is. `{ id }`, a global id from
  // node(id:): read as Query.user(id:) reads it, so for signed-in callers only (null otherwise).
  __resolveReference: (reference, { principal, loaders }) => {
    const id = referencedDatabaseId('User', reference);
    if (id === null) return null;
    if (isGlobalIdReference(reference) && principal.userId === null) return null;
    return loaders.userById.load(id);
  },
  id: (user) => toGlobalId('User', user.id),
  databaseId: (user) => user.id,
  state: (user) => userStateEnumOf(user.state),
  v3State: (user) => user.state,
  avatarUrl: (user) => gravatarUrl(user.email),
  email: setting((u) => u.email),
  v3Email: (user) => user.email,
  webUrl: (user) => `${externalUrl}/u/${user.username}`,
  namespace: async (user, _args, { loaders }) => (await loaders.namespaceByOwner.load(user.id))!,
  themeId: setting((u) => u.themeId),
  colorSchemeId: setting((u) => u.colorSchemeId),
  projectsLimit: setting((u) => u.projectsLimit),
  currentSignInAt: setting((u) => u.currentSignInAt),
  canCreateGroup: setting((u) => u.canCreateGroup),
  // GitLab compared the limit with the projects owned; projects live in another service, so
  // this says whether the user may create projects at all.
  canCreateProject: setting((u) => u.projectsLimit > 0),
  twoFactorEnabled: setting(() => false),
  identities: setting((u) => (u.provider && u.externUid ? [{ provider: u.provider, externUid: u.externUid }] : [])),
  privateToken: (user, _args, { principal }) => (isSelf(principal, user) ? identity.privateTokenOf(user) : null),
});
