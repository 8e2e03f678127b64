import { resolve } from 'node:path';
import { REPO_ROOT } from '@hub/local';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** One operation the fuzz sends requests to: its method, express path and the parameters it reads. */
export interface FuzzRoute {
  method: Method;
  /** express path below /api/v3 (or from the server root for `root` routes). */
  path: string;
  /** Names of the `:params` in the path, in order. */
  pathParams: string[];
  /** Query or body parameters the route reads (recorded by running its handler, see below). */
  params: string[];
  auth: boolean;
  /** Mounted at the server root rather than under /api/v3 (POST /oauth/token). */
  root?: boolean;
}

interface TableRoute {
  method: Method;
  path: string;
  auth?: boolean;
  handle: (params: unknown, gateway: unknown) => Promise<unknown>;
}

/**
 * The facade's route table, loaded from its own module so that a route added there is fuzzed
 * without a change here: TypeScript sources under jest, the build when run as `npm run fuzz`.
 */
function facadeTable(): { apiRoutes: TableRoute[]; oauthTokenRoute: TableRoute } {
  const underJest = process.env.JEST_WORKER_ID !== undefined;

  return require(resolve(REPO_ROOT, 'rest-facade', underJest ? 'src' : 'dist', 'routes', 'index'));
}

/** A value that answers every property read, call and iteration: what a gateway answer looks like to a handler that only reads it. */
function anything(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, key) => {
      if (key === Symbol.iterator) return function* () {};
      if (key === 'then' || key === 'toJSON') return undefined;
      if (key === Symbol.toPrimitive) return () => 1;
      if (key === 'length' || key === 'total' || key === 'id') return 1;
      return anything();
    },
    apply: () => anything(),
  });
}

/**
 * Runs a handler against a recording stand-in for Params and the gateway, and returns the names
 * it read. Reads after the first gateway call are seen too (the stand-in answers everything);
 * a handler that throws on the stand-in's answer has shown what it reads up to there.
 */
async function readsOf(route: TableRoute): Promise<string[]> {
  const names = new Set<string>();
  const note = (name: string) => {
    names.add(name);
  };
  const recorder = {
    has: (n: string) => (note(n), true),
    sentEmpty: (n: string) => (note(n), false),
    // Digits: an "id or path" parameter read as a string must name a project for the handler to go on.
    string: (n: string) => (note(n), '1'),
    int: (n: string) => (note(n), 1),
    bool: (n: string) => (note(n), true),
    id: (n: string) => (note(n), 1),
    oneOf: (n: string, allowed: readonly string[]) => (note(n), allowed[0]),
    list: (n: string) => (note(n), ['x']),
    window: () => (note('page'), note('per_page'), { page: 1, perPage: 20, offset: 0 }),
    require: (...ns: string[]) => ns.forEach(note),
    linkParams: () => [],
  };
  try {
    await route.handle(recorder, async () => anything());
  } catch {
    // what it read until here is what we wanted
  }
  return [...names];
}

/** Routes served by express routers of their own (streams from the git worker), with what they read. */
const DOWNLOAD_ROUTES: Array<Omit<FuzzRoute, 'pathParams' | 'auth'>> = [
  { method: 'get', path: '/projects/:id/repository/blobs/:sha', params: ['filepath'] },
  { method: 'get', path: '/projects/:id/repository/commits/:sha/blob', params: ['filepath'] },
  { method: 'get', path: '/projects/:id/repository/raw_blobs/:sha', params: [] },
  { method: 'get', path: '/projects/:id/repository/files', params: ['file_path', 'ref'] },
  { method: 'get', path: '/projects/:id/repository/archive', params: ['sha'] },
  { method: 'get', path: '/projects/:id/repository/archive.zip', params: ['sha'] },
  { method: 'get', path: '/projects/:id/repository/archive.tar.bz2', params: ['sha'] },
];

const pathParamsOf = (path: string) => [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);

/** Every operation under /api/v3 (and POST /oauth/token), with the parameters each reads. */
export async function loadRoutes(): Promise<FuzzRoute[]> {
  const { apiRoutes, oauthTokenRoute } = facadeTable();
  const routes: FuzzRoute[] = [];
  for (const route of apiRoutes) {
    const pathParams = pathParamsOf(route.path);
    const params = (await readsOf(route)).filter((name) => !pathParams.includes(name));
    routes.push({ method: route.method, path: route.path, pathParams, params, auth: route.auth !== false });
  }
  for (const route of DOWNLOAD_ROUTES) routes.push({ ...route, pathParams: pathParamsOf(route.path), auth: true });
  routes.push({
    method: 'post',
    path: oauthTokenRoute.path,
    pathParams: [],
    params: await readsOf(oauthTokenRoute),
    auth: false,
    root: true,
  });
  return routes;
}

export const routeKey = (route: Pick<FuzzRoute, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;
