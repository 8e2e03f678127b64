import type { UserResolvers } from '../generated/graphql';

/** The users this subgraph names (authors, assignees) by their id; identity owns the rest of them. */
export const userResolvers: UserResolvers = {
  databaseId: (user) => user.id,
};
