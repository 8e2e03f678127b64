import { writeState, type LauncherState } from './leftovers';
import { PROCESSES, startProcess, waitReady, type LogSink, type RunningProcess } from './processes';
import type { StackProcess } from './stack-layout';
import { supervise, type Supervised } from './supervisor';
import { freePort } from './system';

/**
 * The stack's service processes: each started, waited on until ready and supervised from then
 * on (restarted when it dies), its pid recorded in the launcher's state.
 */
export function createStackProcesses(options: {
  dataDir: string;
  state: LauncherState;
  env: NodeJS.ProcessEnv;
  names: readonly StackProcess[];
  overrides: ReadonlyMap<string, NodeJS.ProcessEnv>;
  logs: LogSink;
  log: (line: string) => void;
  onGiveUp?: (name: string) => void;
}) {
  const { dataDir, state, env, names, overrides } = options;
  const supervised = new Map<string, Supervised>();
  const replicas: RunningProcess[] = [];
  /** Records a process's pid, so whoever finds this stack's launcher dead can stop it. */
  const track = (key: string, running: RunningProcess, entry: string) => {
    state.services = state.services.filter((s) => s.name !== key);
    if (running.child.pid) state.services.push({ name: key, pid: running.child.pid, entry });
    writeState(dataDir, state);
  };
  const specOf = (name: string) => names.find((n) => n.name === name)!.spec;
  const urlOf = (name: string) => {
    const spec = specOf(name);
    return `http://127.0.0.1:${overrides.get(name)?.[spec.portVariable] ?? env[spec.portVariable]}`;
  };
  const launch = async (name: string) => {
    const spec = specOf(name);
    const index = PROCESSES.indexOf(spec);
    supervised.set(
      name,
      await supervise({
        name,
        start: () =>
          startProcess({
            name,
            entry: spec.entry,
            env: { ...env, ...spec.env, ...overrides.get(name) },
            logs: options.logs,
            index,
            semiSpaceMiB: spec.semiSpaceMiB,
            heapGrowingPercent: spec.heapGrowingPercent,
          }),
        ready: (running) => waitReady(running, urlOf(name)),
        log: options.log,
        onStart: (running) => track(name, running, spec.entry),
        onGiveUp: options.onGiveUp ?? (() => {}),
      }),
    );
  };

  return {
    urlOf,

    /** Every process, tier by tier: a tier starts once the one before it is ready. */
    async launchAll() {
      for (const tier of [0, 1, 2]) {
        // Every launch of the tier settles before a failure is thrown: one still waiting for its
        // process to get ready would add it to `supervised` after stopAll ran, leaving it (and its
        // readiness polls) running in the caller's process.
        const launched = await Promise.allSettled(names.filter((n) => n.spec.tier === tier).map((n) => launch(n.name)));
        const failed = launched.find((result): result is PromiseRejectedResult => result.status === 'rejected');
        if (failed) throw failed.reason;
      }
    },

    async stopAll() {
      for (const p of replicas) await p.stop();
      for (const s of [...supervised.values()].reverse()) await s.stop();
    },

    processes: () => [...supervised.values()].map((s) => s.current()),
    restarts: (name: string) => supervised.get(name)?.restarts() ?? 0,
    stopProcess: async (name: string) => {
      await supervised.get(name)?.stop();
    },
    restart: async (name: string) => {
      await supervised.get(name)?.stop();
      await launch(name);
    },

    async startReplica(name: string, settings: NodeJS.ProcessEnv = {}) {
      const index = PROCESSES.findIndex((p) => p.name === name);
      const spec = PROCESSES[index];
      const replicaPort = await freePort();
      const running = startProcess({
        name: `${name}-${replicas.length + 2}`,
        entry: spec.entry,
        env: { ...env, ...spec.env, ...settings, [spec.portVariable]: String(replicaPort) },
        logs: options.logs,
        index,
        semiSpaceMiB: spec.semiSpaceMiB,
        heapGrowingPercent: spec.heapGrowingPercent,
      });
      replicas.push(running);
      track(running.name, running, spec.entry);
      const url = `http://127.0.0.1:${replicaPort}`;
      await waitReady(running, url);
      return Object.assign(running, { url });
    },
  };
}
