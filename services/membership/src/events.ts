import { createKnownEventReader, handleOnce, type Logger, type Sql, type StreamedEvent } from '@hub/common';
import { deleteUserMemberships } from './db/members';
import { applyProjectFacts } from './db/project-facts';

/** The events membership acts on: project facts (the backstop for the direct push) and deleted users. */
export function createEventHandler(sql: Sql, logger: Logger) {
  const read = createKnownEventReader(logger);
  return async (event: StreamedEvent): Promise<void> => {
    const known = read(event);
    switch (known?.key) {
      case 'projects:project.created':
      case 'projects:project.updated':
      case 'projects:project.deleted': {
        const { facts } = known.payload;
        // Versioned, so no handleOnce needed: an older or repeated message changes nothing.
        await sql.begin((tx) => applyProjectFacts(tx, facts));
        break;
      }
      case 'identity:user.deleted': {
        const userId = known.payload.user_id;
        await handleOnce(sql, event, async (tx) => {
          await deleteUserMemberships(tx, userId);
        });
        break;
      }
    }
  };
}
