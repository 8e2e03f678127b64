import type { V3HookDeliveryFragment, V3HookFragment } from '../generated/operations';
import { mapItems, nullable, propertyOf, titled, withProperties, type JsonSchema } from '../openapi/json-schema';

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

/** presentHook's shape: the flags as strings. */
export const hookSchema = (selected: JsonSchema) =>
  titled(
    'ProjectHook',
    withProperties(
      selected,
      Object.fromEntries(FLAGS.map((flag) => [flag, { type: 'string', enum: ['true', 'false'] }])),
    ),
  );

/** headerMap's shape, from the selected list of name and value pairs. */
const headerMapSchema = (selected: JsonSchema): JsonSchema => {
  const map: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
  return Array.isArray(selected.type) && selected.type.includes('null') ? nullable(map) : map;
};

/** presentDelivery's shape: any JSON payload, headers as objects. */
export const deliverySchema = (selected: JsonSchema) =>
  titled(
    'HookDelivery',
    withProperties(selected, {
      payload: {},
      attempts: mapItems(propertyOf(selected, 'attempts'), (attempt) =>
        withProperties(attempt, {
          request_headers: headerMapSchema(propertyOf(attempt, 'request_headers')),
          response_headers: headerMapSchema(propertyOf(attempt, 'response_headers')),
        }),
      ),
    }),
  );
