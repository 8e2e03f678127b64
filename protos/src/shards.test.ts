import { createLogger } from '@hub/common';
import type { GitClients } from './client';
import { createGitShards } from './shards';

/** Fake clients of one shard: each unary call answers which shard took it and the request it got. */
function fakeClients(name: string): GitClients {
  const service = new Proxy(
    {},
    {
      get: (_t, method) => (request: unknown, _options: unknown, callback: (e: null, r: unknown) => void) =>
        callback(null, { shard: name, method, request }),
    },
  );
  return {
    repository: service,
    ref: service,
    blob: service,
    diff: service,
    merge: service,
    commit: service,
    close: () => {},
  } as unknown as GitClients;
}

const SHARDS = {
  default: { grpcAddress: 'a:1', httpUrl: 'http://a:2' },
  second: { grpcAddress: 'b:1', httpUrl: 'http://b:2' },
};
const caller = { caller: 'test', secret: 'x'.repeat(32), logger: createLogger('test', 'silent') };

describe('git shards', () => {
  it('with one shard, sends everything to it without looking anything up', async () => {
    const lookup = jest.fn();
    const shards = createGitShards({
      shards: { default: SHARDS.default },
      caller,
      lookup,
      connect: (_s, name) => fakeClients(name),
    });
    expect(await shards.unary('ref').ListBranches({ repository: { projectId: 7 } })).toMatchObject({
      shard: 'default',
    });
    expect(await shards.storageOf(8)).toBe('default');
    expect(lookup).not.toHaveBeenCalled();
  });

  it("routes each call to the project's shard, looking each project up once however many calls wait on it", async () => {
    const lookup = jest.fn(async (projectId: number) => (projectId % 2 ? 'second' : 'default'));
    const shards = createGitShards({ shards: SHARDS, caller, lookup, connect: (_s, name) => fakeClients(name) });
    const ref = shards.unary('ref');
    const answers = await Promise.all(
      [1, 1, 2, 1, 2].map((projectId) => ref.ListBranches({ repository: { projectId } })),
    );
    expect(answers.map((a) => (a as unknown as { shard: string }).shard)).toEqual([
      'second',
      'second',
      'default',
      'second',
      'default',
    ]);
    await ref.ListTags({ repository: { projectId: 1 } });
    expect(lookup.mock.calls.map(([id]) => id).sort()).toEqual([1, 2]);
  });

  it('remembers shards learned from events, and does not remember a project it could not find', async () => {
    const lookup = jest.fn(async () => null);
    const shards = createGitShards({ shards: SHARDS, caller, lookup, connect: (_s, name) => fakeClients(name) });
    shards.remember(5, 'second');
    expect(await shards.storageOf(5)).toBe('second');
    expect(await shards.storageOf(6)).toBe('default');
    expect(await shards.storageOf(6)).toBe('default');
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('knows a shard without asking only when there is one shard or the project was remembered', async () => {
    const one = createGitShards({
      shards: { default: SHARDS.default },
      caller,
      connect: (_s, name) => fakeClients(name),
    });
    expect(one.knownStorage(9)).toBe('default');
    const lookup = jest.fn(async () => 'second');
    const two = createGitShards({ shards: SHARDS, caller, lookup, connect: (_s, name) => fakeClients(name) });
    expect(two.knownStorage(9)).toBeNull();
    two.remember(9, 'second');
    expect(two.knownStorage(9)).toBe('second');
    expect(two.knownStorage(10)).toBeNull();
    await two.storageOf(10);
    expect(two.knownStorage(10)).toBe('second');
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('sends a project whose shard is unknown to the shard named default (where projects recorded before shards are), wherever it is listed', async () => {
    const lookup = jest.fn(async () => null);
    const listed = { second: SHARDS.second, default: SHARDS.default };
    const shards = createGitShards({ shards: listed, caller, lookup, connect: (_s, name) => fakeClients(name) });
    expect(await shards.storageOf(6)).toBe('default');
    expect(await shards.unary('ref').ListBranches({ repository: { projectId: 6 } })).toMatchObject({
      shard: 'default',
    });
    // Without a shard named default, the first listed.
    const unnamed = createGitShards({
      shards: { second: SHARDS.second, third: SHARDS.default },
      caller,
      lookup,
      connect: (_s, name) => fakeClients(name),
    });
    expect(await unnamed.storageOf(6)).toBe('second');
  });

  it('gives a source repository on another shard its git HTTP URL, and one on the same shard none', async () => {
    const shards = createGitShards({
      shards: SHARDS,
      caller,
      lookup: async (id) => (id === 1 ? 'default' : 'second'),
      connect: (_s, name) => fakeClients(name),
    });
    const repository = shards.unary('repository');
    const across = (await repository.ForkRepository({
      repository: { projectId: 2 },
      source: { projectId: 1 },
    })) as unknown as { shard: string; request: unknown };
    expect(across).toMatchObject({
      shard: 'second',
      request: { repository: { projectId: 2 }, source: { projectId: 1, remoteUrl: 'http://a:2' } },
    });
    const beside = (await shards.unary('merge').CheckMergeability({
      repository: { projectId: 2 },
      source: 'topic',
      sourceRepository: { projectId: 3 },
    })) as unknown as {
      request: { sourceRepository: object };
    };
    expect(beside.request.sourceRepository).toEqual({ projectId: 3 });
    expect(shards.httpUrl('second')).toBe('http://b:2');
    expect(() => shards.on('third')).toThrow(/no git worker shard named "third"/);
  });
});
