// npm run capacity: the capacity model. Reads bench/results.json (written by `npm run bench`) and
// writes docs/capacity.md and the prod overlay's sizing (infra/k8s/overlays/prod/capacity), so
// both stay true after each bench run; capacity.test.ts fails when either differs from what this
// makes of the committed results.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@hub/local';
import type { ServerCounters } from './counters';
import { markdownTable } from './report';
import type { GroupFigures } from './sampler';
import { FIRST_PUSH_LABEL, PROJECT_BYTES_LABEL, PUSHES_LABEL, WRITES_LABEL } from './labels';

export const RESULTS = 'bench/results.json';
export const DOC = 'docs/capacity.md';
export const OVERLAY = 'infra/k8s/overlays/prod/capacity/kustomization.yaml';
export const COMMAND = 'npm run capacity';

/** What the model reads of bench/results.json (report.ts writes it). */
export interface BenchResults {
  info: { date: string; command: string; cores: number; cpuModel: string; quick: boolean };
  figures: Record<string, Record<string, unknown>>;
  processes: Record<string, Record<string, Partial<GroupFigures>>>;
  counters?: Record<string, ServerCounters>;
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The installation to size. */
export const TARGET = { projects: 1_000_000, users: 100_000, requestsPerSecond: 10_000, pushesPerMinute: 1_000 };

/**
 * The request mix (an assumption: mostly reads of projects, lists, merge requests, commits and
 * files, a few % writes, as GitLab.com's API is taken to see). Each class is costed by a
 * bench target; `owner` moves the projects subgraph's share of a stand-in's cost to the service
 * that owns the class (a merge request read costs its service what a project read costs projects).
 */
export interface MixClass {
  name: string;
  share: number;
  label: string;
  owner?: string;
  /** When `label` is missing from the results: this label's cost times `factor`, said in the doc. */
  fallback?: { label: string; factor: number };
  /** Writes an event or moves a repository: costs more of Postgres and Redis when unmeasured. */
  heavy?: boolean;
}

export const MIX: MixClass[] = [
  { name: 'GET a project', share: 0.2, label: 'facade GET /projects/:id' },
  {
    name: 'GET a merge request (or its commits, changes)',
    share: 0.08,
    label: 'facade GET /projects/:id',
    owner: 'mergerequests',
  },
  { name: 'GET an issue, a note, a snippet', share: 0.07, label: 'facade GET /projects/:id', owner: 'notes' },
  { name: 'GET the user, a user, a group', share: 0.05, label: 'facade GET /projects/:id', owner: 'identity' },
  {
    name: 'conditional GET answered 304 (polling)',
    share: 0.15,
    label: 'facade conditional GET /projects/:id',
    fallback: { label: 'facade GET /projects/:id', factor: 1 },
  },
  { name: 'lists, 100 per page (projects, MRs, issues)', share: 0.18, label: 'facade list page (2000 projects)' },
  { name: 'repository tree, commits', share: 0.1, label: 'facade tree root one at a time' },
  { name: 'compare, diffs', share: 0.05, label: 'facade compare 100 commits, a new pair each time' },
  { name: 'files: raw and blobs (1 MiB each, the upper end)', share: 0.07, label: 'facade raw_blobs 1 MiB' },
  {
    name: 'writes: create or update an issue, note, MR (one event each)',
    share: 0.05,
    label: WRITES_LABEL,
    fallback: { label: 'facade GET /projects/:id', factor: 5 },
    heavy: true,
  },
];

/** Other assumptions, each printed in the doc beside what it sizes. */
export const ASSUME = {
  /** GitLab's reference architectures load Git pulls at 5× pushes; each pull here is a full clone. */
  clonesPerPush: 5,
  /** Webhooks per event on average (deliveries per event). */
  hooksPerEvent: 0.5,
  /** Average repository on disk. */
  repositoryBytes: 20 * MIB,
  /** Postgres rows of one user (user, namespace, tokens, keys, emails), with indexes. */
  userBytes: 8 * 1024,
  /** When the bench has not measured it: Postgres bytes of a project's own rows (with indexes). */
  projectBytes: 32 * 1024,
  /** Postgres bytes of what a project gathers (issues, merge requests, notes, events, hook logs). */
  contentBytesPerProject: 64 * 1024,
  /** When unmeasured: Postgres transactions and Redis commands per read, and per write, push, clone or delivery. */
  perRead: { pgTransactions: 5, redisCommands: 10 },
  perHeavy: { pgTransactions: 20, redisCommands: 100 },
  /** When unmeasured: bytes the git worker writes per push. */
  pushDiskBytes: 1 * MIB,
  /** Redis memory per stream entry (also the least the model takes when measured). */
  redisBytesPerEvent: 1024,
  /** Redis memory per project (its ETag version key) and per active user (rate-limit keys). */
  redisBytesPerProject: 128,
  redisBytesPerUser: 256,
};

/** How the model turns cores into replicas and pods. */
export const POLICY = {
  /** The HPAs' CPU target: replicas run at 70 % of their request at the sized load. */
  utilization: 0.7,
  /** A Node process runs JavaScript on one core: its request, when it has load. */
  busyCpuRequest: 1,
  idleCpuRequest: 0.25,
  /** Below this many cores at the sized load a service is idle (its request is idleCpuRequest). */
  busyCores: 1,
  /** Serves internal GraphQL only, which the mix leaves out: kept at its minimum. */
  unloaded: ['gateway'],
  /** The entry points take the traffic first (spread over zones); the rest keep two for drains. */
  minReplicas: { 'rest-facade': 3, gateway: 3 } as Record<string, number>,
  defaultMinReplicas: 2,
  /** Git worker shards: cores each (it runs git beside its event loop) and volume. */
  shardCores: 4,
  shardVolumeBytes: 1024 * GIB,
  /** Fill a shard's volume to this much at the sized number of projects. */
  shardFill: 0.7,
  /** Postgres: CPU kept below half; memory holds a quarter of the data plus connections. */
  postgresUtilization: 0.5,
  postgresMemoryShare: 0.25,
  bytesPerConnection: 16 * MIB,
  /** DB_POOL_MAX's default: connections each process opens at most. */
  poolPerProcess: 10,
  /** Redis runs commands on one core: about this many simple ones a second, at a safe margin. */
  redisCommandsPerCore: 80_000,
  /** Streams fed by outbox relays (one per service with an outbox) and their length cap. */
  streams: 8,
  streamMaxLen: 100_000,
};

/** The Deployments the mix loads, in the order of the tables. */
export const SERVICES = [
  'rest-facade',
  'gateway',
  'identity',
  'projects',
  'membership',
  'repository',
  'mergerequests',
  'notes',
  'hooks',
  'hooks-worker',
] as const;
const COSTED = [...SERVICES, 'git-worker', 'postgres', 'redis'];

/** A figure from the results, or an assumption where the bench has not measured it yet. */
interface Figure {
  value: number;
  measured: boolean;
}

type Cost = Record<string, number>;

/** Units a label's figures are for: requests answered (load), samples (one at a time), or a count recorded beside. */
function unitsOf(results: BenchResults, label: string): number | null {
  const f = results.figures[label];
  const webhooks = results.figures.webhooks ?? {};
  const recorded: Record<string, unknown> = {
    [WRITES_LABEL]: webhooks.events,
    [PUSHES_LABEL]: webhooks.pushes,
    [DRAIN_LABEL]: webhooks.deliveries,
  };
  if (label in recorded) return Number(recorded[label]) || null;
  if (!f) return null;
  if (typeof f.completed === 'number') return f.completed;
  if (typeof f.samples === 'number') return f.samples + Number(f.errors ?? 0);
  return null;
}

/** CPU seconds per unit of a label, by process; null when the bench did not measure the label. */
export function cpuPerUnit(results: BenchResults, label: string): Cost | null {
  const units = unitsOf(results, label);
  const processes = results.processes[label];
  if (!units || !processes) return null;
  return Object.fromEntries(COSTED.map((name) => [name, (processes[name]?.cpuSeconds ?? 0) / units]));
}

function perUnit(results: BenchResults, label: string, value: (counters: ServerCounters) => number): number | null {
  const units = unitsOf(results, label);
  const counters = results.counters?.[label];
  return units && counters ? value(counters) / units : null;
}

/** Work beside the requests of the mix, each costed per unit by its bench target. */
export const DRAIN_LABEL = 'webhooks drain';
export const CLONE_LABEL = 'facade git clone';
const GIT_AND_HOOKS = {
  push: {
    name: 'a push',
    share: 0,
    label: PUSHES_LABEL,
    // A push of a few commits costs no more than a full clone of the bench's repository.
    fallback: { label: CLONE_LABEL, factor: 1 },
    heavy: true,
  },
  clone: { name: 'a clone', share: 0, label: CLONE_LABEL, heavy: true },
  delivery: { name: 'a webhook delivery', share: 0, label: DRAIN_LABEL, heavy: true },
} satisfies Record<string, MixClass>;

export interface ClassCost {
  mix: MixClass;
  cpu: Cost;
  pgTransactions: Figure;
  redisCommands: Figure;
  /** How the class was costed when its own label is missing. */
  note: string | null;
}

export function classCost(results: BenchResults, mix: MixClass): ClassCost {
  let cpu = cpuPerUnit(results, mix.label);
  let note: string | null = null;
  let label = mix.label;
  if (!cpu && mix.fallback) {
    const base = cpuPerUnit(results, mix.fallback.label);
    if (base) {
      cpu = Object.fromEntries(Object.entries(base).map(([name, s]) => [name, s * mix.fallback!.factor]));
      label = mix.fallback.label;
      note = `not measured in this run (\`${mix.label}\`): costed as ${mix.fallback.factor}× \`${mix.fallback.label}\``;
    }
  }
  if (!cpu) throw new Error(`${RESULTS} has no figures for ${mix.label}: run the bench's scenarios first`);
  if (mix.owner) {
    cpu = { ...cpu, [mix.owner]: (cpu[mix.owner] ?? 0) + cpu.projects, projects: 0 };
  }
  const counted = (value: (counters: ServerCounters) => number, assumed: number): Figure => {
    const measured = perUnit(results, label, value);
    return measured === null ? { value: assumed, measured: false } : { value: measured, measured: true };
  };
  const assumed = mix.heavy ? ASSUME.perHeavy : ASSUME.perRead;
  return {
    mix,
    cpu,
    pgTransactions: counted((c) => c.pgTransactions, assumed.pgTransactions),
    redisCommands: counted((c) => c.redisCommands, assumed.redisCommands),
    note,
  };
}

/** Peak RSS (with children) of a process over every target of the run. */
export function peakRss(results: BenchResults, name: string): number {
  return Math.max(0, ...Object.values(results.processes).map((p) => p[name]?.peakTreeRss ?? 0));
}

/** Bytes the git worker wrote per push (its objects, refs and logs), or the assumption. */
function pushDiskBytes(results: BenchResults): Figure {
  const units = unitsOf(results, PUSHES_LABEL);
  const written = results.processes[PUSHES_LABEL]?.['git-worker']?.diskWriteBytes;
  return units && written !== undefined
    ? { value: written / units, measured: true }
    : { value: ASSUME.pushDiskBytes, measured: false };
}

export interface Load {
  requestsPerSecond: number;
  pushesPerSecond: number;
  clonesPerSecond: number;
}

export const targetLoad = (): Load => ({
  requestsPerSecond: TARGET.requestsPerSecond,
  pushesPerSecond: TARGET.pushesPerMinute / 60,
  clonesPerSecond: (TARGET.pushesPerMinute / 60) * ASSUME.clonesPerPush,
});

export interface Sizing {
  /** Cores busy at the load, by process. */
  cores: Cost;
  replicas: Record<
    string,
    { min: number; max: number; cpuRequest: number; memoryRequest: number; memoryLimit: number }
  >;
  shards: {
    byCpu: number;
    byStorage: number;
    count: number;
    cpuRequest: number;
    memoryRequest: number;
    memoryLimit: number;
  };
  postgres: {
    cores: number;
    vcpus: number;
    memoryBytes: number;
    storageBytes: number;
    connections: number;
    transactionsPerSecond: number;
  };
  redis: { opsPerSecond: number; primaries: number; memoryBytes: number };
  deliveriesPerSecond: number;
}

const roundUp = (value: number, step: number) => Math.ceil(value / step) * step;
const pow2 = (value: number) => 2 ** Math.ceil(Math.log2(Math.max(1, value)));

export function size(results: BenchResults, load: Load, projects: number, users: number): Sizing {
  const writesPerSecond = load.requestsPerSecond * MIX.filter((m) => m.label === WRITES_LABEL)[0].share;
  const deliveriesPerSecond = (writesPerSecond + load.pushesPerSecond) * ASSUME.hooksPerEvent;
  const work: Array<[ClassCost, number]> = [
    ...MIX.map((mix): [ClassCost, number] => [classCost(results, mix), load.requestsPerSecond * mix.share]),
    [classCost(results, GIT_AND_HOOKS.push), load.pushesPerSecond],
    [classCost(results, GIT_AND_HOOKS.clone), load.clonesPerSecond],
    [classCost(results, GIT_AND_HOOKS.delivery), deliveriesPerSecond],
  ];
  const cores: Cost = {};
  for (const [cost, rate] of work)
    for (const [name, seconds] of Object.entries(cost.cpu)) cores[name] = (cores[name] ?? 0) + seconds * rate;
  const total = (figure: (cost: ClassCost) => Figure) =>
    work.reduce((t, [cost, rate]) => t + figure(cost).value * rate, 0);

  const replicas: Sizing['replicas'] = {};
  for (const name of SERVICES) {
    const busy = (cores[name] ?? 0) >= POLICY.busyCores;
    const cpuRequest = busy ? POLICY.busyCpuRequest : POLICY.idleCpuRequest;
    const min = POLICY.minReplicas[name] ?? POLICY.defaultMinReplicas;
    const memoryRequest = roundUp(peakRss(results, name), 64 * MIB);
    replicas[name] = {
      min,
      max: POLICY.unloaded.includes(name)
        ? min
        : Math.max(min, Math.ceil((cores[name] ?? 0) / (cpuRequest * POLICY.utilization))),
      cpuRequest,
      memoryRequest,
      memoryLimit: Math.max(512 * MIB, roundUp(2 * memoryRequest, 128 * MIB)),
    };
  }

  const byCpu = Math.ceil((cores['git-worker'] ?? 0) / (POLICY.shardCores * POLICY.utilization));
  const byStorage = Math.ceil((projects * ASSUME.repositoryBytes) / (POLICY.shardVolumeBytes * POLICY.shardFill));
  const workerRss = roundUp(peakRss(results, 'git-worker'), 64 * MIB);
  const shards = {
    byCpu,
    byStorage,
    count: Math.max(2, byCpu, byStorage),
    cpuRequest: POLICY.shardCores,
    memoryRequest: workerRss,
    memoryLimit: Math.max(2 * GIB, roundUp(4 * workerRss, 512 * MIB)),
  };

  const dataBytes = projects * (projectBytes(results).value + ASSUME.contentBytesPerProject) + users * ASSUME.userBytes;
  // Every process at its HPA's maximum (the gateway at its minimum) and every shard opens its pool.
  const processes = Object.values(replicas).reduce((n, r) => n + r.max, 0) + shards.count;
  const connections = processes * POLICY.poolPerProcess;
  const redisMemory =
    POLICY.streams * POLICY.streamMaxLen * streamBytesPerEvent(results).value +
    projects * ASSUME.redisBytesPerProject +
    users * ASSUME.redisBytesPerUser;

  return {
    cores,
    replicas,
    shards,
    postgres: {
      cores: cores.postgres ?? 0,
      vcpus: pow2((cores.postgres ?? 0) / POLICY.postgresUtilization),
      memoryBytes: pow2((dataBytes * POLICY.postgresMemoryShare + connections * POLICY.bytesPerConnection) / GIB) * GIB,
      storageBytes: dataBytes,
      connections,
      transactionsPerSecond: total((c) => c.pgTransactions),
    },
    redis: {
      opsPerSecond: total((c) => c.redisCommands),
      primaries: Math.max(1, Math.ceil(total((c) => c.redisCommands) / POLICY.redisCommandsPerCore)),
      memoryBytes: redisMemory,
    },
    deliveriesPerSecond,
  };
}

/** Postgres bytes per project: its growth over the bench's bulk copy of projects, or the assumption. */
function projectBytes(results: BenchResults): Figure {
  const copy = results.figures[PROJECT_BYTES_LABEL] as { projects?: number; bytes?: number } | undefined;
  return copy?.projects && copy.bytes
    ? { value: copy.bytes / copy.projects, measured: true }
    : { value: ASSUME.projectBytes, measured: false };
}

/** Redis memory per stream entry: its growth while the bench wrote events, at least the assumption. */
function streamBytesPerEvent(results: BenchResults): Figure {
  const measured = perUnit(results, WRITES_LABEL, (c) => c.redisMemory);
  return measured === null
    ? { value: ASSUME.redisBytesPerEvent, measured: false }
    : { value: Math.max(measured, ASSUME.redisBytesPerEvent), measured: true };
}

/** GitLab's published reference architectures (their target loads and the nodes they list). */
export const GITLAB = [
  {
    users: '10,000',
    load: { api: 200, web: 20, pull: 20, push: 4 },
    nodes: [
      ['GitLab Rails', 3, 32, 28.8],
      ['Sidekiq', 4, 4, 15],
      ['Gitaly', 3, 16, 60],
      ['PostgreSQL', 3, 8, 30],
      ['Redis (cache and persistent)', 6, 4, 15],
    ],
  },
  {
    users: '50,000',
    load: { api: 1000, web: 100, pull: 100, push: 20 },
    nodes: [
      ['GitLab Rails', 12, 32, 28.8],
      ['Sidekiq', 4, 4, 15],
      ['Gitaly', 3, 64, 240],
      ['PostgreSQL', 3, 32, 120],
      ['Redis (cache and persistent)', 6, 4, 15],
    ],
  },
] as const;

const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
const fmtCores = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(n >= 1 ? 1 : 2));
const fmtMi = (bytes: number) => `${Math.round(bytes / MIB)}Mi`;
const fmtSize = (bytes: number) =>
  bytes >= 1024 * GIB
    ? `${(bytes / 1024 / GIB).toFixed(1)} TiB`
    : bytes >= GIB
      ? `${(bytes / GIB).toFixed(1)} GiB`
      : bytes >= MIB
        ? `${Math.round(bytes / MIB)} MiB`
        : `${Math.round(bytes / 1024)} KiB`;
const fmtCpu = (cores: number) => (Number.isInteger(cores) ? `"${cores}"` : `${Math.round(cores * 1000)}m`);
const ms = (seconds: number) => (seconds * 1000).toFixed(seconds * 1000 >= 10 ? 1 : 2);
/** The vCPU a load takes: every pod at its CPU request (HPAs at their maximum), shards by CPU, Postgres. */
function vcpus(s: Sizing) {
  const services = Object.values(s.replicas).reduce((n, r) => n + r.max * r.cpuRequest, 0);
  const shards = Math.max(2, s.shards.byCpu);
  return { services, shards, total: services + shards * s.shards.cpuRequest + s.postgres.vcpus };
}

export function renderDoc(results: BenchResults): string {
  const load = targetLoad();
  const sized = size(results, load, TARGET.projects, TARGET.users);
  const classes = [...MIX, ...Object.values(GIT_AND_HOOKS)].map((mix) => classCost(results, mix));
  const cloneBytes = Number(results.figures[CLONE_LABEL]?.bytes ?? 0);
  const pushBytes = pushDiskBytes(results);
  const cloneRead = results.processes[CLONE_LABEL]?.['git-worker']?.diskReadBytes;
  const cloneCount = unitsOf(results, CLONE_LABEL) ?? 1;
  const firstPush = results.processes[FIRST_PUSH_LABEL]?.['git-worker'];
  const notes: string[] = [];
  for (const c of classes) if (c.note) notes.push(`${c.mix.name}: ${c.note}.`);
  const uncounted = classes.filter((c) => !c.pgTransactions.measured).map((c) => c.mix.name);
  if (uncounted.length)
    notes.push(
      `Postgres transactions and Redis commands are not in this run's results for: ${uncounted.join('; ')}. Assumed ${ASSUME.perRead.pgTransactions} transactions and ${ASSUME.perRead.redisCommands} Redis commands per read, ${ASSUME.perHeavy.pgTransactions} and ${ASSUME.perHeavy.redisCommands} per write, push, clone or delivery.`,
    );
  if (!pushBytes.measured)
    notes.push(`The git worker's disk writes per push are not in this run: assumed ${fmtSize(pushBytes.value)}.`);
  if (!projectBytes(results).measured)
    notes.push(
      `Postgres bytes per project are not in this run (\`${PROJECT_BYTES_LABEL}\`): assumed ${fmtSize(ASSUME.projectBytes)}.`,
    );
  if (!streamBytesPerEvent(results).measured)
    notes.push(`Redis memory per stream entry is not in this run: assumed ${fmtSize(ASSUME.redisBytesPerEvent)}.`);

  const perProcess = ['rest-facade', 'projects', 'membership', 'repository', 'git-worker', 'postgres', 'redis'];
  const costRows = classes.map((c) => {
    const total = COSTED.reduce((t, name) => t + (c.cpu[name] ?? 0), 0);
    // The owner of a kind costed by a project read takes projects' column.
    const column = (name: string) => (name === 'projects' && c.mix.owner ? c.mix.owner : name);
    return [
      c.mix.name,
      ...perProcess.map(
        (name) => `${ms(c.cpu[column(name)] ?? 0)}${column(name) === name ? '' : ` (${column(name)})`}`,
      ),
      ms(total),
      fmtInt(1 / total),
      `${c.pgTransactions.value.toFixed(1)}${c.pgTransactions.measured ? '' : ' (assumed)'}`,
      `${c.redisCommands.value.toFixed(1)}${c.redisCommands.measured ? '' : ' (assumed)'}`,
    ];
  });
  const idle = (results.figures['idle RSS after start-up'] ?? {}) as Record<string, { treeRss: number }>;
  const rssRows = [...SERVICES, 'git-worker', 'postgres', 'redis'].map((name) => [
    name,
    idle[name] ? fmtSize(idle[name].treeRss) : 'n/a',
    fmtSize(peakRss(results, name)),
  ]);
  const replicaRows = SERVICES.map((name) => {
    const r = sized.replicas[name];
    return [
      name,
      fmtCores(sized.cores[name] ?? 0),
      fmtCpu(r.cpuRequest).replace(/"/g, ''),
      `${r.min}–${r.max}`,
      `${fmtMi(r.memoryRequest)} / ${fmtMi(r.memoryLimit)}`,
    ];
  });
  const referenceRows = GITLAB.flatMap((ra) => {
    const ours = size(
      results,
      { requestsPerSecond: ra.load.api + ra.load.web, pushesPerSecond: ra.load.push, clonesPerSecond: ra.load.pull },
      TARGET.projects,
      TARGET.users,
    );
    const theirs = ra.nodes.reduce((n, [, count, vcpu]) => n + count * vcpu, 0);
    const v = vcpus(ours);
    return [
      [
        `${ra.users} users (${ra.load.api} API + ${ra.load.web} web req/s, ${ra.load.pull} pulls/s, ${ra.load.push} pushes/s)`,
        ra.nodes.map(([name, count, vcpu, gb]) => `${name} ${count} × ${vcpu} vCPU, ${gb} GB`).join('; '),
        fmtInt(theirs),
        `${fmtInt(v.total)} (services ${fmtInt(v.services)}, ${v.shards} shards of ${POLICY.shardCores}, Postgres ${ours.postgres.vcpus})`,
      ],
    ];
  });
  const info = results.info;
  return [
    '# Capacity',
    '',
    `Generated by \`${COMMAND}\`, from the bench run of ${info.date} (\`${info.command}\`${info.quick ? ', a --quick run' : ''}; ${info.cores} cores, ${info.cpuModel}): \`${RESULTS}\`. Do not edit it by hand: rerun the command after a bench run, and commit both. A test fails when this page or the prod overlay's sizing (\`${OVERLAY}\`) differs from what the command makes of the committed results.`,
    '',
    "The model takes what one request of each kind costs every process (CPU seconds, from /proc, over a bench target, divided by the requests it answered), multiplies by the rate of each kind in the load below, and divides by what a replica gives. The bench runs every process on one shared machine, so its costs include contention, and a target's CPU includes every process's idle work (timers, stream polling) over its duration, which weighs most on the targets run one request at a time: read them as upper bounds. [performance.md](performance.md) and `bench/RESULTS.md` say what each bench target measures.",
    '',
    '## The installation sized',
    '',
    markdownTable(
      ['what', 'how much', 'where it comes from'],
      [
        ['projects', fmtInt(TARGET.projects), 'target'],
        ['users', fmtInt(TARGET.users), 'target'],
        ['REST requests', `${fmtInt(TARGET.requestsPerSecond)} req/s of the mix below`, 'target'],
        ['pushes', `${fmtInt(TARGET.pushesPerMinute)} a minute`, 'target'],
        [
          'clones and fetches',
          `${fmtInt(load.clonesPerSecond * 60)} a minute, each a full clone of ${fmtSize(cloneBytes)}`,
          `assumption: ${ASSUME.clonesPerPush} pulls per push, as GitLab's reference architectures load them; a fetch is far cheaper than a clone`,
        ],
        ['webhooks', `${ASSUME.hooksPerEvent} deliveries per event`, 'assumption'],
        ['repository size', `${fmtSize(ASSUME.repositoryBytes)} on average`, 'assumption'],
      ],
    ),
    '',
    '## The request mix',
    '',
    "An assumption, not a measurement: the mix GitLab.com's API is taken to see, mostly reads of projects, lists, merge requests, commits and files, with a few % writes. Each kind is costed by the bench target beside it; a kind the bench has no route of its own for is costed by a project read, its cost moved to the service that owns it.",
    '',
    markdownTable(
      ['kind', 'share', 'req/s', 'costed by (bench target)'],
      MIX.map((m) => [
        m.name,
        `${(m.share * 100).toFixed(0)} %`,
        fmtInt(m.share * TARGET.requestsPerSecond),
        `\`${m.label}\`${m.owner ? ` (as ${m.owner})` : ''}`,
      ]),
    ),
    '',
    '## Per request, from the bench',
    '',
    "CPU milliseconds per request (or push, clone, delivery) by process (a kind costed by a project read shows its owner's cost in projects' column; the processes left out are in the total), how many a second one core serves over the whole stack, and what each asks of Postgres (transactions) and Redis (commands). Postgres's backends publish their counts about once a second, so a target's count may be off by about a second of its traffic.",
    '',
    markdownTable(
      ['kind', ...perProcess.map((p) => `${p} ms`), 'total ms', 'per second per core', 'Postgres tx', 'Redis cmds'],
      costRows,
    ),
    '',
    [
      `A clone moves ${fmtSize(cloneBytes)} (the bench's repository, every object)${cloneRead === undefined ? '' : `; the git worker read ${fmtSize(cloneRead / cloneCount)} a clone from disk (the rest came from the page cache)`}.`,
      `The git worker wrote ${fmtSize(pushBytes.value)} to disk per push${pushBytes.measured ? '' : ' (assumed)'}.`,
      firstPush
        ? `The first push of the bench's repository (${fmtSize(Number(results.figures.repository?.packBytes ?? 0))}) cost it ${firstPush.cpuSeconds?.toFixed(1)} s of CPU and ${fmtSize(firstPush.diskWriteBytes ?? 0)} written.`
        : '',
      `Postgres grows by ${fmtSize(projectBytes(results).value)} per project${projectBytes(results).measured ? " (the bench's bulk copy of projects: the rows of one owner, without issues or merge requests)" : ' (assumed)'}.`,
    ]
      .filter(Boolean)
      .join(' '),
    '',
    // The one row whose measurement stands for routes that cost more: said where it is read.
    'The lists row is measured on the projects list, which the facade answers from the projects it rendered before ([performance.md](performance.md#rendered-projects)). Lists of issues and merge requests keep no renderings and cost more a page; the bench does not measure them, so this row understates them.',
    '',
    'Resident memory per process (with its children), idle after start-up and at its peak over every bench target:',
    '',
    markdownTable(['process', 'idle', 'peak'], rssRows),
    '',
    '## Sizing',
    '',
    `Replicas per service at the sized load: cores busy, divided by the CPU request of a replica at the HPAs' ${POLICY.utilization * 100} % target. A Node process runs JavaScript on one core: a busy service's replica requests ${POLICY.busyCpuRequest} core, an idle one's ${POLICY.idleCpuRequest * 1000}m. Memory requests are the peak RSS over the bench, limits twice that (${fmtMi(512 * MIB)} at least). The HPA's maximum is the count at the sized load; its minimum keeps ${POLICY.defaultMinReplicas} for drains (${Object.entries(
      POLICY.minReplicas,
    )
      .map(([n, m]) => `${n} ${m}`)
      .join(', ')}). The gateway serves internal GraphQL only, which the mix leaves out: its maximum is its minimum.`,
    '',
    markdownTable(
      ['service', 'cores busy', 'CPU request', 'replicas (HPA min–max)', 'memory request / limit'],
      replicaRows,
    ),
    '',
    `Hook workers: ${fmtInt(sized.deliveriesPerSecond)} deliveries a second (events of the writes and pushes, ${ASSUME.hooksPerEvent} deliveries each), against ${fmtInt(Number(results.figures.webhooks?.rate) || 0)} a second one worker drained in the bench.`,
    '',
    `**Git worker shards: ${sized.shards.count}.** By CPU ${sized.shards.byCpu} (${fmtCores(sized.cores['git-worker'] ?? 0)} cores busy over shards of ${POLICY.shardCores} cores at ${POLICY.utilization * 100} %), by storage ${sized.shards.byStorage} (${fmtInt(TARGET.projects)} repositories of ${fmtSize(ASSUME.repositoryBytes)} on volumes of ${fmtSize(POLICY.shardVolumeBytes)} filled to ${POLICY.shardFill * 100} %). Each shard requests ${POLICY.shardCores} cores and ${fmtMi(sized.shards.memoryRequest)}, limited to ${fmtMi(sized.shards.memoryLimit)} (the git commands it runs count against it).`,
    '',
    markdownTable(
      ['', 'Postgres', 'Redis'],
      [
        [
          'CPU',
          `${fmtCores(sized.postgres.cores)} cores busy: ${sized.postgres.vcpus} vCPU (below ${POLICY.postgresUtilization * 100} %)`,
          `${fmtInt(sized.redis.opsPerSecond)} commands/s: ${sized.redis.primaries} primar${sized.redis.primaries === 1 ? 'y' : 'ies'} at ${fmtInt(POLICY.redisCommandsPerCore)} a second each (Redis runs commands on one core; split the cache keys from the streams and queue, as GitLab splits cache and persistent Redis)`,
        ],
        [
          'memory',
          `${fmtSize(sized.postgres.memoryBytes)}: a quarter of the data cached, ${fmtSize(POLICY.bytesPerConnection)} per connection`,
          `${fmtSize(sized.redis.memoryBytes)}: ${POLICY.streams} event streams of ${fmtInt(POLICY.streamMaxLen)} entries, a version key per project, rate-limit keys per user`,
        ],
        [
          'storage',
          `${fmtSize(sized.postgres.storageBytes)} of rows and indexes: each project's own and ${fmtSize(ASSUME.contentBytesPerProject)} of issues, merge requests, notes and events (an assumption), ${fmtSize(ASSUME.userBytes)} per user; WAL and backups beside`,
          '—',
        ],
        [
          'connections',
          `${fmtInt(sized.postgres.connections)}: ${POLICY.poolPerProcess} (\`DB_POOL_MAX\`) per process at the HPAs' maxima; above a few hundred, put PgBouncer in front`,
          '—',
        ],
        ['load', `${fmtInt(sized.postgres.transactionsPerSecond)} transactions/s`, '—'],
      ],
    ),
    '',
    "## Against GitLab's reference architectures",
    '',
    "GitLab's published figures for its reference architectures of 10,000 and 50,000 users (their target loads and the nodes they list; load balancers, Consul, PgBouncer, Praefect and monitoring left out), beside the vCPU this model asks for the same load (every pod at its CPU request, the HPAs at their maxima, shards by CPU, two at least, and one Postgres primary). Shards for storage are left out: GitLab sizes Gitaly by load too. GitLab's counts are for three Postgres nodes and two Redis clusters of three, for failover: a highly available installation of this model adds Postgres replicas and Redis replicas the same way.",
    '',
    markdownTable(
      ['size', "GitLab's nodes (count × vCPU, memory)", "GitLab's vCPU", 'this model, vCPU'],
      referenceRows,
    ),
    '',
    '## Assumptions standing in for measurements',
    '',
    ...(notes.length ? notes.map((n) => `- ${n}`) : ['- None: every figure of the model is in this run of the bench.']),
    '',
    '## The prod overlay',
    '',
    `\`${OVERLAY}\` is written by the same command: every Deployment's CPU and memory, its HPA's bounds (the maximum is the count at the sized load), and the git worker's per-shard resources and volume. \`infra/k8s/overlays/prod\` includes it as a component and keeps two shards to start with; add shards as the projects grow ([deploy.md](deploy.md#add-a-git-shard)) up to the count above.`,
    '',
  ].join('\n');
}

export function renderOverlay(results: BenchResults): string {
  const sized = size(results, targetLoad(), TARGET.projects, TARGET.users);
  const resources = (cpu: number, memory: number, cpuLimit: number, memoryLimit: number) =>
    `{ requests: { cpu: ${fmtCpu(cpu)}, memory: ${fmtMi(memory)} }, limits: { cpu: ${fmtCpu(cpuLimit)}, memory: ${fmtMi(memoryLimit)} } }`;
  const patch = (kind: string, name: string, ops: string[]) => [
    `  - target: { kind: ${kind}, name: ${name} }`,
    '    patch: |-',
    ...ops.map((op) => `      - ${op}`),
  ];
  const lines = [
    `# Written by \`${COMMAND}\` from ${RESULTS} (the bench run of ${results.info.date}): do not edit,`,
    `# see ${DOC}. Per-replica resources and HPA bounds of the sized installation.`,
    'apiVersion: kustomize.config.k8s.io/v1alpha1',
    'kind: Component',
    'patches:',
  ];
  for (const name of SERVICES) {
    const r = sized.replicas[name];
    lines.push(
      ...patch('Deployment', name, [
        `{ op: replace, path: /spec/replicas, value: ${r.min} }`,
        `{ op: replace, path: /spec/template/spec/containers/0/resources, value: ${resources(r.cpuRequest, r.memoryRequest, 2 * r.cpuRequest >= 1 ? 2 * r.cpuRequest : 1, r.memoryLimit)} }`,
      ]),
      ...patch('HorizontalPodAutoscaler', name, [
        `{ op: replace, path: /spec/minReplicas, value: ${r.min} }`,
        `{ op: replace, path: /spec/maxReplicas, value: ${r.max} }`,
      ]),
    );
  }
  const s = sized.shards;
  lines.push(
    ...patch('StatefulSet', 'git-worker', [
      `{ op: replace, path: /spec/template/spec/containers/0/resources, value: ${resources(s.cpuRequest, s.memoryRequest, s.cpuRequest, s.memoryLimit)} }`,
      `{ op: replace, path: /spec/volumeClaimTemplates/0/spec/resources/requests/storage, value: ${Math.round(POLICY.shardVolumeBytes / GIB)}Gi }`,
    ]),
  );
  return lines.join('\n') + '\n';
}

export const readResults = (root = REPO_ROOT): BenchResults =>
  JSON.parse(readFileSync(join(root, RESULTS), 'utf8')) as BenchResults;

if (require.main === module) {
  const results = readResults();
  writeFileSync(join(REPO_ROOT, DOC), renderDoc(results));
  writeFileSync(join(REPO_ROOT, OVERLAY), renderOverlay(results));
  process.stdout.write(`wrote ${DOC} and ${OVERLAY} from ${RESULTS} (${results.info.date})\n`);
}
