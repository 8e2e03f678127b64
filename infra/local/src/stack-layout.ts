import { CONFIG_TABLE } from '@hub/common';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROCESSES, type ProcessSpec } from './processes';
import { freePort } from './system';

/** One process of a stack: `shard` is 0 for all but the git worker shards beyond the first. */
export interface StackProcess {
  name: string;
  spec: ProcessSpec;
  shard: number;
}

/** The processes a stack runs: each kind's replicas, then the extra git worker shards. */
export function processNames(options: { replicas?: Record<string, number>; shards?: number }): StackProcess[] {
  for (const kind of Object.keys(options.replicas ?? {})) {
    if (!PROCESSES.some((p) => p.name === kind)) throw new Error(`no process kind named ${kind}`);
    if (kind === 'git-worker') throw new Error('git workers are shards, not replicas: ask for shards instead');
  }
  const replicas = PROCESSES.flatMap((spec) =>
    Array.from({ length: Math.max(1, options.replicas?.[spec.name] ?? 1) }, (_, i) => ({
      name: i === 0 ? spec.name : `${spec.name}-${i + 1}`,
      spec,
      shard: 0,
    })),
  );
  const git = PROCESSES.find((p) => p.name === 'git-worker')!;
  const shards = Array.from({ length: Math.max(0, (options.shards ?? 1) - 1) }, (_, i) => ({
    name: `git-worker-${i + 2}`,
    spec: git,
    shard: i + 2,
  }));
  return [...replicas, ...shards];
}

/**
 * The settings every process shares, filled in where `env` leaves them unset: the first of each
 * kind's ports, the secrets, where repositories live.
 */
export async function fillSharedEnv(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  port: (variable: string, fallback: number) => Promise<number>,
) {
  for (const { portVariable } of PROCESSES) await port(portVariable, Number(CONFIG_TABLE[portVariable].fallback));
  // The git worker's second port (gRPC), beside the HTTP one it is health-checked on.
  await port('GIT_WORKER_GRPC_PORT', Number(CONFIG_TABLE.GIT_WORKER_GRPC_PORT.fallback));
  env.PRINCIPAL_SECRET ??= randomBytes(32).toString('base64url');
  // Identity seals private tokens with this key: it must outlive restarts, so it stays with the data.
  env.TOKEN_ENCRYPTION_KEY ??= keptSecret(join(dataDir, 'token-encryption.key'));
  // Repositories live with the rest of this stack's data, never in a folder another stack shares.
  env.REPOS_ROOT ??= join(dataDir, 'repositories');
  env.EXTERNAL_URL ??= `http://localhost:${env.PORT}`;
  // Webhook receivers of a local system run on this machine too (production leaves this off).
  env.HOOKS_ALLOW_LOCAL ??= 'true';
}

/**
 * The settings of every process beyond the first of its kind, and of every shard beyond the
 * first: ports of their own, picked before anything starts, as GIT_WORKER_SHARDS (set in `env`
 * here) names them all.
 */
export async function ownSettings(env: NodeJS.ProcessEnv, names: readonly StackProcess[]) {
  const overrides = new Map<string, NodeJS.ProcessEnv>();
  for (const { name, spec, shard } of names) {
    if (name === spec.name) continue;
    const own: NodeJS.ProcessEnv = { [spec.portVariable]: String(await freePort()) };
    if (shard)
      Object.assign(own, {
        GIT_WORKER_GRPC_PORT: String(await freePort()),
        REPOS_ROOT: `${env.REPOS_ROOT}-shard${shard}`,
      });
    overrides.set(name, own);
  }
  // Locally no load balancer stands in front of a kind's replicas: replica K of a kind calls
  // replica K of each other kind that has one (the K-th facade the K-th gateway and subgraphs),
  // so every replica serves requests and not only the first.
  for (const { name, spec, shard } of names) {
    const k = /-(\d+)$/.exec(name)?.[1];
    if (shard || name === spec.name || !k) continue;
    for (const other of names) {
      if (other.shard || other.spec === spec || other.name !== `${other.spec.name}-${k}`) continue;
      const urlVariable = other.spec.portVariable.replace(/_PORT$/, '_URL');
      if (urlVariable !== other.spec.portVariable && urlVariable in CONFIG_TABLE) {
        overrides.get(name)![urlVariable] = `http://127.0.0.1:${overrides.get(other.name)![other.spec.portVariable]}`;
      }
    }
  }
  if (names.some((n) => n.shard)) {
    const shardOf = (name: string, grpc: string, http: string) => `${name}=127.0.0.1:${grpc};http://127.0.0.1:${http}`;
    env.GIT_WORKER_SHARDS = [
      shardOf('default', env.GIT_WORKER_GRPC_PORT!, env.GIT_WORKER_HTTP_PORT!),
      ...names
        .filter((n) => n.shard)
        .map((n) =>
          shardOf(
            `shard${n.shard}`,
            overrides.get(n.name)!.GIT_WORKER_GRPC_PORT!,
            overrides.get(n.name)!.GIT_WORKER_HTTP_PORT!,
          ),
        ),
    ].join(',');
  }
  return overrides;
}

/** A random secret kept in a file only its owner reads, the same on every start with this data folder. */
function keptSecret(file: string): string {
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
