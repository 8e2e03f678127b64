import type { MutationResolvers, QueryResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Query.applicationSettings: GitLab 8.x's GET /application/settings (authenticated_as_admin!). */
export const createSettingsQueryResolvers = ({
  settings,
}: ResolverDeps): Pick<QueryResolvers, 'applicationSettings'> => ({
  applicationSettings: (_parent, _args, { principal }) => settings.read(principal),
});

/** Mutation.updateApplicationSettings: GitLab 8.x's PUT /application/settings. */
export const createSettingsMutationResolvers = ({
  settings,
}: ResolverDeps): Pick<MutationResolvers, 'updateApplicationSettings'> => ({
  updateApplicationSettings: (_parent, { input }, { principal }) => settings.update(principal, input),
});
