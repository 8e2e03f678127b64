// What other packages use of the gateway: its runtime, for the facade's embedded mode, and the
// rate limits every front door applies.
export { ABUSE_LIMIT_VARIABLES, loadGatewayRuntimeConfig, type GatewayRuntimeConfig } from './env';
export { createAbuseLimits, credentialKey, failureBudgetWait, refundRequest, type AbuseLimits } from './abuse-limits';
export { startGatewayRuntime, type GatewayRuntime } from './gateway-runtime';
