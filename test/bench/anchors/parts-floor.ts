import { join } from 'node:path';
import { REPO_ROOT, type Stack } from '@hub/local';
import { startReplaySubgraph, type ReplaySubgraph } from './replay-subgraph';

/** The subgraphs the measured routes ask (GET /projects/:id, the list, tree, compare). */
const REPLAYED = [
  { name: 'projects', urlVariable: 'PROJECTS_URL' },
  { name: 'membership', urlVariable: 'MEMBERSHIP_URL' },
  { name: 'repository', urlVariable: 'REPOSITORY_URL' },
] as const;

export interface PartsFloor {
  /** The floor facade's /api/v3. */
  restUrl: string;
  /** Its processes, for the sampler: the facade replica and each stand-in. */
  pids: Array<{ name: string; pid: number }>;
  stop: () => Promise<void>;
}

/**
 * Another facade of the stack (its gateway embedded, credentials from the real identity) whose
 * projects, membership and repository subgraphs are replay stand-ins (see replay-subgraph.ts): the
 * route's hops and every named part on them, without the work behind the parts.
 */
export async function startPartsFloor(stack: Stack): Promise<PartsFloor> {
  const standIns: Array<ReplaySubgraph & { name: string }> = [];
  const stop = async () => {
    await Promise.all(standIns.map((s) => s.stop()));
  };
  try {
    for (const { name } of REPLAYED) {
      const standIn = await startReplaySubgraph({
        service: name,
        sdlPath: join(REPO_ROOT, 'services', name, 'src', 'schema.graphql'),
        upstream: stack.urls[name],
        principalSecret: stack.env.PRINCIPAL_SECRET!,
      });
      standIns.push({ ...standIn, name });
    }
    const facade = await stack.startReplica(
      'rest-facade',
      Object.fromEntries(REPLAYED.map(({ urlVariable }, i) => [urlVariable, standIns[i].url])),
    );
    return {
      restUrl: `${facade.url}/api/v3`,
      pids: [
        { name: 'floor rest-facade', pid: facade.child.pid! },
        ...standIns.map((s) => ({ name: `floor ${s.name}`, pid: s.pid })),
      ],
      stop: async () => {
        await facade.stop();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Fails unless the floor answers `path` as the stack does (same status, same JSON): a floor that
 * answered something else would measure something else.
 */
export async function assertSameAnswer(
  stackRestUrl: string,
  floor: PartsFloor,
  path: string,
  headers: Record<string, string>,
): Promise<void> {
  const read = async (base: string) => {
    const response = await fetch(base + path, { headers });
    return { status: response.status, body: await response.text() };
  };
  const [real, replayed] = [await read(stackRestUrl), await read(floor.restUrl)];
  if (
    real.status !== replayed.status ||
    JSON.stringify(JSON.parse(real.body)) !== JSON.stringify(JSON.parse(replayed.body))
  ) {
    throw new Error(
      `the parts floor answers ${path} otherwise: ${replayed.status} ${replayed.body.slice(0, 300)} (the stack: ${real.status} ${real.body.slice(0, 300)})`,
    );
  }
}
