import { mutationPayload, notFound, recordNotFound, requireAdmin, requireUser, unauthenticated } from '@hub/common';
import type { GraphQLResolveInfo } from 'graphql';
import type { IdentityContext } from '../context';
import type { UserRow } from '../db/users';
import type { MutationResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/**
 * The sign-ins answer their refusals as GraphQL errors, never in the payload's errors: the
 * gateway's failed sign-in limits count UNAUTHENTICATED errors, and the facade's /oauth/token reads
 * the OAuth error name from their extensions. So they are not run through mutationPayload.
 */
const createOAuthToken =
  ({ identity }: ResolverDeps): MutationResolvers['createOAuthToken'] =>
  async (_parent, { input: { clientMutationId, ...grant } }) => ({
    clientMutationId: clientMutationId ?? null,
    errors: [],
    oauthToken: await identity.issueOAuthToken(grant),
  });

/** No principal needed: this is how a client gets its token. `email` wins over `login`, as in GitLab. */
const createSession =
  ({ identity }: ResolverDeps): MutationResolvers['createSession'] =>
  async (_parent, { input: { clientMutationId, login, email, password } }, context) => {
    const name = email ?? login;
    if (!name) throw unauthenticated();
    const user = await identity.signIn(name, password);
    // The rest of this response is read as the user who just signed in, so their own account
    // settings resolve as they would on GET /user.
    context.principal = { userId: user.id, username: user.username, isAdmin: user.isAdmin, impersonatorId: null };
    // A token sealed under a key since replaced cannot be shown: the user, just proven by their
    // password, gets a new one rather than none.
    const privateToken = identity.privateTokenOf(user) ?? (await identity.resetPrivateToken(user.id));
    return { clientMutationId: clientMutationId ?? null, errors: [], session: { user, privateToken } };
  };

const createUser =
  ({ identity }: ResolverDeps): MutationResolvers['createUser'] =>
  (_parent, { input: { clientMutationId, ...attrs } }, { principal }, info) => {
    requireAdmin(principal);
    return mutationPayload('user', { clientMutationId }, info, () => identity.createUser(attrs));
  };

const deleteUser =
  ({ identity }: ResolverDeps): MutationResolvers['deleteUser'] =>
  (_parent, { input: { clientMutationId, userId } }, { principal }, info) => {
    requireAdmin(principal);
    return mutationPayload('user', { clientMutationId }, info, () => identity.deleteUser(userId));
  };

const resetPrivateToken =
  ({ identity }: ResolverDeps): MutationResolvers['resetPrivateToken'] =>
  (_parent, { input: { clientMutationId } }, { principal }, info) => {
    const userId = requireUser(principal);
    return mutationPayload('privateToken', { clientMutationId }, info, () => identity.resetPrivateToken(userId));
  };

/** blockUser and unblockUser differ only in the state they set. */
const setUserState =
  (state: UserRow['state']) =>
  ({ identity }: ResolverDeps) =>
  (
    _parent: unknown,
    { input: { clientMutationId, userId } }: { input: { clientMutationId?: string | null; userId: number } },
    { principal }: IdentityContext,
    info: GraphQLResolveInfo,
  ) => {
    requireAdmin(principal);
    return mutationPayload('user', { clientMutationId }, info, async () => {
      const user = await identity.setState(userId, state);
      if (!user) throw notFound('User');
      return user;
    });
  };

const blockUser = setUserState('blocked');
const unblockUser = setUserState('active');

const updateUser =
  ({ identity }: ResolverDeps): MutationResolvers['updateUser'] =>
  (_parent, { input: { clientMutationId, userId, ...attrs } }, { principal }, info) => {
    requireAdmin(principal);
    return mutationPayload('user', { clientMutationId }, info, async () => {
      const user = await identity.updateUser(userId, attrs);
      // GitLab 7.14's PUT /users/:id looked the user up with User.find: RecordNotFound's answer.
      if (!user) throw recordNotFound();
      return user;
    });
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
