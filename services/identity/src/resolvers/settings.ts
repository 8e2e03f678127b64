import { mutationPayload, Visibility, visibilityEnumOf } from '@hub/common';
import type {
  ApplicationSettingsResolvers,
  MutationResolvers,
  QueryResolvers,
  Visibility as VisibilityName,
} from '../generated/graphql';
import type { ResolverDeps } from './deps';

/** Query.applicationSettings: GitLab 8.x's GET /application/settings (authenticated_as_admin!). */
export const createSettingsQueryResolvers = ({
  settings,
}: ResolverDeps): Pick<QueryResolvers, 'applicationSettings'> => ({
  applicationSettings: (_parent, _args, { principal }) => settings.read(principal),
});

/** The visibilities in the public enum; v3's numbers stay readable under v3* names, for the facade. */
export const applicationSettingsResolvers: ApplicationSettingsResolvers = {
  restrictedVisibilityLevels: (settings) => settings.restrictedVisibilityLevels.map((level) => visibilityEnumOf(level)),
  v3RestrictedVisibilityLevels: (settings) => settings.restrictedVisibilityLevels,
  defaultProjectVisibility: (settings) => visibilityEnumOf(settings.defaultProjectVisibility),
  v3DefaultProjectVisibility: (settings) => settings.defaultProjectVisibility,
  defaultSnippetVisibility: (settings) => visibilityEnumOf(settings.defaultSnippetVisibility),
  v3DefaultSnippetVisibility: (settings) => settings.defaultSnippetVisibility,
};

/** v3's number when the facade sent one (any number, checked by the settings' rules), else the public enum's level. */
const levelOf = (v3: number | null | undefined, visibility: VisibilityName | null | undefined) =>
  v3 ?? (visibility ? Visibility[visibility] : visibility);

/** Mutation.updateApplicationSettings: GitLab 8.x's PUT /application/settings. */
export const createSettingsMutationResolvers = ({
  settings,
}: ResolverDeps): Pick<MutationResolvers, 'updateApplicationSettings'> => ({
  updateApplicationSettings: (_parent, { input }, { principal }, info) => {
    const {
      clientMutationId,
      restrictedVisibilityLevels,
      v3RestrictedVisibilityLevels,
      defaultProjectVisibility,
      v3DefaultProjectVisibility,
      defaultSnippetVisibility,
      v3DefaultSnippetVisibility,
      ...changes
    } = input;
    return mutationPayload('applicationSettings', { clientMutationId }, info, () =>
      settings.update(principal, {
        ...changes,
        restrictedVisibilityLevels:
          v3RestrictedVisibilityLevels ?? restrictedVisibilityLevels?.map((visibility) => Visibility[visibility]),
        defaultProjectVisibility: levelOf(v3DefaultProjectVisibility, defaultProjectVisibility),
        defaultSnippetVisibility: levelOf(v3DefaultSnippetVisibility, defaultSnippetVisibility),
      }),
    );
  },
});
