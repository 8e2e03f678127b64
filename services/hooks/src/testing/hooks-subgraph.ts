import { resolve } from 'node:path';
import { createAccessClient, createCursors, type InternalClient } from '@hub/common';
import { testSubgraph } from '@hub/common/testing';
import { createLoaders, type HooksContext } from '../context';
import type { DeliveryQueue } from '../delivery/queue';
import { createHooksService } from '../hooks-service';
import { createResolvers } from '../resolvers';
import { createSystemHooksService } from '../system-hooks-service';

/**
 * The hooks subgraph for a test file that only reads (see testSubgraph: `start` in beforeAll,
 * `stop` in afterAll): reading delivers nothing, so the delivery queue is never called.
 */
export function readingHooksSubgraph(membership: InternalClient) {
  return testSubgraph<HooksContext>({
    service: 'hooks',
    srcDir: resolve(__dirname, '..'),
    build: (sql) => {
      const access = createAccessClient({ membership, ttlMs: 0 });
      const queue = {} as DeliveryQueue;
      return {
        resolvers: createResolvers({
          sql,
          hooks: createHooksService({ sql, access, queue, allowLocal: true }),
          systemHooks: createSystemHooksService({ sql, queue, allowLocal: true }),
          cursors: createCursors('a-secret-for-tests-only-0123456789'),
        }),
        createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
      };
    },
  });
}
