import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { DeliveryRow, HookTarget } from '../db/deliveries';

const USER_AGENT = 'v3hub-hooks/1 (GitLab v3 compatible)';

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64, one per hook. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The headers of one attempt: GitLab's (Content-Type, X-Gitlab-Event, X-Gitlab-Token when the
 * hook has one) and the Standard Webhooks signature over id, timestamp and body.
 */
export function deliveryHeaders(
  hook: HookTarget,
  delivery: DeliveryRow,
  body: string,
  now: Date,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-gitlab-event': delivery.eventName,
    'webhook-id': delivery.webhookId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(hook.signingSecret).sign(delivery.webhookId, now, body),
  };
  if (hook.token) headers['x-gitlab-token'] = hook.token;
  return headers;
}

/** The headers as the delivery log keeps them: the token is a credential and never stored. */
export const loggedHeaders = (headers: Record<string, string>) =>
  'x-gitlab-token' in headers ? { ...headers, 'x-gitlab-token': '[REDACTED]' } : headers;
