export { ALIVE_TTL_MS, consumerAliveKey } from './liveness';
export { consumeEvents } from './consume';
export { followChanges, followEvents, type ChangeHandler } from './follow';
export { handleOnce } from './handle-once';
