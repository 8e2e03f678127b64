// What other packages use of the gateway: its runtime, for the facade's embedded mode.
export { loadGatewayRuntimeConfig, type GatewayRuntimeConfig } from './env';
export { startGatewayRuntime, type GatewayRuntime } from './gateway-runtime';
