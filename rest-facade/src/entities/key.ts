import type { V3SshKeyFragment } from '../generated/operations';
import { presentedShape, titled, type JsonSchema } from '../openapi/json-schema';

/**
 * GitLab 7.14's SSHKey entity, for users' keys and deploy keys alike: id, title, key, created_at
 * (no fingerprint, and no can_push, which deploy keys got in GitLab 8).
 */
export const presentKey = (key: V3SshKeyFragment) => ({
  id: key.id,
  title: key.title,
  key: key.key,
  created_at: key.created_at,
});

export const keySchema = (selected: JsonSchema) => titled('SSHKey', presentedShape(presentKey, selected));
