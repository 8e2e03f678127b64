import { accept } from './commands/accept';
import { create } from './commands/create';
import { createCommandKit, type MergeRequestsDeps } from './commands/kit';
import { update } from './commands/update';

/** Merge requests: their state machine, iids, and merges done by the git worker; one command a file (commands/). */
export function createMergeRequestsService(deps: MergeRequestsDeps) {
  const kit = createCommandKit(deps);
  return { accessOf: kit.accessOf, create: create(kit), update: update(kit), accept: accept(kit) };
}

export type MergeRequestsService = ReturnType<typeof createMergeRequestsService>;
