import { toGlobalId } from '@hub/common';
import type { ProjectEventResolvers } from '../generated/graphql';

/** Reached through Project.events or node(id:), which check that the viewer may see the project. */
export const projectEventResolvers: ProjectEventResolvers = {
  id: (event) => toGlobalId('ProjectEvent', Number(event.id)),
  databaseId: (event) => Number(event.id),
  // A reference the gateway completes from identity.
  author: (event) => ({ id: event.authorId }),
};
