import type { AccessClient, Principal, ProjectAccess } from '@hub/common';
import DataLoader from 'dataloader';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface NotesContext {
  principal: Principal;
  loaders: { access: DataLoader<number, ProjectAccess | null> };
}

/** A merge request as the gateway hands it over, with the project this subgraph @requires. */
export interface MergeRequestRef {
  id: number;
  projectId?: number;
}

export interface UserRef {
  id: number;
}

export const createLoaders = (access: AccessClient, principal: Principal): NotesContext['loaders'] => ({ access: access.loader(principal) });

/** A project as the gateway hands it over. */
export interface ProjectRef {
  id: number;
}
