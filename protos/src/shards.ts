import { createLogger, type GitShard } from '@hub/common';
import { createGitClients, promised, type GitCaller, type GitClients, type UnaryMethods } from './client';

type ServiceName = Exclude<keyof GitClients, 'close'>;

/** How many projects' shards a process remembers (a shard never changes: no move is offered). */
const REMEMBERED = 100_000;

/**
 * The git worker shards (as Gitaly storages) and the way to each project's: every call about a
 * repository goes to the shard recorded with its project. A process learns a project's shard once
 * (its `lookup`, or an event that carried it) and keeps it, since it never changes. With one shard
 * nothing is looked up.
 */
export interface GitShards {
  /** The shard names, in configured order. */
  names: readonly string[];
  /** The clients of a named shard. */
  on(storage: string): GitClients;
  /** The git HTTP URL of a named shard (the facade's clone and push proxy). */
  httpUrl(storage: string): string;
  /** The shard of a project's repository. */
  storageOf(projectId: number): Promise<string>;
  /** Records a project's shard learned from elsewhere (an event, a query that carried it). */
  remember(projectId: number, storage: string): void;
  /** The project's shard when it is known without asking (one shard, or remembered); else null. */
  knownStorage(projectId: number): string | null;
  /**
   * A service's unary methods, each call sent to the shard of `request.repository`. A source
   * repository in the request (a fork's source, a merge request's source fork) on another shard
   * gets that shard's git HTTP URL as `remote_url`, so the worker fetches it from there.
   */
  unary<K extends ServiceName>(service: K, timeoutMs?: number): UnaryMethods<GitClients[K]>;
  close(): void;
}

export function createGitShards(options: {
  shards: Record<string, GitShard>;
  caller: GitCaller;
  /** The shard recorded with a project; null when unknown (then the fallback shard, not remembered). */
  lookup?: (projectId: number) => Promise<string | null>;
  /** Clients of one shard (tests give their own). */
  connect?: (shard: GitShard, name: string) => GitClients;
}): GitShards {
  const names = Object.keys(options.shards);
  // Projects recorded before shards are on the one named default (projects' migration 0006), so a
  // project whose shard is unknown goes there; without one, to the first listed.
  const fallback = names.includes('default') ? 'default' : names[0];
  const connect = options.connect ?? ((shard: GitShard) => createGitClients(shard.grpcAddress, options.caller));
  const clients = new Map<string, GitClients>();
  const known = new Map<number, string>();
  const pending = new Map<number, Promise<string>>();

  const shardOf = (storage: string): GitShard => {
    const shard = options.shards[storage];
    if (!shard) throw new Error(`no git worker shard named "${storage}" (GIT_WORKER_SHARDS names ${names.join(', ')})`);
    return shard;
  };
  const on = (storage: string): GitClients => {
    let made = clients.get(storage);
    if (!made) {
      made = connect(shardOf(storage), storage);
      clients.set(storage, made);
    }
    return made;
  };
  const remember = (projectId: number, storage: string) => {
    if (known.size >= REMEMBERED) known.delete(known.keys().next().value!);
    known.set(projectId, storage);
  };
  const storageOf = (projectId: number): Promise<string> => {
    if (names.length === 1) return Promise.resolve(fallback);
    const storage = known.get(projectId);
    if (storage) return Promise.resolve(storage);
    let lookup = pending.get(projectId);
    if (!lookup) {
      lookup = (options.lookup ? options.lookup(projectId) : Promise.resolve(null))
        .then((found) => {
          if (found) remember(projectId, found);
          return found ?? fallback;
        })
        .finally(() => pending.delete(projectId));
      pending.set(projectId, lookup);
    }
    return lookup;
  };

  const promisedOn = new Map<string, Map<string, unknown>>();
  const methodsOf = <K extends ServiceName>(
    storage: string,
    service: K,
    timeoutMs?: number,
  ): UnaryMethods<GitClients[K]> => {
    const key = `${service}:${timeoutMs ?? ''}`;
    let byService = promisedOn.get(storage);
    if (!byService) promisedOn.set(storage, (byService = new Map()));
    let methods = byService.get(key) as UnaryMethods<GitClients[K]> | undefined;
    if (!methods) byService.set(key, (methods = promised(on(storage)[service], timeoutMs)));
    return methods;
  };

  /** The request with `remote_url` on each source repository held by another shard than `storage`. */
  const withRemotes = async (request: Record<string, unknown>, storage: string) => {
    const sources = Object.entries(request).filter(
      ([field, value]) =>
        field !== 'repository' && typeof (value as { projectId?: unknown } | null)?.projectId === 'number',
    );
    if (sources.length === 0) return request;
    const routed = { ...request };
    for (const [field, value] of sources) {
      const source = value as { projectId: number };
      const sourceStorage = await storageOf(source.projectId);
      if (sourceStorage !== storage) routed[field] = { ...source, remoteUrl: shardOf(sourceStorage).httpUrl };
    }
    return routed;
  };

  return {
    names,
    on,
    httpUrl: (storage) => shardOf(storage).httpUrl,
    storageOf,
    remember,
    knownStorage: (projectId) => (names.length === 1 ? fallback : (known.get(projectId) ?? null)),
    unary: <K extends ServiceName>(service: K, timeoutMs?: number) => {
      if (names.length === 1) return methodsOf(fallback, service, timeoutMs);
      return new Proxy({} as UnaryMethods<GitClients[K]>, {
        get: (_target, method) => async (request: Record<string, unknown>) => {
          const projectId = (request.repository as { projectId?: number } | undefined)?.projectId;
          const storage = typeof projectId === 'number' ? await storageOf(projectId) : fallback;
          const methods = methodsOf(storage, service, timeoutMs) as Record<
            string | symbol,
            (request: unknown) => Promise<unknown>
          >;
          return methods[method](await withRemotes(request, storage));
        },
      });
    },
    close: () => clients.forEach((c) => c.close()),
  };
}

/** One shard, `default`, over clients already made (the subgraph tests' fakes). */
export const gitShardsOver = (clients: GitClients): GitShards =>
  createGitShards({
    shards: { default: { grpcAddress: 'in-process:0', httpUrl: 'http://in-process' } },
    caller: { caller: 'test', secret: '', logger: createLogger('test', 'silent') },
    connect: () => clients,
  });
