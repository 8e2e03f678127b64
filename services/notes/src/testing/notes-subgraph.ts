import { resolve } from 'node:path';
import { createAccessClient, createCursors, type InternalClient } from '@hub/common';
import { testSubgraph, unusedClient, usersLookupStandIn } from '@hub/common/testing';
import { createLoaders, type NotesContext } from '../context';
import { createNotesService } from '../notes-service';
import { createResolvers } from '../resolvers';

/**
 * The notes subgraph for a test file (see testSubgraph: `start` in beforeAll, `stop` in afterAll),
 * with the other services as the file's stand-ins: identity names every user asked for, and the
 * merge requests and repository services are never asked unless given.
 */
export function notesTestSubgraph(clients: {
  membership: InternalClient;
  identity?: InternalClient;
  mergeRequests?: InternalClient;
  repository?: InternalClient;
}) {
  return testSubgraph<NotesContext>({
    service: 'notes',
    srcDir: resolve(__dirname, '..'),
    build: (sql) => {
      const access = createAccessClient({ membership: clients.membership, ttlMs: 0 });
      const notes = createNotesService({
        sql,
        access,
        identity: clients.identity ?? usersLookupStandIn,
        mergeRequests: clients.mergeRequests ?? unusedClient,
        repository: clients.repository ?? unusedClient,
      });
      return {
        resolvers: createResolvers({ sql, notes, cursors: createCursors('a-secret-for-tests-only-0123456789') }),
        createContext: (principal) => ({ principal, loaders: createLoaders(sql, access, principal) }),
      };
    },
  });
}
