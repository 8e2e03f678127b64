import type { Dispatcher } from 'undici';
import { PrincipalCache } from './principal-cache';
import { createPrincipalResolver } from './principal-resolver';

/** An identity that answers every lookup with user 7 once released, counting the lookups. */
function heldIdentity() {
  const lookups: unknown[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const identity = {
    async request(options: { body: string }) {
      lookups.push(JSON.parse(options.body));
      await released;
      return {
        statusCode: 200,
        body: {
          json: async () => ({ user: { id: 7, username: 'ada', isAdmin: false } }),
          dump: async () => {},
        },
      };
    },
  } as unknown as Dispatcher;
  return { identity, lookups, release };
}

describe('createPrincipalResolver', () => {
  it('asks identity once for callers presenting the same credentials at once, and caches the answer', async () => {
    const { identity, lookups, release } = heldIdentity();
    const resolve = createPrincipalResolver({ identity, secret: 's'.repeat(32), cache: new PrincipalCache(60_000) });
    const waiting = Array.from({ length: 20 }, () => resolve({ privateToken: 'token-a' }));
    const other = resolve({ privateToken: 'token-b' });
    release();
    const principals = await Promise.all([...waiting, other]);
    expect(principals.map((p) => p.userId)).toEqual(Array(21).fill(7));
    expect(lookups).toEqual([{ privateToken: 'token-a' }, { privateToken: 'token-b' }]);
    await resolve({ privateToken: 'token-a' });
    expect(lookups).toHaveLength(2);
  });

  it('shares a failed lookup with those who waited for it, and asks again afterwards', async () => {
    let fail = true;
    const lookups: unknown[] = [];
    const identity = {
      async request(options: { body: string }) {
        lookups.push(JSON.parse(options.body));
        if (fail) throw new Error('identity away');
        return {
          statusCode: 200,
          body: { json: async () => ({ user: { id: 7, username: 'ada', isAdmin: false } }), dump: async () => {} },
        };
      },
    } as unknown as Dispatcher;
    const resolve = createPrincipalResolver({ identity, secret: 's'.repeat(32), cache: new PrincipalCache(60_000) });
    const failed = await Promise.allSettled([resolve({ privateToken: 't' }), resolve({ privateToken: 't' })]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(lookups).toHaveLength(1);
    fail = false;
    expect((await resolve({ privateToken: 't' })).userId).toBe(7);
    expect(lookups).toHaveLength(2);
  });
});
