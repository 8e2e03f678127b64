import { chmodSync, cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createSql } from '@hub/common';
import { freePort, startPostgres } from '@hub/local';
import { tempDir } from '../support/global-setup';

/** Runs one query on a fresh connection (a server restarted between calls needs a new one). */
async function query<T extends Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const sql = createSql({ url, schema: 'public', max: 1 });
  try {
    return (await sql.unsafe(text)) as unknown as T[];
  } finally {
    await sql.end();
  }
}

describe("the launcher's Postgres", () => {
  const cleanups: string[] = [];
  afterAll(() => {
    for (const dir of cleanups) rmSync(dir, { recursive: true, force: true });
  });

  it('starts, durable, for a clone inside a folder no other user can enter, and finds its data again', async () => {
    // As a new user would have it: the clone under a private home (mkdtemp's mode is 700 already).
    const home = mkdtempSync(join(tmpdir(), 'hub-private-home-'));
    chmodSync(home, 0o700);
    cleanups.push(home);
    const dir = join(home, 'clone', '.data', 'postgres');
    mkdirSync(dir, { recursive: true });
    const port = await freePort();
    const first = await startPostgres({ dir, port, log: () => {}, durable: true });
    if (!first.dataDir.startsWith(dir)) cleanups.push(dirname(first.dataDir));
    try {
      const [settings] = await query<{ fsync: string; synchronous_commit: string }>(
        first.url,
        "select current_setting('fsync') as fsync, current_setting('synchronous_commit') as synchronous_commit",
      );
      expect(settings).toEqual({ fsync: 'on', synchronousCommit: 'on' });
      await query(first.url, 'create table kept (id int); insert into kept values (7)');
    } finally {
      await first.stop();
    }
    // As root, Postgres runs as another user, who cannot enter the private home: the data moved.
    if (process.getuid?.() === 0) expect(first.dataDir.startsWith('/var/lib/v3hub/')).toBe(true);
    const second = await startPostgres({ dir, port, log: () => {}, durable: true });
    try {
      expect(second.dataDir).toBe(first.dataDir);
      expect(await query(second.url, 'select id from kept')).toEqual([{ id: 7 }]);
    } finally {
      await second.stop();
    }
    // A copy of the clone (its link too) gets a cluster of its own while the original stands.
    if (first.dataDir !== join(dir, 'data')) {
      cpSync(join(home, 'clone'), join(home, 'copy'), { recursive: true, verbatimSymlinks: true });
      const copy = await startPostgres({
        dir: join(home, 'copy', '.data', 'postgres'),
        port,
        log: () => {},
        durable: true,
      });
      try {
        cleanups.push(dirname(copy.dataDir));
        expect(copy.dataDir).not.toBe(first.dataDir);
        expect(await query(copy.url, "select to_regclass('kept') is null as empty")).toEqual([{ empty: true }]);
      } finally {
        await copy.stop();
      }
      rmSync(join(home, 'copy'), { recursive: true, force: true });
    }
    // A clone moved elsewhere follows the link it left to its data, rather than starting empty.
    renameSync(join(home, 'clone'), join(home, 'moved'));
    const moved = await startPostgres({
      dir: join(home, 'moved', '.data', 'postgres'),
      port,
      log: () => {},
      durable: true,
    });
    try {
      expect(moved.dataDir).toBe(first.dataDir);
      expect(await query(moved.url, 'select id from kept')).toEqual([{ id: 7 }]);
    } finally {
      await moved.stop();
    }
  }, 180_000);

  it('keeps the data where it was asked for when the server can reach it, and can run without fsync for tests', async () => {
    const dir = tempDir('hub-reachable-pg-');
    cleanups.push(dir);
    const pg = await startPostgres({ dir, port: await freePort(), log: () => {}, durable: false });
    try {
      expect(pg.dataDir).toBe(join(dir, 'data'));
      const [settings] = await query<{ fsync: string }>(pg.url, "select current_setting('fsync') as fsync");
      expect(settings).toEqual({ fsync: 'off' });
    } finally {
      await pg.stop();
    }
  }, 120_000);
});
