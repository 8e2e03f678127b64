import type { V3HookDeliveryFragment, V3HookFragment } from '../generated/operations';

/** The event flags, which the spec shows as strings ("true"/"false") in hook responses. */
const FLAGS = ['push_events', 'tag_push_events', 'issues_events', 'merge_requests_events', 'note_events'] as const;

/**
 * GitLab v3's ProjectHook entity. The spec wins over GitLab's code here: flags are strings of a
 * boolean. Beyond GitLab: signing_secret (to verify the Standard Webhooks signature) and
 * paused_until (set while a failing hook waits).
 */
export function presentHook(hook: V3HookFragment) {
  const shown: Record<string, unknown> = { ...hook };
  for (const flag of FLAGS) shown[flag] = String(hook[flag]);
  return shown;
}

const headerMap = (headers: Array<{ name: string; value: string }> | null) =>
  headers && Object.fromEntries(headers.map((h) => [h.name, h.value]));

/** A delivery of the log: the payload as JSON again, headers as objects. */
export function presentDelivery(delivery: V3HookDeliveryFragment) {
  return {
    ...delivery,
    payload: JSON.parse(delivery.payload) as unknown,
    attempts: delivery.attempts.map((attempt) => ({
      ...attempt,
      request_headers: headerMap(attempt.request_headers),
      response_headers: headerMap(attempt.response_headers),
    })),
  };
}
