export * from './types';
export * from './load';
export * from './client';
export * from './errors';
export * from './shards';
export * from './bytes-serializer';
