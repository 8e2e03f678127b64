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
  /** Query or body parameters the route reads, as the route declares them. */
  params: string[];
  auth: boolean;
  /** Mounted at the server root rather than under /api/v3 (POST /oauth/token). */
  root?: boolean;
}

interface TableRoute {
  method: Method;
  path: string;
  auth?: boolean;
  /** The parameters the route reads, as it declares them (a facade unit test holds it to that). */
  params?: Record<string, { enum?: readonly string[] }>;
}

/**
 * The facade's route tables, loaded from its own modules so that a route added there is fuzzed
 * without a change here: TypeScript sources under jest, the build when run as `npm run fuzz`.
 */
function facadeTables(): { apiRoutes: TableRoute[]; oauthTokenRoute: TableRoute; downloadRoutes: TableRoute[] } {
  const underJest = process.env.JEST_WORKER_ID !== undefined;
  const routes = resolve(REPO_ROOT, 'rest-facade', underJest ? 'src' : 'dist', 'routes');
  return { ...require(resolve(routes, 'index')), ...require(resolve(routes, 'repository-downloads')) };
}

const pathParamsOf = (path: string) => [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);

/** A route whose path has a parameter of a closed set (an archive's format) as one route per value. */
const expanded = (route: TableRoute): TableRoute[] => {
  const closed = pathParamsOf(route.path).find((name) => route.params?.[name]?.enum);
  if (!closed) return [route];
  const { [closed]: values, ...params } = route.params!;
  return values.enum!.map((value) => ({ ...route, path: route.path.replace(`:${closed}`, value), params }));
};

const fuzzRoute = (route: TableRoute, extra: Partial<FuzzRoute> = {}): FuzzRoute => {
  const pathParams = pathParamsOf(route.path);
  const params = Object.keys(route.params ?? {}).filter((name) => !pathParams.includes(name));
  return { method: route.method, path: route.path, pathParams, params, auth: route.auth !== false, ...extra };
};

/** Every operation under /api/v3 (and POST /oauth/token), with the parameters each reads. */
export async function loadRoutes(): Promise<FuzzRoute[]> {
  const { apiRoutes, oauthTokenRoute, downloadRoutes } = facadeTables();
  return [
    ...[...apiRoutes, ...downloadRoutes].flatMap(expanded).map((route) => fuzzRoute(route)),
    fuzzRoute(oauthTokenRoute, { root: true }),
  ];
}

export const routeKey = (route: Pick<FuzzRoute, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;
