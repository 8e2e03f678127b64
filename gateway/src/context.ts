import type { Principal } from '@hub/common';

export interface GatewayContext {
  principal: Principal;
  /** Signed once per request and reused for every subgraph fetch of its plan. */
  signedPrincipal: string;
  /**
   * Where the answer says it refused credentials (a failed sign-in), for the door's limits to
   * count. An object the door keeps: Apollo copies the context of each operation.
   */
  authentication?: {
    failed: boolean;
    /**
     * Seconds the address (or the login) has spent its failed-authentication budget for; a failed
     * sign-in is then answered 429 with this Retry-After (graphql-limits.ts). Asked for only then.
     */
    overBudgetFor?: () => Promise<number>;
  };
  /**
   * Where the caller stands in its request budget (the RateLimit-* headers the door set), for the
   * answer's `extensions.cost`; absent while no limit applies.
   */
  rateLimit?: () => { limit: number; remaining: number; resetSeconds: number } | null;
}
