import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

export const createOAuthToken =
  ({ identity }: ResolverDeps): MutationResolvers['createOAuthToken'] =>
  (_parent, grant) =>
    identity.issueOAuthToken(grant);
