import { createLogger } from '@hub/common';
import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../context';
import { createMessageReader, type ExecuteLive } from './live-reads';
import type { LiveEntry } from './live-streams';
import type { MessageReadPlan } from './message-reads';

const plan: MessageReadPlan = {
  query: 'query LiveMessages',
  idFields: ['issue', 'actor'],
  selections: [
    { responseKey: 'issue', field: 'issue', alias: 'hub0' },
    { responseKey: 'who', field: 'actor', alias: 'hub1' },
  ],
  variables: { n: 3 },
  key: 'plan',
};
const context = (userId: number) => ({ principal: { userId }, signedPrincipal: `signed ${userId}` }) as GatewayContext;
const entry = (streamId: string): LiveEntry => ({ service: 'notes', streamId, event: null, reads: new Map() });
const logger = createLogger('live-reads-test', 'silent');

/** An execute that answers each id with an object naming it, and records what it was asked. */
function recordingExecute(answer?: (variables: Record<string, unknown>) => Awaited<ReturnType<ExecuteLive>>) {
  const calls: Array<{ variables: Record<string, unknown>; context: GatewayContext }> = [];
  let release: () => void = () => {};
  let held = false;
  const execute: ExecuteLive = async (_query, variables, ctx) => {
    calls.push({ variables, context: ctx });
    if (held) await new Promise<void>((resolve) => (release = resolve));
    if (answer) return answer(variables);
    const objects = (ids: unknown) => (ids as string[]).map((id) => ({ id }));
    return {
      data: {
        hubGate: objects(variables.hubLive_issue),
        hub0: objects(variables.hubLive_issue),
        hub1: objects(variables.hubLive_actor),
      },
    };
  };
  return {
    execute,
    calls,
    hold: () => (held = true),
    release: () => {
      held = false;
      release();
    },
  };
}

describe('createMessageReader', () => {
  it('reads the messages asked for together in one query, each id once, and each entry once per group', async () => {
    const graph = recordingExecute();
    const reader = createMessageReader(graph.execute, logger, 0);
    const [a, b] = [entry('1-0'), entry('2-0')];
    const reads = [
      reader.read('g', plan, context(7), a, { issue: 'I1', actor: 'U1' }),
      reader.read('g', plan, context(7), a, { issue: 'I1', actor: 'U1' }),
      reader.read('g', plan, context(7), b, { issue: 'I1', actor: null }),
    ];
    expect(reads[0]).toBe(reads[1]);
    const [first, , second] = await Promise.all(reads);
    expect(graph.calls).toHaveLength(1);
    expect(graph.calls[0]!.variables).toEqual({ n: 3, hubLive_issue: ['I1'], hubLive_actor: ['U1'] });
    expect(first).toEqual({ visible: true, objects: { issue: { id: 'I1' }, who: { id: 'U1' } } });
    expect(second).toEqual({ visible: true, objects: { issue: { id: 'I1' }, who: null } });
  });

  it('batches what arrives while a query runs into the next one, with the freshest credentials', async () => {
    const graph = recordingExecute();
    const reader = createMessageReader(graph.execute, logger, 0);
    graph.hold();
    const first = reader.read('g', plan, context(7), entry('1-0'), { issue: 'I1', actor: null });
    await new Promise((resolve) => setImmediate(resolve));
    expect(graph.calls).toHaveLength(1);
    const later = [2, 3, 4].map((n) =>
      reader.read('g', plan, { ...context(7), signedPrincipal: `fresh ${n}` }, entry(`${n}-0`), {
        issue: `I${n}`,
        actor: null,
      }),
    );
    graph.release();
    await Promise.all([first, ...later]);
    expect(graph.calls).toHaveLength(2);
    expect(graph.calls[1]!.variables.hubLive_issue).toEqual(['I2', 'I3', 'I4']);
    expect(graph.calls[1]!.context.signedPrincipal).toBe('fresh 4');
  });

  it('keeps groups apart: another principal or plan reads on its own', async () => {
    const graph = recordingExecute();
    const reader = createMessageReader(graph.execute, logger, 0);
    const shared = entry('1-0');
    await Promise.all([
      reader.read('alice', plan, context(1), shared, { issue: 'I1', actor: null }),
      reader.read('bob', plan, context(2), shared, { issue: 'I1', actor: null }),
    ]);
    expect(graph.calls.map((call) => call.context.principal.userId).sort()).toEqual([1, 2]);
  });

  it('tells an invisible gate from an error, and an object’s error from its neighbours’', async () => {
    const graph = recordingExecute(() => ({
      data: {
        hubGate: [null, { id: 'I2' }, null],
        hub0: [null, { id: 'I2' }, null],
        hub1: [null, null],
      },
      errors: [
        { message: 'gone', path: ['hubGate', 0], extensions: { code: 'NOT_FOUND' } },
        { message: 'down', path: ['hubGate', 2], extensions: { code: 'SERVICE_UNAVAILABLE' } },
        { message: 'actor down', path: ['hub1', 1, 'username'], extensions: { code: 'SERVICE_UNAVAILABLE' } },
      ],
    }));
    const reader = createMessageReader(graph.execute, logger, 0);
    const reads = [
      reader.read('g', plan, context(7), entry('1-0'), { issue: 'I1', actor: 'U1' }),
      reader.read('g', plan, context(7), entry('2-0'), { issue: 'I2', actor: 'U2' }),
      reader.read('g', plan, context(7), entry('3-0'), { issue: 'I3', actor: null }),
    ];
    const [gone, seen, down] = await Promise.allSettled(reads);
    expect(gone).toEqual({ status: 'fulfilled', value: { visible: false, objects: { issue: null, who: null } } });
    expect(seen.status).toBe('fulfilled');
    const objects = (seen as PromiseFulfilledResult<{ objects: Record<string, unknown> }>).value.objects;
    expect(objects.issue).toEqual({ id: 'I2' });
    expect(objects.who).toBeInstanceOf(GraphQLError);
    expect((objects.who as GraphQLError).extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(down.status).toBe('rejected');
    expect(((down as PromiseRejectedResult).reason as GraphQLError).message).toBe('down');
  });

  it('fails every read of a batch whose query fails, and goes on with the next batch', async () => {
    let fail = true;
    const graph = recordingExecute();
    const reader = createMessageReader(
      async (query, variables, ctx) => {
        if (fail) throw new Error('gateway stopped');
        return graph.execute(query, variables, ctx);
      },
      logger,
      0,
    );
    await expect(reader.read('g', plan, context(7), entry('1-0'), { issue: 'I1', actor: null })).rejects.toThrow(
      'gateway stopped',
    );
    fail = false;
    await expect(reader.read('g', plan, context(7), entry('2-0'), { issue: 'I2', actor: null })).resolves.toEqual({
      visible: true,
      objects: { issue: { id: 'I2' }, who: null },
    });
  });

  it('queries at most once an interval per group: what comes meanwhile waits for the next query', async () => {
    const graph = recordingExecute();
    const reader = createMessageReader(graph.execute, logger, 300);
    const started = Date.now();
    await reader.read('g', plan, context(7), entry('1-0'), { issue: 'I1', actor: null });
    // At once after a quiet spell.
    expect(graph.calls).toHaveLength(1);
    const later = [2, 3].map((n) =>
      reader.read('g', plan, context(7), entry(`${n}-0`), { issue: `I${n}`, actor: null }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(graph.calls).toHaveLength(1);
    await Promise.all(later);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(graph.calls.map((call) => call.variables.hubLive_issue)).toEqual([['I1'], ['I2', 'I3']]);
    // Another group is not held by this one's interval.
    await reader.read('h', plan, context(8), entry('4-0'), { issue: 'I4', actor: null });
    expect(graph.calls).toHaveLength(3);
  });

  it('asks at most 100 messages of nodes(ids:) at once', async () => {
    const graph = recordingExecute();
    const reader = createMessageReader(graph.execute, logger, 0);
    await Promise.all(
      Array.from({ length: 250 }, (_, n) =>
        reader.read('g', plan, context(7), entry(`${n}-0`), { issue: `I${n}`, actor: null }),
      ),
    );
    expect(graph.calls.map((call) => (call.variables.hubLive_issue as string[]).length)).toEqual([100, 100, 50]);
  });
});
