import { handleOnce, type ProjectFacts, type Sql, type StreamedEvent } from '@hub/common';
import { deleteUserMemberships } from './db/members';
import { applyProjectFacts } from './db/project-facts';

/** The events membership acts on: project facts (the backstop for the direct push) and deleted users. */
export function createEventHandler(sql: Sql) {
  return async (event: StreamedEvent): Promise<void> => {
    if (event.service === 'projects' && event.type.startsWith('project.') && event.payload.facts) {
      // Versioned, so no handleOnce needed: an older or repeated message changes nothing.
      await sql.begin((tx) => applyProjectFacts(tx, event.payload.facts as ProjectFacts));
    } else if (event.service === 'identity' && event.type === 'user.deleted') {
      await handleOnce(sql, event, async (tx) => {
        await deleteUserMemberships(tx, Number(event.payload.user_id));
      });
    }
  };
}
