import { readOrNull, referencedDatabaseId, toGlobalId } from '@hub/common';
import type { LabelResolvers } from '../generated/graphql';
import type { ResolverDeps } from './deps';

export const createLabelResolvers = ({ notes }: ResolverDeps): LabelResolvers => ({
  // node(id:) asks by global id: a label shows to those who may read its project's labels.
  __resolveReference: async (reference, { principal, loaders }) => {
    const id = referencedDatabaseId('Label', reference);
    const label = id === null ? null : await loaders.labels.load(id);
    if (!label) return null;
    return readOrNull(async () => {
      await notes.authorizeLabels(principal, label.projectId);
      return label;
    });
  },
  id: (label) => toGlobalId('Label', label.id),
  databaseId: (label) => label.id,
  // GitLab's Label keeps a title and shows it as name (alias_attribute :name, :title).
  name: (label) => label.title,
});
