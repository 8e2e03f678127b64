import { rmSync } from 'node:fs';
import { freePort, startPostgres } from '@hub/local';
import { tempDir } from './global-setup';

/** Subgraph tests need only Postgres: a server of their own, started once for the run. */
export default async function subgraphSetup(): Promise<void> {
  const dir = tempDir('hub-subgraph-pg-');
  const pg = await startPostgres({ dir, port: await freePort(), log: () => {}, durable: false });
  process.env.HUB_TEST_DATABASE_URL = pg.url;
  (globalThis as { __hubSubgraphPg?: { stop: () => Promise<void>; dir: string } }).__hubSubgraphPg = {
    dir,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
