import type { Stack } from '@hub/local';
import type { BenchApi } from '../seed/api';
import type { Report } from '../report';
import type { Runner } from '../runner';
import type { Snapshot } from '../sampler';

/** What every scenario gets from the composition root. */
export interface BenchContext {
  stack: Stack;
  /** The non-admin bench user the project reads are made as (it ends up with 100,000 projects). */
  user: BenchApi & { userId: number };
  /** Another non-admin user, made on demand (the repository reads are made as one with one project). */
  newUser: (username: string) => Promise<BenchApi & { userId: number }>;
  runner: Runner;
  report: Report;
  /** A temp folder of this run (removed at the end). */
  work: string;
  /** Adds a process (an anchor server) to the ones sampled. */
  sample: (name: string, pid: number) => void;
  /** RSS and CPU of every sampled process right now, by name (a figure outside any target). */
  processes: () => Map<string, Snapshot>;
  log: (line: string) => void;
}
