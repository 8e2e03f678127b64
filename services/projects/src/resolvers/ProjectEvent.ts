import type { ProjectEventResolvers } from '../generated/graphql';

export const projectEventResolvers: ProjectEventResolvers = {
  // A reference the gateway completes from identity.
  author: (event) => ({ id: event.authorId }),
};
