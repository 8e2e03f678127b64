import {
  applicationSettingsLookup,
  createEventReader,
  identityEvents,
  type ApplicationSettings,
  type EventOf,
} from './contracts';
import type { ChangeHandler } from './event-streams';
import { invalid, type DomainError } from './errors';
import type { InternalClient } from './internal-http';
import type { Logger } from './logger';

/**
 * How long a copy serves without an event: GitLab cached its settings row for 60 seconds too. The
 * `settings.updated` event ends a copy at once on every replica; the TTL only bounds how stale a
 * replica that missed the event (Redis down) can be.
 */
export const SETTINGS_CACHE_TTL_MS = 60_000;

/**
 * After a failed refresh the last good copy serves this long before identity is asked again, so
 * an identity that is down (or hangs until the request times out) costs one caller per window,
 * not every caller.
 */
export const SETTINGS_RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * The application settings as identity answers them, one copy per process. Concurrent readers share
 * one request; an answer that was in flight when `invalidate` ran is used by its callers but never
 * kept, so a change is never papered over by a read that started before it.
 *
 * When a refresh fails the last good copy is answered (even one `invalidate` dropped: slightly
 * stale settings beat a failed push or project create); `get` fails only while no copy was ever
 * loaded, and callers that cannot wait decide their own fallback then.
 */
export function createSettingsClient(options: {
  identity: InternalClient;
  ttlMs?: number;
  retryMs?: number;
  now?: () => number;
  logger?: Logger;
}) {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? SETTINGS_CACHE_TTL_MS;
  const retryMs = Math.min(options.retryMs ?? SETTINGS_RETRY_AFTER_FAILURE_MS, ttlMs);
  let cached: { value: ApplicationSettings; expires: number } | null = null;
  let lastGood: ApplicationSettings | null = null;
  let inflight: Promise<ApplicationSettings> | null = null;
  let generation = 0;

  function fetchFresh(): Promise<ApplicationSettings> {
    const started = generation;
    const request = options.identity
      .call(applicationSettingsLookup, {})
      .then(
        ({ settings }) => {
          // An answer older than an `invalidate` is still better than no fallback at all.
          if (started === generation || !lastGood) lastGood = settings;
          if (started === generation && ttlMs > 0) cached = { value: settings, expires: now() + ttlMs };
          return settings;
        },
        (error: unknown) => {
          if (!lastGood) throw error;
          options.logger?.warn({ err: error }, 'application settings unavailable; serving the last copy');
          if (started === generation && retryMs > 0) cached = { value: lastGood, expires: now() + retryMs };
          return lastGood;
        },
      )
      .finally(() => {
        if (inflight === request) inflight = null;
      });
    inflight = request;
    return request;
  }

  return {
    async get(): Promise<ApplicationSettings> {
      if (cached && cached.expires > now()) return cached.value;
      return inflight ?? fetchFresh();
    },

    invalidate(): void {
      cached = null;
      inflight = null;
      generation++;
    },
  };
}

export type SettingsClient = ReturnType<typeof createSettingsClient>;

/** Drops the settings copy whenever identity publishes `settings.updated`, on every replica. */
export function settingsChangeHandler(settings: SettingsClient, logger: Logger): ChangeHandler {
  const read = createEventReader<EventOf<typeof identityEvents>>([identityEvents], logger);
  return {
    services: ['identity'],
    onEvent: (event) => {
      if (event.type === 'settings.updated' && read(event)) settings.invalidate();
    },
  };
}

/** GitLab's Gitlab::VisibilityLevel names, for its refusal message. */
const LEVEL_NAMES: Record<number, string> = { 0: 'Private', 10: 'Internal', 20: 'Public' };

/**
 * GitLab's Gitlab::VisibilityLevel.allowed_for?: admins may use any level, others none of the
 * restricted ones. The refusal is the message BaseService#deny_visibility_level added to the model,
 * which the API answered through render_validation_error! (400, per field).
 */
export function restrictedVisibilityRefusal(
  settings: Pick<ApplicationSettings, 'restrictedVisibilityLevels'>,
  isAdmin: boolean,
  level: number,
): DomainError | null {
  if (isAdmin || !settings.restrictedVisibilityLevels.includes(level)) return null;
  return invalid({
    visibility_level: [
      `${LEVEL_NAMES[level] ?? 'Unknown'} visibility has been restricted by your GitLab administrator`,
    ],
  });
}
