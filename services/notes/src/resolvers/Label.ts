import type { LabelResolvers } from '../generated/graphql';

/** GitLab's Label keeps a title and shows it as name (alias_attribute :name, :title). */
export const labelResolvers: LabelResolvers = {
  name: (label) => label.title,
};
