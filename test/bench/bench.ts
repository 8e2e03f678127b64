// npm run bench [-- --quick | --duration s | --connections n | --rounds n | ...]: every read path
// of issue 14 against its anchor (a plain Node server with the same bytes, the git CLI, cgit and
// git http-backend under lighttpd), and the subscriptions of issue 33 (1,000 open, 100 events/s),
// in one run on one stack, with each stack process's memory and CPU sampled; writes
// bench/RESULTS.md and bench/results.json. See options.ts for the options.
import { mkdtempSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_TABLE } from '@hub/common';
import { readPidFile, REPO_ROOT, startStack, type Stack } from '@hub/local';
import { CounterReader } from './counters';
import { closeProbes } from './measure';
import { commandLine, parseOptions, type SCENARIOS } from './options';
import { fmtBytes, loadAverage, machineInfo, Report, verdict } from './report';
import { Runner } from './runner';
import { ProcessSampler, type ProcessRoot } from './sampler';
import { benchBackup } from './scenarios/backup';
import { benchHooks } from './scenarios/hooks';
import { benchHugeKeys } from './scenarios/huge-keys';
import { benchLargeArchive } from './scenarios/large-archive';
import { benchProjects } from './scenarios/projects';
import { benchRepository } from './scenarios/repository';
import { benchSubscriptions } from './scenarios/subscriptions';
import type { BenchContext } from './scenarios/context';
import { benchApi, createBenchUser } from './seed/api';

const GIB = 1024 * 1024 * 1024;
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Every process of the stack (Postgres and Redis as well) and any anchor server started since. */
function processRoots(stack: Stack, dir: string, extra: ProcessRoot[]): () => ProcessRoot[] {
  return () => {
    const roots: ProcessRoot[] = stack.processes
      .filter((p) => p.child.pid && p.child.exitCode === null)
      .map((p) => ({ name: p.name, pid: p.child.pid! }));
    const postgres = readPidFile(join(dir, 'postgres', 'data', 'postmaster.pid'));
    const redis = readPidFile(join(dir, 'redis', 'redis.pid'));
    if (postgres) roots.push({ name: 'postgres', pid: postgres });
    if (redis) roots.push({ name: 'redis', pid: redis });
    // This process too: autocannon's share of the CPU, and the git CLI anchors it spawns.
    return [...roots, ...extra, { name: 'bench', pid: process.pid }];
  };
}

/** Resident memory of the services (Node processes with their children) once start-up has settled. */
async function idleMemory(
  stack: Stack,
  sampler: ProcessSampler,
  report: Report,
  settleSeconds: number,
  label: string,
  order: number | null,
) {
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const now = sampler.now();
  const services = new Set(stack.processes.map((p) => p.name));
  let total = 0;
  const parts: string[] = [];
  for (const [name, s] of now) {
    if (services.has(name)) total += s.treeRss;
    parts.push(`${name} ${fmtBytes(s.treeRss)}`);
  }
  report.record(label, Object.fromEntries(now));
  if (order === null) {
    report.note(`${label}: services ${fmtBytes(total)} (${parts.join(', ')})`);
    return;
  }
  report.row({
    order,
    path: 'all service processes, idle',
    figure: `${fmtBytes(total)} RSS (${stack.processes.length} Node processes with children)`,
    anchor: `beside them: ${parts.filter((p) => p.startsWith('postgres') || p.startsWith('redis')).join(', ')}`,
    ratio: '—',
    goal: '≤ 1.2 GiB',
    verdict: verdict(total <= 1.2 * GIB),
  });
  report.note(`${label}, per process: ${parts.join(', ')}`);
}

async function main() {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  const began = performance.now();
  const startedAt = new Date().toISOString();
  const loadStart = loadAverage();
  const dir = mkdtempSync(join(tmpdir(), 'hub-bench-'));
  chmodSync(dir, 0o755);
  const env = { ...process.env };
  for (const name of Object.keys(CONFIG_TABLE)) delete env[name];
  env.LOG_LEVEL = 'warn';
  // The bench is one client at thousands of requests a second: the rate limits would measure themselves.
  env.RATE_LIMIT_PER_USER = '0';
  env.RATE_LIMIT_PER_IP = '0';
  log(`starting a stack in ${dir} ...`);
  const stack = await startStack({ dataDir: dir, env, freePorts: true, logs: { kind: 'files', dir }, log: () => {} });
  const extra: ProcessRoot[] = [];
  // Interrupted (Ctrl-C, a CI timeout): stop the anchor servers (a signal to this process alone
  // does not reach its children) and the stack, and remove the data before going.
  const interrupted = (signal: NodeJS.Signals) => {
    log(`\n${signal}: stopping the anchors and the stack`);
    for (const { pid } of extra) {
      try {
        // Only while it is still our child (an anchor already stopped may have had its pid reused).
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    void stack.stop().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  const report = new Report();
  // The topology measured is the one infra/k8s and compose deploy (manifests.test.ts holds them to it).
  report.note(
    `topology: GATEWAY_MODE=${stack.env.GATEWAY_MODE} (the facade runs the gateway in-process, as the Kubernetes manifests and compose run it)`,
  );
  let failed = false;
  const counters = new CounterReader(stack.env.DATABASE_URL!, stack.env.REDIS_URL!);
  try {
    const sampler = new ProcessSampler(processRoots(stack, dir, extra), counters);
    const runner = new Runner(options, sampler, report);
    await idleMemory(stack, sampler, report, options.quick ? 5 : 10, 'idle RSS after start-up', 13);
    const root = benchApi(stack.restUrl, stack.rootToken, 'root');
    const user = await createBenchUser(root, 'bench');
    const ctx: BenchContext = {
      stack,
      user,
      newUser: (username) => createBenchUser(root, username),
      runner,
      report,
      work: dir,
      sample: (name, pid) => extra.push({ name, pid }),
      processes: () => sampler.now(),
      log,
    };
    log(
      `${options.connections} connections, ${options.rounds} round(s) of ${options.duration} s per target (medians), after a 2 s warm-up each; one-at-a-time for ${options.serialSeconds} s per round`,
    );
    const scenarios: Array<[(typeof SCENARIOS)[number], () => Promise<void>]> = [
      ['projects', () => benchProjects(ctx)],
      [
        'repository',
        () =>
          benchRepository(ctx, { commits: options.commits, headMiB: options.headMiB, historyMiB: options.historyMiB }),
      ],
      // After the projects and the repository, before the 1 GiB tree: the dataset backups are timed on.
      ['backup', () => benchBackup(ctx)],
      ['large-archive', () => benchLargeArchive(ctx, { mib: options.archiveMiB })],
      ['webhooks', () => benchHooks(ctx)],
      ['subscriptions', () => benchSubscriptions(ctx)],
      ['huge-keys', () => benchHugeKeys(ctx)],
    ];
    for (const [name, run] of scenarios) {
      if (options.only.length && !options.only.includes(name)) continue;
      log(`\n== ${name}`);
      try {
        await run();
      } catch (error) {
        failed = true;
        console.error(error);
        report.note(`the ${name} scenario failed: ${(error as Error).message.split('\n')[0].slice(0, 500)}`);
      }
    }
    await idleMemory(stack, sampler, report, 5, 'idle RSS after the run', null);
  } finally {
    await closeProbes().catch(() => {});
    await counters.close().catch(() => {});
    await stack.stop();
    // KEEP_BENCH_DATA=1 keeps the stack's logs and data to read after a failed scenario.
    if (process.env.KEEP_BENCH_DATA) console.log(`kept the stack's logs and data in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const info = {
    command: commandLine(argv),
    date: startedAt,
    ...machineInfo(),
    quick: options.quick,
    durationSeconds: (performance.now() - began) / 1000,
    loadStart,
    loadEnd: loadAverage(),
  };
  report.write(join(REPO_ROOT, 'bench'), info);
  log(
    `\n${report.table()}\n\n${report.processTable()}\n\nwrote bench/RESULTS.md and bench/results.json (${Math.round(info.durationSeconds)} s)`,
  );
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
