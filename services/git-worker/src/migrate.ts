import { resolve } from 'node:path';
import { runMigrations } from '@hub/common';
import { SERVICE } from './env';

/** `pnpm --filter @hub/git-worker migrate`: the same migrations the worker runs on start. */
runMigrations(SERVICE, resolve(__dirname, '..', 'migrations'));
