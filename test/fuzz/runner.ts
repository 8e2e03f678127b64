import fc from 'fast-check';
import { authorisedInput, parsedBody } from './authorised';
import {
  boundaryVerdict,
  GRAPHQL,
  graphqlBoundaryTable,
  NO_RECORD,
  REST,
  restBoundaryTable,
  type BoundaryGroup,
  type Expectation,
} from './boundary';
import { createConformanceChecker } from '../support/openapi-conformance';
import { call, Hang, send, type WireRequest, type WireResponse } from './http';
import { gqlInput, gqlInternalError, gqlShape, gqlWire, loadOperations, type GqlInput } from './graphql';
import {
  disclosure,
  looksMissing,
  oversizedRefused,
  stackTrace,
  v3Shape,
  VictimSnapshot,
  type Verdict,
} from './oracles';
import { restInput, sendable, sweepInputs, toWire, type RequestMeta, type RestInput } from './requests';
import { loadRoutes, routeKey, type FuzzRoute } from './routes';
import type { World } from './world';

export interface Example {
  oracle: string;
  verdict: string;
  request: string;
  status: number | null;
  body: string;
  /** Where the input came from, to send it again: the seed and run, the sweep, or the boundary table's case. */
  replay: string;
}

/** Per oracle: how many inputs it judged and how many failed it, with the first few failures. */
export class Tally {
  readonly counts = new Map<string, { tried: number; failed: number }>();
  readonly examples: Example[] = [];
  inputs = 0;
  requests = 0;

  constructor(private readonly keepExamples = 5) {}

  judge(oracle: string, verdict: Verdict, context: () => Omit<Example, 'oracle' | 'verdict'>): void {
    const count = this.counts.get(oracle) ?? { tried: 0, failed: 0 };
    count.tried++;
    if (verdict !== null) {
      count.failed++;
      if (
        this.examples.filter((e) => e.oracle === oracle && e.verdict === verdict).length === 0 &&
        this.examples.filter((e) => e.oracle === oracle).length < this.keepExamples
      ) {
        this.examples.push({ oracle, verdict, ...context() });
      }
    }
    this.counts.set(oracle, count);
  }

  get failed(): number {
    return [...this.counts.values()].reduce((sum, c) => sum + c.failed, 0);
  }

  table(): string {
    const rows = [...this.counts].map(
      ([oracle, c]) =>
        `  ${oracle.padEnd(48)} ${String(c.tried).padStart(9)} tried ${String(c.failed).padStart(7)} failed`,
    );
    const examples = this.examples.map(
      (e) =>
        `  ✗ ${e.oracle}: ${e.verdict}\n      ${e.request}\n      → ${e.status ?? 'no answer'} ${e.body}\n      (${e.replay})`,
    );
    return [
      `inputs ${this.inputs}, requests ${this.requests}`,
      ...rows,
      ...(examples.length ? ['failures:', ...examples] : []),
    ].join('\n');
  }
}

export interface RunOptions {
  world: World;
  /** Random inputs in all, shared by the REST routes and the gateway (`graphqlShare` of them). */
  runs: number;
  seed: number;
  /** Inputs in flight at once (each waits for its answers). */
  workers: number;
  timeoutMs: number;
  graphqlShare: number;
  /** Random inputs to each write route from a caller allowed to make it (sent after all others). */
  authorisedPerRoute: number;
  /** Other tests run on the same stack and change its settings and system hooks: leave those out of the snapshot. */
  sharedStack?: boolean;
  /**
   * Root's authorised inputs include PUT /application/settings: only on a stack of the fuzz's own,
   * as they change how the stack answers everyone after the run (and other tests during it).
   */
  changeSettings?: boolean;
  /** Stops generating random inputs after this long (the counts say how many ran); none by default. */
  timeLimitMs?: number;
  progress?: (line: string) => void;
}

export interface FuzzResult {
  rest: Tally;
  graphql: Tally;
  routes: FuzzRoute[];
  /** Per write route: its authorised inputs with a body the facade parsed that were not refused as unauthorised (401, 403; a sign-in's 401 counts). */
  authorisedReached: Map<string, number>;
  /** The write routes that got authorised inputs. */
  authorisedRoutes: FuzzRoute[];
}

const show = (wire: WireRequest) => {
  const body =
    wire.body === undefined
      ? ''
      : ` body(${wire.body.length} B, ${wire.headers['content-type'] ?? 'no type'}): ${String(wire.body).slice(0, 160)}`;
  const headers = Object.keys(wire.headers).filter((h) => h !== 'content-type');
  return `${wire.method} ${wire.path.slice(0, 300)}${wire.path.length > 300 ? '…' : ''} [${headers.join(', ')}]${body}`;
};

const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

async function attempt(origin: string, wire: WireRequest, timeoutMs: number): Promise<WireResponse | Hang> {
  for (let tries = 0; ; tries++) {
    try {
      return await send(origin, wire, timeoutMs);
    } catch (error) {
      if (error instanceof Hang) return error;
      // A kept-alive socket the server closed just as it was reused: once more on a fresh one.
      // A second reset is the server dropping the request, a failure to answer like a hang.
      if (tries === 0 && RESET.has((error as { code?: string }).code ?? '')) continue;
      return new Hang(`no answer: ${(error as Error).message}`);
    }
  }
}

/** Runs `each` over `items`, `workers` at a time, each worker taking the next item as it finishes one. */
async function inPool<T>(items: T[], workers: number, each: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(workers, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await each(items[index], index);
      }
    }),
  );
}

type Answer = WireResponse | Hang | null;
/** A boundary id's case: what its answer must be, and the answer naming an id no record has. */
type BoundaryCheck = { label: string; expect: Expectation; missing: Answer };

/**
 * Runs the fuzz, in this order: the boundary table (every id parameter of every route and
 * operation at its edges), the sweep (every route once, well-formed, against the victim), the
 * random inputs (outsiders over every route, and the gateway), then the authorised inputs to
 * every write route. Each is judged by every oracle. The authorised writes come last: what they
 * change is never what a later comparison reads.
 */
export async function runFuzz(options: RunOptions): Promise<FuzzResult> {
  const { world, timeoutMs } = options;
  const routes = await loadRoutes();
  const operations = loadOperations();
  const allNames = [...new Set(routes.flatMap((r) => r.params))];
  const restArb = fc.oneof(...routes.map((route) => restInput(route, allNames)));
  const gqlArb = gqlInput(operations);
  const snapshot = new VictimSnapshot(world, !options.sharedStack);
  await snapshot.takeBaseline();
  const rest = new Tally();
  const graphql = new Tally();
  const gatewayOrigin = new URL(world.graphqlUrl).origin;
  const authorisedReached = new Map<string, number>();
  const description = await call(world.origin, 'GET', '/api/v3/openapi.json', null);
  const conformance = createConformanceChecker(description.json as never);
  const judgeRest = (
    meta: RequestMeta,
    wire: WireRequest,
    res: WireResponse,
    context: () => Omit<Example, 'oracle' | 'verdict'>,
  ) => {
    judgeAnswer(rest, world, meta, res, context);
    const problems = conformance.check({
      method: wire.method,
      path: wire.path,
      status: res.status,
      headers: res.headers,
      body: res.json === undefined ? undefined : res.text,
    });
    rest.judge('as the OpenAPI description says', problems.length ? problems.join('; ') : null, context);
  };

  const restOne = async (input: RestInput, replay: string, boundary?: BoundaryCheck): Promise<Answer> => {
    if (!input.authorised && !sendable(input)) return null;
    const { wire, meta } = toWire(input, world);
    rest.inputs++;
    const timeout = meta.placement === 'oversized' ? timeoutMs * 3 : timeoutMs;
    const res = await attempt(world.origin, wire, timeout);
    rest.requests++;
    const context = (r: WireResponse | Hang) => () => ({
      request: `${meta.caller} ${show(wire)}`,
      status: r instanceof Hang ? null : r.status,
      body: r instanceof Hang ? r.message : r.text.slice(0, 300),
      replay,
    });
    rest.judge('no hang', res instanceof Hang ? res.message : null, context(res));
    if (res instanceof Hang) return res;
    judgeRest(meta, wire, res, context(res));
    if (boundary) rest.judge('boundary id answered as none', boundaryVerdict(boundary, res, REST), context(res));
    // A sign-in's 401 is its answer to the credentials sent, not a refusal of the caller.
    const refusedCaller = meta.route.auth && (res.status === 401 || res.status === 403);
    if (meta.authorised && meta.write && parsedBody(meta.placement) && !refusedCaller)
      authorisedReached.set(meta.key, (authorisedReached.get(meta.key) ?? 0) + 1);
    if (meta.namesVictim && !meta.privileged) {
      const twin = toWire(input, world, true);
      const other = await attempt(world.origin, twin.wire, timeout);
      rest.requests++;
      if (!(other instanceof Hang)) {
        judgeRest(twin.meta, twin.wire, other, context(other));
        rest.judge('private looks missing', looksMissing(world, res, other), context(res));
      }
    }
    if (meta.write && !meta.privileged && (meta.namesVictim || meta.namesVictimRecords)) {
      rest.judge('refused write changes nothing', await snapshot.compare(meta.key), context(res));
    }
    return res;
  };

  const gqlOne = async (input: GqlInput, replay: string, boundary?: BoundaryCheck): Promise<Answer> => {
    const { wire, meta } = gqlWire(input, operations, world);
    graphql.inputs++;
    const res = await attempt(gatewayOrigin, wire, timeoutMs);
    graphql.requests++;
    const context = () => ({
      request: `${input.caller} ${meta.key}: ${show(wire)}`,
      status: res instanceof Hang ? null : res.status,
      body: res instanceof Hang ? res.message : res.text.slice(0, 300),
      replay,
    });
    graphql.judge('no hang', res instanceof Hang ? res.message : null, context);
    if (res instanceof Hang) return res;
    graphql.judge('no 5xx', res.status >= 500 ? `answered ${res.status}: ${res.text.slice(0, 100)}` : null, context);
    graphql.judge('no internal error', gqlInternalError(res.json), context);
    graphql.judge(
      'JSON errors with messages',
      gqlShape(res.status, res.json, String(res.headers['content-type'] ?? '')),
      context,
    );
    graphql.judge('no stack trace', stackTrace(world, res.text), context);
    graphql.judge(
      'no disclosure',
      disclosure(world, meta.privileged, input.caller === 'root' ? 'root' : 'other', res.text),
      context,
    );
    if (boundary) graphql.judge('boundary id answered as none', boundaryVerdict(boundary, res, GRAPHQL), context);
    if (meta.mutation && !meta.privileged && meta.namesVictim) {
      graphql.judge(
        'refused write changes nothing',
        await snapshot.compare(
          meta.key.replace(/^\S+ /, '') +
            ' members hooks repository merge_request issues snippets labels milestones keys',
        ),
        context,
      );
    }
    return res;
  };

  // Per id parameter, the request naming an id no record has, then each boundary id beside it.
  const table = async <Input>(
    groups: Array<BoundaryGroup<Input>>,
    one: (input: Input, replay: string, boundary?: BoundaryCheck) => Promise<Answer>,
  ) =>
    inPool(groups, options.workers, async (group) => {
      const missing = await one(group.missing, `the boundary table: ${group.name}=${NO_RECORD}`);
      for (const c of group.cases)
        await one(c.input, `the boundary table: ${c.label}`, { label: c.label, expect: c.expect, missing });
    });
  let phase = Date.now();
  const phaseDone = (what: string) => {
    options.progress?.(`${what} in ${((Date.now() - phase) / 1000).toFixed(0)} s`);
    phase = Date.now();
  };
  const restTable = restBoundaryTable(routes);
  await table(restTable, restOne);
  const gqlTable = graphqlBoundaryTable(operations);
  await table(gqlTable, gqlOne);
  phaseDone(`the boundary table: ${restTable.length} REST and ${gqlTable.length} GraphQL id parameters`);

  // Every route once, well-formed, against the victim (and its twin, the missing project).
  const sweep = sweepInputs(routes);
  await inPool(sweep, options.workers, async (input, i) => void (await restOne(input, `the sweep, input ${i}`)));
  phaseDone(`the sweep: ${sweep.length} inputs`);

  const graphqlRuns = Math.round(options.runs * options.graphqlShare);
  const restRuns = options.runs - graphqlRuns;
  let done = 0;
  const started = Date.now();
  const tick = () => {
    done++;
    if (options.progress && done % 1000 === 0) {
      const rate = done / ((Date.now() - started) / 1000);
      options.progress(
        `${done}/${options.runs} inputs, ${rate.toFixed(0)}/s, ${rest.failed + graphql.failed} failures so far`,
      );
    }
  };
  // Each worker runs its own fast-check stream with a seed of its own: the run is reproducible
  // from the seed alone (the same worker count gives the same inputs).
  const share = (total: number, i: number) =>
    Math.floor(total / options.workers) + (i < total % options.workers ? 1 : 0);
  const deadline = options.timeLimitMs === undefined ? Infinity : started + options.timeLimitMs;
  // The REST and GraphQL streams of a worker share its time in proportion to their counts.
  const limit = (fraction: number) =>
    deadline === Infinity
      ? {}
      : {
          interruptAfterTimeLimit: Math.max(1, Math.round((deadline - Date.now()) * fraction)),
          markInterruptAsFailure: false,
        };
  await Promise.all(
    Array.from({ length: options.workers }, async (_, i) => {
      const seed = options.seed + i;
      const replay = (stream: string, run: number) => `seed ${options.seed}, worker ${i}'s ${stream} run ${run}`;
      let run = 0;
      const restRunsHere = share(restRuns, i);
      if (restRunsHere > 0) {
        await fc.check(
          fc.asyncProperty(restArb, async (input) => {
            await restOne(input, replay('REST', run++));
            tick();
            return true;
          }),
          { numRuns: restRunsHere, seed, endOnFailure: true, ...limit(restRuns / options.runs) },
        );
      }
      const gqlRunsHere = share(graphqlRuns, i);
      run = 0;
      if (gqlRunsHere > 0) {
        await fc.check(
          fc.asyncProperty(gqlArb, async (input) => {
            await gqlOne(input, replay('GraphQL', run++));
            tick();
            return true;
          }),
          { numRuns: gqlRunsHere, seed: seed + 1_000_000, endOnFailure: true, ...limit(1) },
        );
      }
    }),
  );

  // Each write route's own stream, seeded by its place in the route table: the same inputs
  // whatever the worker count.
  const authorisedRoutes = routes.filter(
    (route) => route.method !== 'get' && (options.changeSettings || route.path !== '/application/settings'),
  );
  phaseDone(`random inputs: ${options.runs}`);
  await inPool(authorisedRoutes, options.workers, async (route) => {
    const index = routes.indexOf(route);
    let run = 0;
    await fc.check(
      fc.asyncProperty(authorisedInput(route), async (input) => {
        await restOne(input, `seed ${options.seed}, authorised ${routeKey(route)} run ${run++}`);
        return true;
      }),
      { numRuns: options.authorisedPerRoute, seed: options.seed + 2_000_000 + index, endOnFailure: true },
    );
  });
  phaseDone(`authorised inputs: ${options.authorisedPerRoute} to each of ${authorisedRoutes.length} write routes`);
  return { rest, graphql, routes, authorisedReached, authorisedRoutes };
}

function judgeAnswer(
  tally: Tally,
  world: World,
  meta: RequestMeta,
  res: WireResponse,
  context: () => Omit<Example, 'oracle' | 'verdict'>,
): void {
  tally.judge('no 5xx', res.status >= 500 ? `answered ${res.status} to ${meta.key}` : null, context);
  tally.judge('JSON with a v3 message', v3Shape(meta, res), context);
  if (meta.placement === 'oversized') tally.judge('413 over the limit', oversizedRefused(meta, res), context);
  tally.judge('no disclosure', disclosure(world, meta.privileged, meta.caller, res.text), context);
}
