import { create } from './commands/create';
import { createForkRelation, deleteForkRelation, fork } from './commands/fork';
import { createCommandKit, type ProjectsDeps } from './commands/kit';
import { namespacesByIds, refreshOwner } from './commands/namespace-copies';
import { remove, removeInNamespace, removeOwnedBy } from './commands/remove';
import { transfer } from './commands/transfer';
import { update } from './commands/update';

/**
 * Everything projects does to its data, one command a file (commands/); each change records its
 * event and tells membership.
 */
export function createProjectsService(deps: ProjectsDeps) {
  const kit = createCommandKit(deps);
  return {
    findProject: kit.findProject,
    namespacesByIds: namespacesByIds(kit),
    refreshOwner: refreshOwner(kit),
    create: create(kit),
    update: update(kit),
    remove: remove(kit),
    transfer: transfer(kit),
    removeInNamespace: removeInNamespace(kit),
    removeOwnedBy: removeOwnedBy(kit),
    fork: fork(kit),
    createForkRelation: createForkRelation(kit),
    deleteForkRelation: deleteForkRelation(kit),
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
