import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@hub/local';
import { render, type K8sObject } from '../../infra/k8s/system-model';
import {
  classCost,
  CLONE_LABEL,
  cpuPerUnit,
  DOC,
  DRAIN_LABEL,
  MIX,
  OVERLAY,
  readResults,
  renderDoc,
  renderOverlay,
  SERVICES,
  size,
  TARGET,
  targetLoad,
  type BenchResults,
} from './capacity';
import { commandCalls, CounterReader } from './counters';
import { PUSHES_LABEL, WRITES_LABEL } from './labels';

const MIB = 1024 * 1024;
const process = (cpuSeconds: number, peakTreeRss = 100 * MIB) => ({ cpuSeconds, peakTreeRss });

/**
 * A run small enough to cost by hand: every kind of the mix is a project read (1,000 answered;
 * the facade 2 s, projects 1 s, Postgres 0.5 s of CPU: 3.5 ms a request), a clone costs the git
 * worker 0.4 s, and 50 Postgres transactions and 200 Redis commands were counted over the reads.
 */
function fixture(): BenchResults {
  const read = {
    'rest-facade': process(2, 300 * MIB),
    projects: process(1),
    postgres: process(0.5),
    'git-worker': process(0),
  };
  const labels = [...new Set(MIX.map((m) => m.label))];
  return {
    info: { date: '2026-01-01T00:00:00.000Z', command: 'npm run bench', cores: 2, cpuModel: 'test', quick: false },
    figures: {
      ...Object.fromEntries(labels.map((label) => [label, { completed: 1_000 }])),
      'facade git clone': { samples: 10, errors: 0, bytes: 40 * MIB },
      webhooks: { events: 1_000, pushes: 10, deliveries: 1_000, rate: 1_000 },
    },
    processes: {
      ...Object.fromEntries(labels.map((label) => [label, read])),
      'facade git clone': { 'git-worker': process(4, 400 * MIB), 'rest-facade': process(1) },
      // 1,000 deliveries (webhooks.deliveries) at 1 ms each.
      [DRAIN_LABEL]: { 'hooks-worker': process(1) },
    },
    counters: Object.fromEntries(
      labels.map((label) => [
        label,
        { pgTransactions: 50, pgRowsRead: 0, pgRowsWritten: 0, redisCommands: 200, redisMemory: 0 },
      ]),
    ),
  };
}

describe('the capacity model', () => {
  it('costs a request as the CPU of each process over the requests a target answered', () => {
    const cost = cpuPerUnit(fixture(), 'facade GET /projects/:id')!;
    expect(cost['rest-facade']).toBeCloseTo(0.002);
    expect(cost.projects).toBeCloseTo(0.001);
    expect(cost.postgres).toBeCloseTo(0.0005);
    expect(cpuPerUnit(fixture(), 'no such target')).toBeNull();
  });

  it("moves a stand-in's projects cost to the service owning the kind, and reads the counters per request", () => {
    const mergeRequests = classCost(
      fixture(),
      MIX.find((m) => m.owner === 'mergerequests')!,
    );
    expect(mergeRequests.cpu.projects).toBe(0);
    expect(mergeRequests.cpu.mergerequests).toBeCloseTo(0.001);
    expect(mergeRequests.pgTransactions).toEqual({ value: 0.05, measured: true });
    expect(mergeRequests.redisCommands).toEqual({ value: 0.2, measured: true });
  });

  it('sizes replicas as busy cores over the request at the HPA target', () => {
    const load = { requestsPerSecond: 1_000, pushesPerSecond: 0, clonesPerSecond: 0 };
    const sized = size(fixture(), load, 1_000, 100);
    // Every request costs the facade 2 ms: 2 cores, on replicas of 1 core at 70 %.
    expect(sized.cores['rest-facade']).toBeCloseTo(2);
    expect(sized.replicas['rest-facade']).toMatchObject({ cpuRequest: 1, min: 3, max: 3 });
    // At ten times the load: 20 cores, 29 replicas.
    expect(size(fixture(), { ...load, requestsPerSecond: 10_000 }, 1_000, 100).replicas['rest-facade'].max).toBe(29);
    // Memory: the peak RSS rounded up to 64 MiB, and twice that (512 MiB at least) as the limit.
    expect(sized.replicas['rest-facade'].memoryRequest).toBe(320 * MIB);
    expect(sized.replicas['rest-facade'].memoryLimit).toBe(640 * MIB);
    // An idle service asks for a quarter core and keeps its minimum.
    expect(sized.replicas.notes).toMatchObject({ cpuRequest: 0.25, min: 2, max: 2 });
    // 0.05 Postgres transactions per request, and 0.5 ms of Postgres CPU: 0.5 cores busy. The
    // 25 deliveries a second (50 writes, half a hook each) have no counters: 20 transactions each.
    expect(sized.postgres.transactionsPerSecond).toBeCloseTo(50 + 25 * 20);
    expect(sized.postgres.cores).toBeCloseTo(0.5);
    expect(sized.cores['hooks-worker']).toBeCloseTo(0.025);
  });

  it('shards git by CPU or storage, whichever needs more, and costs an unmeasured push as a clone', () => {
    const results = fixture();
    // 20 clones a second at 0.4 s each: 8 cores, over shards of 4 cores at 70 %: 3 shards.
    const byCpu = size(results, { requestsPerSecond: 0, pushesPerSecond: 0, clonesPerSecond: 20 }, 1_000, 0);
    expect(byCpu.shards.byCpu).toBe(3);
    expect(byCpu.shards.count).toBe(3);
    // Pushes: no processes recorded for them, so each costs what a clone does.
    const pushes = size(results, { requestsPerSecond: 0, pushesPerSecond: 20, clonesPerSecond: 0 }, 1_000, 0);
    expect(pushes.cores['git-worker']).toBeCloseTo(8);
    results.processes[PUSHES_LABEL] = { 'git-worker': process(0.1) };
    const measured = size(results, { requestsPerSecond: 0, pushesPerSecond: 20, clonesPerSecond: 0 }, 1_000, 0);
    expect(measured.cores['git-worker']).toBeCloseTo(0.2);
    // 1,000,000 repositories of 20 MiB on 1 TiB volumes filled to 70 %: 28 shards.
    const idle = { requestsPerSecond: 0, pushesPerSecond: 0, clonesPerSecond: 0 };
    expect(size(results, idle, 1_000_000, 0).shards).toMatchObject({ byStorage: 28, count: 28 });
  });

  it('says in the doc what it assumed for a figure the run lacks', () => {
    const results = fixture();
    delete results.processes[WRITES_LABEL];
    delete results.counters;
    const doc = renderDoc(results);
    expect(doc).toContain(`not measured in this run (\`${WRITES_LABEL}\`): costed as 5× \`facade GET /projects/:id\``);
    expect(doc).toContain("Postgres transactions and Redis commands are not in this run's results");
    const measured = fixture();
    for (const label of [DRAIN_LABEL, CLONE_LABEL, PUSHES_LABEL])
      measured.counters![label] = measured.counters!['facade GET /projects/:id'];
    expect(renderDoc(measured)).not.toContain("Postgres transactions and Redis commands are not in this run's results");
  });

  it('counts the commands of INFO commandstats, less its own reads', () => {
    const stats =
      '# Commandstats\ncmdstat_get:calls=5,usec=1\ncmdstat_info:calls=2,usec=1\ncmdstat_xadd:calls=10,usec=3\n';
    expect(commandCalls(stats)).toBe(17);
    const at = (redisCommands: number, pgTransactions: number) => ({
      pgTransactions,
      pgRowsRead: 0,
      pgRowsWritten: 0,
      redisCommands,
      redisMemory: 0,
    });
    expect(CounterReader.delta(at(17, 100), at(29, 111))).toMatchObject({ redisCommands: 10, pgTransactions: 10 });
  });
});

describe('docs/capacity.md and the prod overlay', () => {
  const results = readResults();

  it(`are what \`npm run capacity\` makes of the committed bench/results.json`, () => {
    expect(readFileSync(join(REPO_ROOT, DOC), 'utf8')).toBe(renderDoc(results));
    expect(readFileSync(join(REPO_ROOT, OVERLAY), 'utf8')).toBe(renderOverlay(results));
  });

  it('size every Deployment of the rendered prod overlay as the model does', () => {
    const objects = render('overlays/prod');
    const find = (kind: string, name: string) =>
      objects.find((o: K8sObject) => o.kind === kind && o.metadata.name === name)!;
    const sized = size(results, targetLoad(), TARGET.projects, TARGET.users);
    const deployments = objects
      .filter((o: K8sObject) => o.kind === 'Deployment')
      .map((o: K8sObject) => o.metadata.name);
    expect(deployments.sort()).toEqual([...SERVICES].sort());
    for (const name of SERVICES) {
      const hpa = find('HorizontalPodAutoscaler', name);
      const resources = find('Deployment', name).spec.template.spec.containers[0].resources;
      const { min, max, cpuRequest, memoryRequest } = sized.replicas[name];
      expect({ name, min: hpa.spec.minReplicas, max: hpa.spec.maxReplicas, ...resources.requests }).toEqual({
        name,
        min,
        max,
        cpu: Number.isInteger(cpuRequest) ? String(cpuRequest) : `${cpuRequest * 1000}m`,
        memory: `${memoryRequest / MIB}Mi`,
      });
    }
  });
});
