import type { AccessClient, Principal, ProjectAccess, Sql } from '@hub/common';
import DataLoader from 'dataloader';
import type { BranchProtection } from './branch-push-rules';
import { branchProtections, UNPROTECTED } from './db/protected-branches';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface RepositoryContext {
  principal: Principal;
  loaders: ReturnType<typeof createLoaders>;
}

/**
 * A project as the gateway hands it over (its `databaseId` key, kept here as `id`), with the
 * default branch this subgraph @requires.
 */
export interface ProjectRef {
  id: number;
  defaultBranch?: string;
}

/** A repository the viewer may read. */
export interface RepositoryRef {
  projectId: number;
  defaultBranch: string;
}

/** A repository the viewer may read, reached by project id: its default branch is not known here. */
export interface RepositoryReadsRef {
  projectId: number;
}

export function createLoaders(sql: Sql, access: AccessClient, principal: Principal) {
  return {
    access: access.loader(principal) as DataLoader<number, ProjectAccess | null>,
    /** A project's protected branches and developers_can_push ones, one query for every project a request asks about. */
    branchProtection: new DataLoader<number, BranchProtection>(async (ids) => {
      const byProject = await branchProtections(sql, ids);
      return ids.map((id) => byProject.get(id) ?? UNPROTECTED);
    }),
  };
}
