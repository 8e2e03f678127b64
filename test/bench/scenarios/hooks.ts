import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { benchApi } from '../seed/api';
import { PUSHES_LABEL, WRITES_LABEL } from '../labels';
import { fmtMs } from '../report';
import { percentile } from '../stats';
import type { BenchContext } from './context';

/** A plain receiver in this process: records when each delivery arrived, under its path. */
async function startReceiver() {
  const arrivals = new Map<string, number[]>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const list = arrivals.get(req.url!) ?? [];
      list.push(performance.now());
      arrivals.set(req.url!, list);
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const count = (path: string) => arrivals.get(path)?.length ?? 0;
  return {
    url: (path: string) => base + path,
    arrivals: (path: string) => arrivals.get(path) ?? [],
    async waitFor(path: string, n: number, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (count(path) < n) {
        if (Date.now() > deadline) throw new Error(`${path}: ${count(path)} of ${n} deliveries after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Webhooks: how fast a backlog drains (deliveries/s: events queued while the hook worker was
 * stopped, then fanned out to `hooks` hooks each and sent), and push → delivery latency (from the
 * moment `git push` returns to the Push Hook's arrival, sequential pushes).
 */
export async function benchHooks(ctx: BenchContext): Promise<void> {
  const { stack, report } = ctx;
  const root = benchApi(stack.restUrl, stack.rootToken, 'root');
  const receiver = await startReceiver();
  const quick = ctx.runner.options.quick;
  try {
    const hooks = 20;
    const events = quick ? 50 : 150;
    const project = await root.post<{ id: number }>('/projects', { name: 'bench-hooks' });
    for (let i = 0; i < hooks; i++)
      await root.post(`/projects/${project.id}/hooks`, {
        url: receiver.url('/burst'),
        issues_events: true,
        push_events: false,
      });
    await stack.stopProcess('hooks-worker');
    // Sampled for the capacity model: what one write and its event cost Postgres and Redis.
    await ctx.runner.timed(WRITES_LABEL, async () => {
      for (let i = 0; i < events; i++) await root.post(`/projects/${project.id}/issues`, { title: `bench ${i}` });
    });
    await stack.restart('hooks-worker');
    const { ms } = await ctx.runner.timed('webhooks drain', () => receiver.waitFor('/burst', hooks * events, 120_000));
    const rate = (hooks * events) / (ms / 1000);

    const pushed = await root.post<{ id: number; path_with_namespace: string }>('/projects', {
      name: 'bench-push-latency',
    });
    await root.post(`/projects/${pushed.id}/hooks`, { url: receiver.url('/push') });
    const work = mkdtempSync(join(ctx.work, 'push-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
        cwd: work,
        stdio: 'pipe',
      });
    const remote = root.gitUrl(pushed.path_with_namespace);
    git('init', '-q', '-b', 'master');
    const latencies: number[] = [];
    const pushes = quick ? 10 : 40;
    // Sampled for the capacity model: the git worker's CPU and disk per push of one small commit.
    await ctx.runner.timed(PUSHES_LABEL, async () => {
      for (let i = 0; i < pushes; i++) {
        writeFileSync(join(work, 'n.txt'), String(i));
        git('add', '-A');
        git('commit', '-q', '-m', `push ${i}`);
        git('push', '-q', remote, 'master');
        const pushedAt = performance.now();
        await receiver.waitFor('/push', i + 1, 10_000);
        latencies.push(Math.max(0, receiver.arrivals('/push')[i] - pushedAt));
      }
    });
    rmSync(work, { recursive: true, force: true });
    const figures = {
      events,
      deliveries: hooks * events,
      seconds: ms / 1000,
      rate,
      pushes,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    report.record('webhooks', figures);
    report.row({
      order: 14,
      path: 'webhooks (kept from the earlier bench)',
      figure: `${figures.deliveries} deliveries drained at ${Math.round(rate)}/s (one worker); push → delivery p50 ${fmtMs(figures.p50)}, p99 ${fmtMs(figures.p99)} over ${pushes} pushes`,
      anchor: '—',
      ratio: '—',
      goal: '—',
      verdict: '—',
    });
  } finally {
    await receiver.close();
  }
}
