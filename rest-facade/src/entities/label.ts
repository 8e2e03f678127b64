import type { V3LabelFragment } from '../generated/operations';
import { presentedShape, titled, type JsonSchema } from '../openapi/json-schema';

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

export const labelSchema = (selected: JsonSchema) => titled('Label', presentedShape(presentLabel, selected));
export const removedLabelSchema = (selected: JsonSchema) =>
  titled('RemovedLabel', presentedShape(presentRemovedLabel, selected));
