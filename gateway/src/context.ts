import type { Principal } from '@hub/common';

export interface GatewayContext {
  principal: Principal;
  /** Signed once per request and reused for every subgraph fetch of its plan. */
  signedPrincipal: string;
}
