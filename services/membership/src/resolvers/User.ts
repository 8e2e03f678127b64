import type { UserResolvers } from '../generated/graphql';

/** Members' users are `{ id }` here, as identity's references once were; the gateway completes them by databaseId. */
export const userRefResolvers: UserResolvers = {
  databaseId: (user) => user.id,
};
