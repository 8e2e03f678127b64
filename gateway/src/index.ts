// What other packages use of the gateway: its runtime, for the facade's embedded mode, the rate
// limits every front door applies, and the API schema the facade describes its answers from.
export { ABUSE_LIMIT_VARIABLES, loadGatewayRuntimeConfig, type GatewayRuntimeConfig } from './env';
export {
  createAbuseLimits,
  credentialKey,
  failureBudgetWait,
  failureBudgetWaitNow,
  refundRequest,
  type AbuseLimits,
} from './abuse-limits';
export { startGatewayRuntime, type Contract, type GatewayRuntime } from './gateway-runtime';
export { readApiSchemaSdl } from './api-schema';
