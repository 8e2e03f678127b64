import { notFound, recordNotFound, requireAdmin, requireUser, unauthenticated } from '@hub/common';
import type { UserRow } from '../db/users';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

const createOAuthToken =
  ({ identity }: ResolverDeps): MutationResolvers['createOAuthToken'] =>
  (_parent, grant) =>
    identity.issueOAuthToken(grant);

/** No principal needed: this is how a client gets its token. `email` wins over `login`, as in GitLab. */
const createSession =
  ({ identity }: ResolverDeps): MutationResolvers['createSession'] =>
  async (_parent, { login, email, password }, context) => {
    const name = email ?? login;
    if (!name) throw unauthenticated();
    const user = await identity.signIn(name, password);
    // The rest of this response is read as the user who just signed in, so their own account
    // settings resolve as they would on GET /user.
    context.principal = { userId: user.id, username: user.username, isAdmin: user.isAdmin, impersonatorId: null };
    // A token sealed under a key since replaced cannot be shown: the user, just proven by their
    // password, gets a new one rather than none.
    return { user, privateToken: identity.privateTokenOf(user) ?? (await identity.resetPrivateToken(user.id)) };
  };

const createUser =
  ({ identity }: ResolverDeps): MutationResolvers['createUser'] =>
  (_parent, { input }, { principal }) => {
    requireAdmin(principal);
    return identity.createUser(input);
  };

const deleteUser =
  ({ identity }: ResolverDeps): MutationResolvers['deleteUser'] =>
  (_parent, { id }, { principal }) => {
    requireAdmin(principal);
    return identity.deleteUser(id);
  };

const resetPrivateToken =
  ({ identity }: ResolverDeps): MutationResolvers['resetPrivateToken'] =>
  (_parent, _args, { principal }) =>
    identity.resetPrivateToken(requireUser(principal));

/** blockUser and unblockUser differ only in the state they set. */
const setUserState =
  (state: UserRow['state']) =>
  ({ identity }: ResolverDeps): MutationResolvers['blockUser'] =>
  async (_parent, { id }, { principal }) => {
    requireAdmin(principal);
    const user = await identity.setState(id, state);
    if (!user) throw notFound('User');
    return user;
  };

const blockUser = setUserState('blocked');
const unblockUser = setUserState('active');

const updateUser =
  ({ identity }: ResolverDeps): MutationResolvers['updateUser'] =>
  async (_parent, { id, input }, { principal }) => {
    requireAdmin(principal);
    const user = await identity.updateUser(id, input);
    // GitLab 7.14's PUT /users/:id looked the user up with User.find: RecordNotFound's answer.
    if (!user) throw recordNotFound();
    return user;
  };

/** Every mutation of this subgraph, made from the same dependencies. */
export const createMutationResolvers = (deps: ResolverDeps): MutationResolvers => ({
  createUser: createUser(deps),
  updateUser: updateUser(deps),
  deleteUser: deleteUser(deps),
  blockUser: blockUser(deps),
  unblockUser: unblockUser(deps),
  createSession: createSession(deps),
  createOAuthToken: createOAuthToken(deps),
  resetPrivateToken: resetPrivateToken(deps),
});
