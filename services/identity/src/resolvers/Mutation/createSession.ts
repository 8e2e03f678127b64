import { unauthenticated } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

/** No principal needed: this is how a client gets its token. `email` wins over `login`, as in GitLab. */
export const createSession =
  ({ identity }: ResolverDeps): MutationResolvers['createSession'] =>
  async (_parent, { login, email, password }, context) => {
    const name = email ?? login;
    if (!name) throw unauthenticated();
    const user = await identity.signIn(name, password);
    // The rest of this response is read as the user who just signed in, so their own account
    // settings resolve as they would on GET /user.
    context.principal = { userId: user.id, username: user.username, isAdmin: user.isAdmin, impersonatorId: null };
    return { user, privateToken: user.privateToken };
  };
