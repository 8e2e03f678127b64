import type { Principal } from '@hub/common';

/** What a resolver gets per request: the principal, nothing else (access answers are batched by the service's client). */
export interface MergeRequestsContext {
  principal: Principal;
}

/** A project as the gateway hands it over. */
export interface ProjectRef {
  id: number;
}

/** A user reference the gateway completes from identity. */
export interface UserRef {
  id: number;
}
