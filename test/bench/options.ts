/** `npm run bench -- [options]`: how long and how hard each target is driven, and how big the seed is. */
export interface BenchOptions {
  /** Seconds per autocannon round. */
  duration: number;
  connections: number;
  /** Rounds per target; a figure is the median over them, target and anchor alternating. */
  rounds: number;
  /** Seconds per round of one-at-a-time timing (at least `minSamples` requests either way). */
  serialSeconds: number;
  /** Skips the 100,000-project top-up and shortens every run (a smoke run of the whole instrument). */
  quick: boolean;
  /** Projects seeded for the 100-per-page list (the 2,000) and the large step (100,000). */
  listProjects: number;
  largeProjects: number;
  /** Commits of the generated repository, MiB of incompressible files in its head tree, MiB of older versions. */
  commits: number;
  headMiB: number;
  historyMiB: number;
  /** MiB of files in the tree of the large archive (the 1 GiB). */
  archiveMiB: number;
  /** Scenarios to run (`--only projects,repository`), all when empty: a shorter loop while working on one path. */
  only: string[];
}

/** The scenarios of a run, in the order they run. */
export const SCENARIOS = [
  'projects',
  'repository',
  'backup',
  'large-archive',
  'webhooks',
  'subscriptions',
  'huge-keys',
] as const;

function scenariosOf(argv: string[]): string[] {
  const i = argv.indexOf('--only');
  if (i < 0) return [];
  const names = (argv[i + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (!names.length || unknown.length)
    throw new Error(`--only wants some of ${SCENARIOS.join(', ')}, got ${argv[i + 1]}`);
  return names;
}

export function parseOptions(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const arg = (name: string, fallback: number) => {
    const i = argv.indexOf(`--${name}`);
    if (i < 0) return fallback;
    const value = Number(argv[i + 1]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} wants a positive number, got ${argv[i + 1]}`);
    return value;
  };
  return {
    duration: arg('duration', quick ? 3 : 10),
    connections: arg('connections', 32),
    rounds: arg('rounds', quick ? 1 : 3),
    serialSeconds: arg('serial-seconds', quick ? 1 : 3),
    quick,
    listProjects: arg('list-projects', 2_000),
    largeProjects: arg('large-projects', 100_000),
    commits: arg('commits', 2_500),
    headMiB: arg('head-mib', 25),
    historyMiB: arg('history-mib', 10),
    archiveMiB: arg('archive-mib', quick ? 64 : 1024),
    only: scenariosOf(argv),
  };
}

/** The command line that reproduces a run, for the report. */
export const commandLine = (argv: string[]) => ['npm run bench', ...(argv.length ? ['--', ...argv] : [])].join(' ');
