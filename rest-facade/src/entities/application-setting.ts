import type { V3ApplicationSettingFragment } from '../generated/operations';
import { titled, type JsonSchema } from '../openapi/json-schema';

/**
 * GitLab 8.x's Entities::ApplicationSetting (GET and PUT /application/settings): the document
 * selects exactly its fields, under their v3 names and in its order.
 */
export const presentApplicationSetting = (settings: V3ApplicationSettingFragment) => ({ ...settings });

export const applicationSettingSchema = (selected: JsonSchema) => titled('ApplicationSetting', selected);
