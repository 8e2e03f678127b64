export * from './processes';
export * from './stack';
export { ensureChromium, freePort, sleep } from './system';
export { startPostgres } from './postgres-server';
export { startRedis } from './redis-server';
export { readPidFile } from './pid-file';
export { backup, restore, placeRepositories, type Manifest, type ShardRoots } from './backup';
