import type { Principal, ProjectAccess } from '@hub/common';
import DataLoader from 'dataloader';
import type { MembershipService } from './membership-service';

/** What a resolver gets per request: the principal and batched loaders, nothing else. */
export interface MembershipContext {
  principal: Principal;
  loaders: ReturnType<typeof createLoaders>;
}

/** Membership owns the access facts, so it reads them directly (no cache needed), batched per request. */
export function createLoaders(membership: MembershipService, principal: Principal) {
  return {
    access: new DataLoader<number, ProjectAccess | null>(async (ids) => {
      const found = await membership.accessFor(principal.userId, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}

/** A user as this subgraph hands it to the gateway, which completes it from identity (by databaseId). */
export interface UserRef {
  id: number;
}

/** A project as this subgraph knows it: the key the gateway hands over. */
export interface ProjectRef {
  id: number;
}

/** A group as this subgraph knows it: the key the gateway hands over. */
export interface GroupRef {
  id: number;
}
