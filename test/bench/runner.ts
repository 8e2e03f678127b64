import type { BenchOptions } from './options';
import {
  loadRound,
  serialRound,
  settle,
  summariseLoad,
  summariseSerial,
  warmUp,
  type Load,
  type LoadFigures,
  type Probe,
  type SerialFigures,
} from './measure';
import type { Report } from './report';
import type { ProcessSampler } from './sampler';

/**
 * Runs targets and their anchors round by round, alternating (A B A B …), so a change in the
 * machine's other load hits both sides of a ratio alike; samples the stack's processes during
 * each and keeps every figure for results.json.
 */
export class Runner {
  constructor(
    readonly options: BenchOptions,
    private readonly sampler: ProcessSampler,
    private readonly report: Report,
  ) {}

  private keepProcesses(label: string): void {
    this.report.processes[label] = Object.fromEntries(this.sampler.figures(label));
    const counters = this.sampler.serverCounters(label);
    if (counters) this.report.counters[label] = counters;
  }

  /** Fixed concurrency (options.connections unless given), medians over the rounds. */
  async load(
    entries: Array<{ name: string; load: Load; connections?: number; minDuration?: number }>,
  ): Promise<Record<string, LoadFigures>> {
    const rounds: Record<string, Awaited<ReturnType<typeof loadRound>>[]> = {};
    for (const e of entries) {
      process.stdout.write(`  warming ${e.name}\n`);
      await warmUp(e.load, e.connections ?? this.options.connections);
      await settle(e.load);
      rounds[e.name] = [];
    }
    for (let r = 0; r < this.options.rounds; r++) {
      for (const e of entries) {
        const duration = Math.max(this.options.duration, e.minDuration ?? 0);
        const result = await this.sampler.during(e.name, () =>
          loadRound(e.load, { duration, connections: e.connections ?? this.options.connections }),
        );
        await settle(e.load);
        rounds[e.name].push(result);
        process.stdout.write(
          `  ${e.name} round ${r + 1}: ${result.rps.toFixed(1)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.completed} answered, errors ${result.errors}\n`,
        );
      }
    }
    const figures: Record<string, LoadFigures> = {};
    for (const e of entries) {
      figures[e.name] = summariseLoad(rounds[e.name]);
      this.report.record(e.name, { ...figures[e.name], perRound: rounds[e.name] });
      this.keepProcesses(e.name);
    }
    return figures;
  }

  /** One request at a time, each probe for options.serialSeconds per round, after a few warm calls. */
  async serial(entries: Array<{ name: string; probe: Probe; warm?: number }>): Promise<Record<string, SerialFigures>> {
    const rounds: Record<string, Awaited<ReturnType<typeof serialRound>>[]> = {};
    for (const e of entries) {
      rounds[e.name] = [];
      for (let i = 0; i < (e.warm ?? 3); i++) await e.probe();
    }
    for (let r = 0; r < this.options.rounds; r++) {
      for (const e of entries) {
        const result = await this.sampler.during(e.name, () =>
          serialRound(e.probe, { seconds: this.options.serialSeconds }),
        );
        rounds[e.name].push(result);
      }
    }
    const figures: Record<string, SerialFigures> = {};
    for (const e of entries) {
      figures[e.name] = summariseSerial(rounds[e.name]);
      const f = figures[e.name];
      process.stdout.write(
        `  ${e.name}: p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms over ${f.samples} (${f.errors} errors)\n`,
      );
      this.report.record(e.name, f);
      this.keepProcesses(e.name);
    }
    return figures;
  }

  /** Any other timed work (a clone, a first request), sampled under `label`. */
  async timed<T>(label: string, work: () => Promise<T>): Promise<{ ms: number; value: T }> {
    // Timed inside the sampling: reading the data servers' counters around it takes milliseconds too.
    let ms = 0;
    const value = await this.sampler.during(label, async () => {
      const started = performance.now();
      const result = await work();
      ms = performance.now() - started;
      return result;
    });
    this.keepProcesses(label);
    return { ms, value };
  }
}
