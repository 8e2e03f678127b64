import type { Logger } from '../logger';
import { createEventReader, type EventOf } from './define';
import { gitWorkerEvents } from './git-worker';
import { hooksEvents } from './hooks';
import { identityEvents } from './identity';
import { membershipEvents } from './membership';
import { mergeRequestsEvents } from './mergerequests';
import { notesEvents } from './notes';
import { projectsEvents } from './projects';
import { repositoryEvents } from './repository';

/**
 * Each producer's contract lives in its own module here, owned by that service (the way each
 * subgraph owns its SDL). They sit in common, not in the services' packages, because producers
 * consume each other's events both ways (projects ↔ notes), and packages must not form cycles.
 */
export * from './define';
export * from './git-worker';
export * from './hooks';
export * from './identity';
export * from './membership';
export * from './mergerequests';
export * from './notes';
export * from './projects';
export * from './repository';

const CONTRACTS = [
  identityEvents,
  projectsEvents,
  membershipEvents,
  gitWorkerEvents,
  mergeRequestsEvents,
  notesEvents,
  repositoryEvents,
  hooksEvents,
];

/** Every event the system emits, as a consumer reads it: a union discriminated by `key`. */
export type KnownEvent =
  | EventOf<typeof identityEvents>
  | EventOf<typeof projectsEvents>
  | EventOf<typeof membershipEvents>
  | EventOf<typeof gitWorkerEvents>
  | EventOf<typeof mergeRequestsEvents>
  | EventOf<typeof notesEvents>
  | EventOf<typeof repositoryEvents>
  | EventOf<typeof hooksEvents>;

/** Reads stream entries against every producer's contract (see createEventReader). */
export const createKnownEventReader = (logger: Logger) => createEventReader<KnownEvent>(CONTRACTS, logger);
