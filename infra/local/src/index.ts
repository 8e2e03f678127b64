export * from './processes';
export * from './stack';
export { freePort, sleep } from './system';
export { startPostgres } from './postgres-server';
export { startRedis } from './redis-server';
export { readPidFile } from './pid-file';
