import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { ServerCounters } from './counters';
import type { GroupFigures } from './sampler';

/** One line of the table: what we measured, the anchor beside it, their ratio, and the target. */
export interface Row {
  path: string;
  figure: string;
  anchor: string;
  ratio: string;
  goal: string;
  verdict: Verdict;
  /** Place in the table (rows are measured in another order). */
  order: number;
}

export type Verdict = 'met' | 'not met' | '—' | 'not available';

export const fmtRate = (rps: number) =>
  Number.isFinite(rps) ? `${Math.round(rps).toLocaleString('en-US')} req/s` : 'n/a';
export const fmtMs = (ms: number) =>
  !Number.isFinite(ms) ? 'n/a' : ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(ms >= 10 ? 1 : 2)} ms`;
export const fmtMBps = (bytesPerSecond: number) =>
  Number.isFinite(bytesPerSecond) ? `${(bytesPerSecond / 1e6).toFixed(1)} MB/s` : 'n/a';
/** Two decimals, or two significant digits below 0.1 (a ratio against the memory server can be 0.003×). */
export const fmtRatio = (ratio: number) =>
  !Number.isFinite(ratio) ? 'n/a' : `${ratio >= 0.1 || ratio === 0 ? ratio.toFixed(2) : ratio.toPrecision(2)}×`;
export const fmtBytes = (bytes: number) => {
  if (!Number.isFinite(bytes)) return 'n/a';
  const mib = bytes / (1024 * 1024);
  return mib >= 1024 ? `${(mib / 1024).toFixed(2)} GiB` : `${mib.toFixed(0)} MiB`;
};

/** met when every condition holds; an unmeasured (NaN) figure is never met. */
export const verdict = (...conditions: boolean[]): Verdict => (conditions.every(Boolean) ? 'met' : 'not met');

export interface RunInfo {
  command: string;
  date: string;
  node: string;
  cores: number;
  cpuModel: string;
  memory: string;
  quick: boolean;
  durationSeconds: number;
  /** 1-minute load average when the run started and ended (the machine is shared). */
  loadStart: number;
  loadEnd: number;
}

export const loadAverage = () => Number(loadavg()[0].toFixed(1));

export function machineInfo(): Pick<RunInfo, 'node' | 'cores' | 'cpuModel' | 'memory'> {
  return {
    node: process.version,
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memory: fmtBytes(totalmem()),
  };
}

export class Report {
  readonly rows: Row[] = [];
  readonly raw: Record<string, unknown> = {};
  readonly processes: Record<string, Record<string, GroupFigures>> = {};
  /** Postgres's and Redis's counts during each target (counters.ts). */
  readonly counters: Record<string, ServerCounters> = {};
  readonly notes: string[] = [];

  row(row: Row): void {
    this.rows.push(row);
    process.stdout.write(`  ${row.path}: ${row.figure} | ${row.anchor} | ${row.ratio} | ${row.verdict}\n`);
  }

  note(text: string): void {
    this.notes.push(text);
    process.stdout.write(`  note: ${text}\n`);
  }

  record(name: string, figures: unknown): void {
    this.raw[name] = figures;
  }

  table(): string {
    const rows = [...this.rows].sort((a, b) => a.order - b.order);
    return markdownTable(
      ['path', 'measured', 'anchor in the same run', 'ratio', "issue's target", 'verdict'],
      rows.map((r) => [r.path, r.figure, r.anchor, r.ratio, r.goal, r.verdict]),
    );
  }

  processTable(): string {
    const rows = Object.entries(this.processes).map(([label, byProcess]) => {
      const worst = Object.entries(byProcess).sort((a, b) => b[1].growth - a[1].growth)[0];
      const cpu = Object.entries(byProcess)
        .filter(([, f]) => f.cpuSeconds >= 0.1)
        .sort((a, b) => b[1].cpuSeconds - a[1].cpuSeconds)
        .map(([name, f]) => `${name} ${f.cpuSeconds.toFixed(1)}`)
        .join(', ');
      return [
        label,
        worst ? `${worst[0]} +${fmtBytes(worst[1].growth)}` : '—',
        peakOf(byProcess, 'git-worker'),
        peakOf(byProcess, 'repository'),
        cpu || '—',
      ];
    });
    return markdownTable(
      [
        'target',
        'largest RSS growth (process with children)',
        'git-worker peak (+children)',
        'repository peak',
        'CPU seconds by process (≥ 0.1)',
      ],
      rows,
    );
  }

  write(dir: string, info: RunInfo): void {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'results.json'),
      JSON.stringify(
        {
          info,
          rows: this.rows,
          notes: this.notes,
          figures: this.raw,
          processes: this.processes,
          counters: this.counters,
        },
        null,
        2,
      ) + '\n',
    );
    const md = [
      '# Benchmark results (issue 14)',
      '',
      `One run of \`${info.command}\` on ${info.date}${info.quick ? ' — a **--quick** run (shorter rounds, one round each, no 100,000-project step)' : ''}.`,
      `Machine: ${info.cores} cores (${info.cpuModel}), ${info.memory} RAM, Node ${info.node}; the whole stack, the load generator and the anchors on it. The run took ${Math.round(info.durationSeconds / 60)} min; the 1-minute load average was ${info.loadStart} at the start and ${info.loadEnd} at the end (the machine is shared with other work).`,
      "Ratios are within this run (targets and anchors alternate round by round); absolute figures move with the machine's other load.",
      "Ratios read as the issue's table: time ratios are ours ÷ anchor (lower is better), throughput ratios are ours ÷ anchor (higher is better).",
      '',
      this.table(),
      '',
      '## Processes during each target',
      'Peak RSS is sampled every 200 ms from /proc, each process with its descendants (the git commands a worker spawns; Postgres with its backends, so its shared buffers count once per backend). CPU seconds are user + system over the target, children included; `bench` is this process: the load generator and the git CLI anchors it spawns.',
      '',
      this.processTable(),
      '',
      ...(this.notes.length ? ['## Notes', '', ...this.notes.map((n) => `- ${n}`), ''] : []),
      "Raw figures (every round's medians, per-process peaks and CPU) are in `bench/results.json`.",
      '',
    ].join('\n');
    writeFileSync(join(dir, 'RESULTS.md'), md);
  }
}

function peakOf(byProcess: Record<string, GroupFigures>, name: string): string {
  const f = byProcess[name];
  return f ? `${fmtBytes(f.peakRss)} (${fmtBytes(f.peakTreeRss)})` : '—';
}

export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
