import { readdirSync, readFileSync } from 'node:fs';
import { CounterReader, type ServerCounters } from './counters';

/**
 * Samples the stack's processes from /proc while a target runs: resident memory (each root process
 * alone and with its descendants, e.g. the git commands a worker spawns or Postgres's backends) and
 * CPU time. CPU is taken as two snapshots (live descendants' time plus the root's reaped children's
 * cutime/cstime), so children that start and exit between samples are still counted; RSS peaks
 * are sampled every `intervalMs`, so a spike shorter than that can be missed. Disk I/O is taken
 * the same way as CPU, from /proc/<pid>/io (a reaped child's counts go to its parent).
 */
export interface ProcessRoot {
  name: string;
  pid: number;
}

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, seconds. */
  cpu: number;
  /** cutime + cstime (children already reaped), seconds. */
  childCpu: number;
  rss: number;
}

export interface GroupFigures {
  /** Peak RSS of the root process alone and of the root with its descendants, bytes. */
  peakRss: number;
  peakTreeRss: number;
  /** Tree RSS when the target started, and the peak's growth over it. */
  startTreeRss: number;
  growth: number;
  cpuSeconds: number;
  /** Bytes the tree read from and wrote to storage (/proc/<pid>/io read_bytes, write_bytes). */
  diskReadBytes: number;
  diskWriteBytes: number;
}

const TICKS = 100; // USER_HZ on Linux
const PAGE = 4096;

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      ppid: Number(f[1]),
      cpu: (Number(f[11]) + Number(f[12])) / TICKS,
      childCpu: (Number(f[13]) + Number(f[14])) / TICKS,
      rss: Number(f[21]) * PAGE,
    };
  } catch {
    return null; // exited between listing and reading
  }
}

/** read_bytes and write_bytes of a process, its reaped children included; zeros when unreadable. */
function readIo(pid: number): { read: number; write: number } {
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return { read: field('read_bytes'), write: field('write_bytes') };
  } catch {
    return { read: 0, write: 0 }; // exited, or another user's process
  }
}

function allStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) stats.set(stat.pid, stat);
  }
  return stats;
}

export interface Snapshot {
  rss: number;
  treeRss: number;
  cpu: number;
  /** Only read when asked (the start and end of a target, not every RSS sample). */
  diskRead?: number;
  diskWrite?: number;
}

function snapshot(roots: ProcessRoot[], withIo = false): Map<string, Snapshot> {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats.values()) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const result = new Map<string, Snapshot>();
  // A root started by another (the stack's processes are this process's children) counts on its own only.
  const rootPids = new Set(roots.map((r) => r.pid));
  for (const root of roots) {
    const own = stats.get(root.pid);
    if (!own) continue;
    let treeRss = 0;
    let cpu = own.childCpu;
    let diskRead = 0;
    let diskWrite = 0;
    const stack = [own];
    while (stack.length) {
      const s = stack.pop()!;
      treeRss += s.rss;
      cpu += s.cpu;
      if (withIo) {
        const io = readIo(s.pid);
        diskRead += io.read;
        diskWrite += io.write;
      }
      stack.push(...(children.get(s.pid) ?? []).filter((child) => !rootPids.has(child.pid)));
    }
    result.set(root.name, { rss: own.rss, treeRss, cpu, ...(withIo ? { diskRead, diskWrite } : {}) });
  }
  return result;
}

export class ProcessSampler {
  private readonly perTarget = new Map<string, Map<string, GroupFigures>>();
  private readonly serverCounts = new Map<string, ServerCounters>();

  constructor(
    private readonly roots: () => ProcessRoot[],
    private readonly counters: CounterReader | null = null,
    private readonly intervalMs = 200,
  ) {}

  /** Tree RSS of every root right now (for the idle figure). */
  now(): Map<string, Snapshot> {
    return snapshot(this.roots());
  }

  /** Runs `work`, sampling throughout; figures of repeated calls with one label accumulate (CPU adds up, peaks are the max). */
  async during<T>(label: string, work: () => Promise<T>): Promise<T> {
    const roots = this.roots();
    const countersBefore = await this.counters?.read();
    const start = snapshot(roots, true);
    const peaks = new Map<string, { rss: number; treeRss: number }>();
    const sample = () => {
      for (const [name, s] of snapshot(roots)) {
        const p = peaks.get(name) ?? { rss: 0, treeRss: 0 };
        peaks.set(name, { rss: Math.max(p.rss, s.rss), treeRss: Math.max(p.treeRss, s.treeRss) });
      }
    };
    const timer = setInterval(sample, this.intervalMs);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      sample();
      const end = snapshot(roots, true);
      const figures = this.perTarget.get(label) ?? new Map<string, GroupFigures>();
      for (const [name, s0] of start) {
        const peak = peaks.get(name) ?? { rss: s0.rss, treeRss: s0.treeRss };
        const s1 = end.get(name) ?? s0;
        const cpu = Math.max(0, s1.cpu - s0.cpu);
        const diskRead = Math.max(0, (s1.diskRead ?? 0) - (s0.diskRead ?? 0));
        const diskWrite = Math.max(0, (s1.diskWrite ?? 0) - (s0.diskWrite ?? 0));
        const before = figures.get(name);
        figures.set(name, {
          peakRss: Math.max(before?.peakRss ?? 0, peak.rss),
          peakTreeRss: Math.max(before?.peakTreeRss ?? 0, peak.treeRss),
          startTreeRss: before?.startTreeRss ?? s0.treeRss,
          growth: Math.max(before?.growth ?? 0, peak.treeRss - s0.treeRss),
          cpuSeconds: (before?.cpuSeconds ?? 0) + cpu,
          diskReadBytes: (before?.diskReadBytes ?? 0) + diskRead,
          diskWriteBytes: (before?.diskWriteBytes ?? 0) + diskWrite,
        });
      }
      this.perTarget.set(label, figures);
      if (this.counters && countersBefore) {
        const delta = CounterReader.delta(countersBefore, await this.counters.read());
        this.serverCounts.set(label, CounterReader.add(this.serverCounts.get(label), delta));
      }
    }
  }

  /** Postgres's and Redis's counts over a label's calls (none without a counter reader). */
  serverCounters(label: string): ServerCounters | undefined {
    return this.serverCounts.get(label);
  }

  figures(label: string): Map<string, GroupFigures> {
    return this.perTarget.get(label) ?? new Map();
  }

  labels(): string[] {
    return [...this.perTarget.keys()];
  }
}
