import { createKnownEventReader, type Logger, type StreamedEvent } from '@hub/common';
import type { KeysService } from './keys-service';

/** The services whose events identity acts on. */
export const CONSUMED_SERVICES = ['projects'];

/**
 * What identity does about other services' events: a deleted project loses its deploy keys (and
 * keys no other project has go), as GitLab's dependent destroy did. Repeating it changes nothing.
 */
export function createEventHandler(deps: { keys: KeysService; logger: Logger }) {
  const read = createKnownEventReader(deps.logger);
  return async (event: StreamedEvent): Promise<void> => {
    const known = read(event);
    if (known?.key === 'projects:project.deleted') await deps.keys.projectDeleted(known.payload.project_id);
  };
}
