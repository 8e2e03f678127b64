import { authorize } from '@hub/common';
import type { MutationResolvers } from '../../generated/graphql';
import type { ResolverDeps } from '../deps';

/** Developer and above; annotated with a message, lightweight without one. */
export const createTag =
  ({ git }: ResolverDeps): MutationResolvers['createTag'] =>
  async (_parent, { projectId, tagName, ref, message }, { principal, loaders }) => {
    authorize(await loaders.access.load(projectId), principal, 'push_code');
    const tag = await git.createTag(projectId, tagName, ref, message ?? '', { name: principal.username ?? 'Hub', email: '' });
    return { name: tag.name, message: tag.annotated ? tag.message : null, commit: tag.commit! };
  };
