import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createSql } from '@hub/common';
import { backup, freePort, restore, startPostgres } from '@hub/local';
import { fmtBytes } from '../report';
import type { BenchContext } from './context';

/** Bytes under a folder. */
function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

const seconds = (since: number) => (performance.now() - since) / 1000;

/**
 * `npm run backup` and `npm run restore` on what the scenarios before this one left: the projects
 * scenario's projects, the repository scenario's repository (run after them; alone, it measures
 * an almost empty system). A full backup, an incremental one on it (nothing new: its floor), then
 * a restore onto an empty system: a Postgres of its own, as `npm run restore` starts one, and an
 * empty repositories folder.
 */
export async function benchBackup(ctx: BenchContext): Promise<void> {
  const { stack, report, work, log } = ctx;
  const databaseUrl = stack.env.DATABASE_URL!;
  const set = join(work, 'backups');
  const shards = { default: stack.env.REPOS_ROOT! };
  const quiet = () => {};

  const admin = createSql({ url: databaseUrl, schema: 'public', max: 1 });
  const [{ projects }] = await admin`select count(*)::int as projects from projects.projects`;
  const repositories = readdirSync(shards.default).filter((name) => name.endsWith('.git'));
  const repositoryBytes = sizeOf(shards.default);
  await admin.end();
  log(`  ${projects} projects, ${repositories.length} repositories (${fmtBytes(repositoryBytes)})`);

  const options = { to: set, databaseUrl, redisUrl: stack.env.REDIS_URL!, shards, log: quiet };
  let started = performance.now();
  const full = await backup(options);
  const fullSeconds = seconds(started);
  const fullBytes = sizeOf(join(set, full.id));
  started = performance.now();
  const incremental = await backup(options);
  const incrementalSeconds = seconds(started);
  const incrementalBytes = sizeOf(join(set, incremental.id));

  const pg = await startPostgres({
    dir: join(work, 'restored-postgres'),
    port: await freePort(),
    log: quiet,
    durable: true,
  });
  let restoreSeconds: number;
  try {
    started = performance.now();
    await restore({
      from: set,
      databaseUrl: pg.url,
      shards: { default: join(work, 'restored-repositories') },
      log: quiet,
    });
    restoreSeconds = seconds(started);
  } finally {
    await pg.stop();
  }

  report.record('backup and restore', {
    projects,
    repositories: repositories.length,
    repositoryBytes,
    full: { seconds: fullSeconds, bytes: fullBytes },
    incremental: { seconds: incrementalSeconds, bytes: incrementalBytes },
    restore: { seconds: restoreSeconds },
  });
  report.row({
    order: 15,
    path: '`npm run backup`, then `npm run restore` onto an empty system',
    figure: `full ${fullSeconds.toFixed(1)} s (${fmtBytes(fullBytes)}), incremental with nothing new ${incrementalSeconds.toFixed(1)} s (${fmtBytes(incrementalBytes)}); restore from both ${restoreSeconds.toFixed(1)} s`,
    anchor: `${projects.toLocaleString('en')} projects, ${repositories.length} repositories (${fmtBytes(repositoryBytes)} on disk)`,
    ratio: '—',
    goal: '—',
    verdict: '—',
  });
}
