// What other packages use of the gateway: its runtime, for the facade's embedded mode.
export { startGatewayRuntime, type GatewayRuntime, type GatewayRuntimeConfig } from './gateway-runtime';
