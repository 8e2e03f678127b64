import { resolve } from 'node:path';
import { createLogger, createSql, loadConfig, migrate } from '@hub/common';
import { SERVICE } from './env';

/** `pnpm --filter @hub/identity migrate`: the same migrations the service runs on start. */
async function run() {
  const config = loadConfig(['DATABASE_URL', 'LOG_LEVEL'] as const);
  const logger = createLogger(`${SERVICE}-migrate`, config.LOG_LEVEL);
  const sql = createSql({ url: config.DATABASE_URL, schema: SERVICE, max: 1 });
  try {
    const applied = await migrate({ sql, schema: SERVICE, dir: resolve(__dirname, '..', 'migrations'), logger });
    logger.info({ applied: applied.length }, 'schema up to date');
  } finally {
    await sql.end();
  }
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
