import type { Logger } from './logger';
import { eventStream } from './outbox';
import type { Redis } from './redis';
import { followChanges, type ChangeHandler } from './event-streams';

const logger = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;
const entry = (id: string, type: string, payload: unknown) => [
  id,
  ['outbox_id', id, 'type', type, 'payload', JSON.stringify(payload), 'occurred_at', '2026-01-01T00:00:00Z'],
];

/** A Redis whose first XREAD answers `reply`, later ones nothing (after a moment, as BLOCK would). */
function fakeRedis(reply: unknown) {
  const reads: unknown[][] = [];
  const redis = {
    xread: async (...args: unknown[]) => {
      reads.push(args);
      if (reads.length === 1) return reply;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return null;
    },
    disconnect: () => {},
  } as unknown as Redis;
  return { redis, reads };
}

describe('followChanges', () => {
  it('reads every handler’s streams on one connection and gives each handler only its own services’ events', async () => {
    const { redis, reads } = fakeRedis([
      [eventStream('projects'), [entry('1-0', 'project.updated', { project_id: 7 })]],
      [eventStream('identity'), [entry('2-0', 'settings.updated', {})]],
    ]);
    const seen: Record<string, string[]> = { access: [], settings: [] };
    const handler = (name: string, services: string[]): ChangeHandler => ({
      services,
      onEvent: (event) => seen[name].push(`${event.service}:${event.type}`),
    });
    const follower = followChanges({
      redis,
      logger,
      handlers: [handler('access', ['membership', 'projects']), handler('settings', ['identity'])],
    });
    while (reads.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    await follower.stop();

    expect(reads[0].slice(0, 6)).toEqual([
      'BLOCK',
      2000,
      'STREAMS',
      eventStream('membership'),
      eventStream('projects'),
      eventStream('identity'),
    ]);
    // The next read continues after what was seen, stream by stream.
    expect(reads[1].slice(6)).toEqual(['$', '1-0', '2-0']);
    expect(seen).toEqual({ access: ['projects:project.updated'], settings: ['identity:settings.updated'] });
  });
});
