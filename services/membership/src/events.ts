import { createKnownEventReader, handleOnce, type Logger, type Sql, type StreamedEvent } from '@hub/common';
import { deleteUserGroupMemberships } from './db/groups';
import { deleteUserMemberships } from './db/members';
import type { GroupsService } from './groups-service';
import { applyProjectFacts } from './db/project-facts';

/** The events membership acts on: project and group facts (the backstop for the direct pushes) and deleted users. */
export function createEventHandler(sql: Sql, groups: GroupsService, logger: Logger) {
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
          await deleteUserGroupMemberships(tx, userId);
        });
        break;
      }
      case 'identity:group.created':
      case 'identity:group.updated':
      case 'identity:group.deleted': {
        const group = known.payload;
        // Idempotent: the owner joins once, a tombstone stays a tombstone.
        await groups.applyGroup({
          groupId: group.group_id,
          name: group.name,
          path: group.path,
          deleted: known.key === 'identity:group.deleted',
          ownerId: known.key === 'identity:group.created' ? group.owner_id : null,
        });
        break;
      }
    }
  };
}
