import type { ApplicationSettings } from './contracts';
import type { InternalClient } from './internal-http';
import type { Logger } from './logger';
import type { StreamedEvent } from './outbox';
import { createSettingsClient, restrictedVisibilityRefusal, settingsChangeHandler } from './settings-client';

const defaults: ApplicationSettings = {
  defaultBranchProtection: 2,
  restrictedVisibilityLevels: [],
  defaultProjectVisibility: 0,
};

/** An identity whose answers the test releases one by one, counting the calls. */
function fakeIdentity() {
  let current = defaults;
  let down = false;
  const pending: Array<() => void> = [];
  let calls = 0;
  const client = {
    call: () => {
      calls++;
      const answer = { settings: current };
      const failing = down;
      return new Promise((resolve, reject) =>
        pending.push(() => (failing ? reject(new Error('identity is down')) : resolve(answer))),
      );
    },
  } as unknown as InternalClient;
  return {
    client,
    set: (next: Partial<ApplicationSettings>) => (current = { ...current, ...next }),
    /** Calls made from now on fail (true) or answer (false). */
    down: (value: boolean) => (down = value),
    release: () => pending.splice(0).forEach((resolve) => resolve()),
    calls: () => calls,
  };
}

describe('settings client', () => {
  it('asks identity once for concurrent readers and serves the copy until the TTL', async () => {
    const identity = fakeIdentity();
    let clock = 0;
    const settings = createSettingsClient({ identity: identity.client, ttlMs: 1000, now: () => clock });
    const reads = Promise.all([settings.get(), settings.get()]);
    identity.release();
    expect((await reads).map((s) => s.defaultBranchProtection)).toEqual([2, 2]);
    expect(identity.calls()).toBe(1);
    clock = 999;
    await settings.get();
    expect(identity.calls()).toBe(1);
    clock = 1000;
    const expired = settings.get();
    identity.release();
    await expired;
    expect(identity.calls()).toBe(2);
  });

  it('asks again after invalidate, and never keeps an answer that was in flight when it ran', async () => {
    const identity = fakeIdentity();
    const settings = createSettingsClient({ identity: identity.client, ttlMs: 60_000 });
    const stale = settings.get();
    identity.set({ defaultProjectVisibility: 10 });
    settings.invalidate();
    identity.release();
    await stale;
    const fresh = settings.get();
    identity.release();
    expect((await fresh).defaultProjectVisibility).toBe(10);
    expect(identity.calls()).toBe(2);
  });
});

describe('settings client when identity fails', () => {
  it('fails while it never had a copy, and recovers once identity answers', async () => {
    const identity = fakeIdentity();
    const settings = createSettingsClient({ identity: identity.client, ttlMs: 60_000, retryMs: 1000 });
    identity.down(true);
    const failed = settings.get();
    identity.release();
    await expect(failed).rejects.toThrow('identity is down');
    identity.down(false);
    const next = settings.get();
    identity.release();
    expect((await next).defaultBranchProtection).toBe(2);
    expect(identity.calls()).toBe(2);
  });

  it('answers the last good copy when a refresh after the TTL fails, and asks again only after retryMs', async () => {
    const identity = fakeIdentity();
    let clock = 0;
    const settings = createSettingsClient({ identity: identity.client, ttlMs: 1000, retryMs: 100, now: () => clock });
    identity.set({ defaultBranchProtection: 1 });
    const first = settings.get();
    identity.release();
    expect((await first).defaultBranchProtection).toBe(1);

    clock = 1000;
    identity.down(true);
    identity.set({ defaultBranchProtection: 0 });
    const stale = settings.get();
    identity.release();
    expect((await stale).defaultBranchProtection).toBe(1);
    expect(identity.calls()).toBe(2);
    // Within the retry window nobody waits on identity again.
    clock = 1099;
    expect((await settings.get()).defaultBranchProtection).toBe(1);
    expect(identity.calls()).toBe(2);

    clock = 1100;
    identity.down(false);
    const fresh = settings.get();
    identity.release();
    expect((await fresh).defaultBranchProtection).toBe(0);
    expect(identity.calls()).toBe(3);
  });

  it('answers the last good copy after invalidate when identity cannot be reached', async () => {
    const identity = fakeIdentity();
    const settings = createSettingsClient({ identity: identity.client, ttlMs: 60_000 });
    identity.set({ restrictedVisibilityLevels: [20] });
    const first = settings.get();
    identity.release();
    await first;
    settings.invalidate();
    identity.down(true);
    const read = settings.get();
    identity.release();
    expect((await read).restrictedVisibilityLevels).toEqual([20]);
    expect(identity.calls()).toBe(2);
  });
});

describe('settingsChangeHandler', () => {
  const logger = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;
  const event = (type: string, payload: Record<string, unknown>): StreamedEvent => ({
    id: '1',
    streamId: '1-0',
    service: 'identity',
    occurredAt: '',
    type,
    payload,
  });

  it('follows identity and drops the copy on settings.updated, not on other identity events', async () => {
    const identity = fakeIdentity();
    const settings = createSettingsClient({ identity: identity.client, ttlMs: 60_000 });
    const handler = settingsChangeHandler(settings, logger);
    expect(handler.services).toEqual(['identity']);
    const first = settings.get();
    identity.release();
    await first;
    handler.onEvent(event('user.created', { user_id: 5 }));
    await settings.get();
    expect(identity.calls()).toBe(1);
    handler.onEvent(
      event('settings.updated', { actor_id: 1, actor_username: 'root', updated_at: '2026-01-01T00:00:00Z' }),
    );
    const next = settings.get();
    identity.release();
    await next;
    expect(identity.calls()).toBe(2);
  });
});

describe('restricted visibility', () => {
  const restricted = { restrictedVisibilityLevels: [20] };
  it.each([
    ['a user, a restricted level', false, 20, 'Public visibility has been restricted by your GitLab administrator'],
    ['a user, an open level', false, 10, null],
    ['an admin, a restricted level', true, 20, null],
  ])('%s', (_case, isAdmin, level, message) => {
    const refusal = restrictedVisibilityRefusal(restricted, isAdmin, level);
    expect(refusal ? (refusal.extensions.fields as Record<string, string[]>).visibility_level : null).toEqual(
      message === null ? null : [message],
    );
    if (refusal) expect(refusal.extensions.code).toBe('VALIDATION');
  });
});
