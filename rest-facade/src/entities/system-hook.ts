import type { V3SystemHookFragment } from '../generated/operations';
import { presentedShape, titled, type JsonSchema } from '../openapi/json-schema';

/**
 * GitLab v3's Hook entity (id, url, created_at), plus what a receiver and an operator need beyond
 * GitLab, as project hooks show it: signing_secret (to verify the Standard Webhooks signature)
 * and paused_until (set while a failing hook waits).
 */
export const presentSystemHook = (hook: V3SystemHookFragment) => ({
  id: hook.id,
  url: hook.url,
  created_at: hook.created_at,
  signing_secret: hook.signing_secret,
  paused_until: hook.paused_until,
});

export const systemHookSchema = (selected: JsonSchema) =>
  titled('SystemHook', presentedShape(presentSystemHook, selected));
