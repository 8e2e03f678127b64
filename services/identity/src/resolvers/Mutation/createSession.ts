import { missingAttribute } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

/** No principal needed: this is how a client gets its token. `email` wins over `login`, as in GitLab. */
export const createSession =
  ({ identity }: ResolverDeps): MutationResolvers['createSession'] =>
  async (_parent, { login, email, password }) => {
    const name = email ?? login;
    if (!name) throw missingAttribute('login');
    const user = await identity.signIn(name, password);
    return { user, privateToken: user.privateToken };
  };
