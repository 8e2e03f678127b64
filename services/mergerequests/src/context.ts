import type { Principal } from '@hub/common';

/** What a resolver gets per request: the principal, nothing else (access answers are batched by the service's client). */
export interface MergeRequestsContext {
  principal: Principal;
}

/** A project as the gateway hands it over (its `databaseId` key, kept here as `id`). */
export interface ProjectRef {
  id: number;
}

/** A user reference the gateway completes from identity; the schema shows `id` as `databaseId`. */
export interface UserRef {
  id: number;
}

/** A milestone reference the gateway completes from notes; the schema shows `id` as `databaseId`. */
export interface MilestoneRef {
  id: number;
}
