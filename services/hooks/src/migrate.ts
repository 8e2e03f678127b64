import { resolve } from 'node:path';
import { runMigrations } from '@hub/common';
import { SERVICE } from './env';

/** `pnpm --filter @hub/hooks migrate`: the same migrations the service runs on start. */
runMigrations(SERVICE, resolve(__dirname, '..', 'migrations'));
