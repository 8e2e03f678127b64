import { Visibility, type ProjectAccess } from './access';
import { accessChangeHandler, createAccessClient } from './access-client';
import { createLogger } from './logger';
import type { StreamedEvent } from './outbox';
import { accessLookup, type RequestOf } from './contracts';
import type { InternalClient } from './internal-http';
import type { Principal } from './principal';

const alice: Principal = { userId: 1, username: 'alice', isAdmin: false, impersonatorId: null };
const bob: Principal = { userId: 2, username: 'bob', isAdmin: false, impersonatorId: null };

function fakeMembership() {
  const calls: Array<RequestOf<typeof accessLookup>> = [];
  const client = {
    call: async (_endpoint: unknown, body: RequestOf<typeof accessLookup>) => {
      // As membership's endpoint does: a request outside its contract is refused.
      calls.push(accessLookup.request.parse(body));
      // Projects 1 to 100 exist.
      const access = body.projectIds.map((projectId): ProjectAccess | null =>
        projectId < 1 || projectId > 100
          ? null
          : {
              projectId,
              visibilityLevel: Visibility.PRIVATE,
              ownerId: 1,
              memberLevel: null,
              groupLevel: null,
              notificationLevel: null,
              archived: false,
              issuesEnabled: true,
              mergeRequestsEnabled: true,
              snippetsEnabled: false,
              wikiEnabled: true,
            },
      );
      return { access };
    },
  } as unknown as InternalClient;
  return { client, calls };
}

describe('access client', () => {
  it('asks once for every project a request touches', async () => {
    const { client, calls } = fakeMembership();
    const access = createAccessClient({ membership: client, ttlMs: 0 });
    const loader = access.loader(alice);
    const [a, b, missing] = await Promise.all([loader.load(1), loader.load(2), loader.load(101)]);
    expect(calls).toEqual([{ userId: 1, projectIds: [1, 2, 101] }]);
    expect([a?.projectId, b?.projectId, missing]).toEqual([1, 2, null]);
  });

  it('gives one request one loader, so its context and its services batch together', async () => {
    const { client, calls } = fakeMembership();
    const access = createAccessClient({ membership: client, ttlMs: 0 });
    const request = { ...alice };
    expect(access.loader(request)).toBe(access.loader(request));
    expect(access.loader({ ...alice })).not.toBe(access.loader(request));
    await Promise.all([access.loader(request).load(1), access.loader(request).load(2)]);
    expect(calls).toEqual([{ userId: 1, projectIds: [1, 2] }]);
    // Nothing is memoized beyond the TTL cache: a later question is asked again.
    await access.loader(request).load(1);
    expect(calls).toHaveLength(2);
  });

  it('asks about ids no project can have (0, negative) like any other, and membership finds none', async () => {
    const { client, calls } = fakeMembership();
    const access = createAccessClient({ membership: client, ttlMs: 0 });
    const loader = access.loader({ ...alice });
    expect(await Promise.all([loader.load(0), loader.load(-5), loader.load(1)])).toEqual([
      null,
      null,
      expect.objectContaining({ projectId: 1 }),
    ]);
    expect(calls).toEqual([{ userId: 1, projectIds: [0, -5, 1] }]);
  });

  it('reuses answers across requests until they expire, per user', async () => {
    let clock = 0;
    const { client, calls } = fakeMembership();
    const access = createAccessClient({ membership: client, ttlMs: 1000, now: () => clock });
    await access.loader(alice).load(1);
    await access.loader(alice).load(1);
    await access.loader(bob).load(1);
    expect(calls.map((c) => c.userId)).toEqual([1, 2]);
    clock = 1001;
    await access.loader(alice).load(1);
    expect(calls).toHaveLength(3);
  });

  it('forgets a project when told it changed', async () => {
    const { client, calls } = fakeMembership();
    const access = createAccessClient({ membership: client, ttlMs: 60_000 });
    await access.loader(alice).load(1);
    await access.loader(alice).load(2);
    access.invalidateProject(1);
    await access.loader(alice).load(1);
    await access.loader(alice).load(2);
    expect(calls.map((c) => c.projectIds)).toEqual([[1], [2], [1]]);
  });

  it('forgets a project for a change projects publishes, not for an entry of its feed', async () => {
    const { client, calls } = fakeMembership();
    const access = createAccessClient({ membership: client, ttlMs: 60_000 });
    const handler = accessChangeHandler(access, createLogger('test', 'silent'));
    const published = (type: string, payload: Record<string, unknown>): StreamedEvent => ({
      id: '1',
      streamId: '1-0',
      service: 'projects',
      type,
      payload: { v: 1, project_id: 1, actor_id: 1, actor_username: 'alice', ...payload },
      occurredAt: new Date().toISOString(),
    });
    await access.loader(alice).load(1);
    handler.onEvent(
      published('project_event.created', { event_id: 5, action_name: 'pushed to', target_type: null, target_id: null }),
    );
    await access.loader(alice).load(1);
    expect(calls).toHaveLength(1);
    const facts = {
      projectId: 1,
      ownerId: 1,
      visibilityLevel: 0,
      archived: true,
      issuesEnabled: true,
      mergeRequestsEnabled: true,
      snippetsEnabled: false,
      wikiEnabled: true,
      version: 2,
      deleted: false,
    };
    handler.onEvent(
      published('project.updated', { name: 'p', path: 'p', path_with_namespace: 'a/p', namespace_id: 1, facts }),
    );
    await access.loader(alice).load(1);
    expect(calls).toHaveLength(2);
  });
});
