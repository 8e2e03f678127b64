import type { V3LabelFragment } from '../generated/operations';

/** GitLab v3's Label entity: name and color. */
export const presentLabel = (label: V3LabelFragment) => ({ name: label.name, color: label.color });

/**
 * What DELETE answered: GitLab 7.14 returned the destroyed record itself, which Grape rendered
 * as the model's JSON (its columns, the name as title) rather than as the Label entity.
 */
export const presentRemovedLabel = (label: V3LabelFragment) => ({
  id: label.id,
  title: label.name,
  color: label.color,
  project_id: label.project_id,
  created_at: label.created_at,
  updated_at: label.updated_at,
});
