import type { AccessClient, Principal, ProjectAccess, Sql } from '@hub/common';
import DataLoader from 'dataloader';
import { developerPushableBranchNames, protectedBranchNames } from './db/protected-branches';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface RepositoryContext {
  principal: Principal;
  loaders: ReturnType<typeof createLoaders>;
}

/** A project as the gateway hands it over, with the default branch this subgraph @requires. */
export interface ProjectRef {
  id: number;
  defaultBranch?: string;
}

/** A repository the viewer may read. */
export interface RepositoryRef {
  projectId: number;
  defaultBranch: string;
}

export function createLoaders(sql: Sql, access: AccessClient, principal: Principal) {
  return {
    access: access.loader(principal) as DataLoader<number, ProjectAccess | null>,
    protectedBranches: new DataLoader<number, string[]>(async (ids) => {
      const byProject = await protectedBranchNames(sql, ids);
      return ids.map((id) => byProject.get(id) ?? []);
    }),
    developersCanPush: new DataLoader<number, string[]>(async (ids) => {
      const byProject = await developerPushableBranchNames(sql, ids);
      return ids.map((id) => byProject.get(id) ?? []);
    }),
  };
}
