import fc from 'fast-check';
import { junkText, plausible, type Caller, type Placement, type RestInput } from './requests';
import { routeKey, type FuzzRoute } from './routes';
import { hostileNumber, hostileString, valueFor, type Value } from './values';

/**
 * Writes only an admin may make (GitLab 7.14's `authenticated_as_admin!`): root sends their
 * authorised inputs. The actor, owner of `own`, `ownGroup` and `spareGroup`, sends the rest.
 */
const ADMIN_ONLY =
  /^\/(users|hooks|application)(\/|$)|^\/projects\/user\/|^\/projects\/:id\/fork(\/|$)|^\/groups\/:id\/projects\//;

export const authorisedCaller = (route: FuzzRoute): 'root' | 'actor' =>
  ADMIN_ONLY.test(route.path) ? 'root' : 'actor';

// Root's system hooks are global: another test's could be named by any small id. This one names none.
const NO_SYSTEM_HOOK = 2 ** 31 - 1;

/** What a write that deletes or moves its target acts on: the spare records, never `own` (the fuzz writes into it). */
const DISPOSABLE: Record<string, Record<string, Value>> = {
  'DELETE /projects/:id': { id: { ref: 'spareProject.id' } },
  'DELETE /groups/:id': { id: { ref: 'spareGroup.id' } },
  'POST /groups/:id/projects/:project_id': { project_id: { ref: 'spareProject.id' } },
  'DELETE /hooks/:id': { id: NO_SYSTEM_HOOK },
  'POST /hooks/:id/events/:event_id/resend': { id: NO_SYSTEM_HOOK },
};

/**
 * A well-formed value of a parameter for an authorised caller: what `plausible` names, resolved in
 * the authorised scope (the actor's records for the victim's, see requests.ts' Scope).
 */
export function authorisedTarget(route: FuzzRoute, name: string): Value {
  return DISPOSABLE[routeKey(route)]?.[name] ?? plausible(name, route, 'id');
}

/** Text that reads as a positive id: root's hostile path values must not be one, lest they name another test's record. */
const couldNameRecord = (v: Value) => /^\s*\+?0*[1-9]\d{0,9}\s*$/.test(String(v));

const ACTOR_CALLERS: Caller[] = ['actor', 'actor', 'actorQuery', 'actorBearer', 'rootSudoActor'];

/**
 * Inputs to one write route from a caller allowed to make it: every parameter of the route
 * absent, well-formed or hostile, the path naming the authorised target or something hostile, and
 * a body that parses (now and then one that does not). They reach what comes after the
 * authorization, which the outsiders' inputs never do.
 */
export function authorisedInput(route: FuzzRoute): fc.Arbitrary<RestInput> {
  const root = authorisedCaller(route) === 'root';
  const hostile = fc.oneof(hostileNumber, hostileString).filter((v) => !root || !couldNameRecord(v));
  const path = fc.tuple(
    ...route.pathParams.map((name) =>
      fc.record({
        value: fc.oneof(
          { arbitrary: fc.constant(authorisedTarget(route, name)), weight: 4 },
          { arbitrary: hostile, weight: 1 },
        ),
        raw: fc.boolean(),
      }),
    ),
  );
  const params = fc
    .tuple(
      ...route.params.map((name) =>
        fc
          .oneof(
            { arbitrary: fc.constant(null), weight: 1 },
            { arbitrary: fc.constant(authorisedTarget(route, name)), weight: 2 },
            { arbitrary: valueFor(name), weight: 3 },
          )
          .map((value): [string, Value] | null => (value === null ? null : [name, value])),
      ),
    )
    .map((pairs) => pairs.filter((pair): pair is [string, Value] => pair !== null));
  const wellFormed: Placement = route.method === 'get' ? 'query' : 'json';
  const placement = fc.oneof(
    { arbitrary: fc.constant(wellFormed), weight: 6 },
    { arbitrary: fc.constantFrom<Placement>('query', 'form'), weight: 3 },
    { arbitrary: fc.constantFrom<Placement>('invalidJson', 'wrongType', 'jsonScalar'), weight: 1 },
  );
  return fc.record({
    route: fc.constant(route),
    caller: fc.constantFrom<Caller>(...(root ? (['root'] as Caller[]) : ACTOR_CALLERS)),
    path,
    params,
    placement,
    tricks: fc.constant([]),
    junk: junkText,
    rawQuery: fc.constant(null),
    authorised: fc.constant(true),
  });
}

/** Whether an authorised input's body was one the facade parses: only those count as reaching the route. */
export const parsedBody = (placement: Placement) => ['query', 'json', 'form'].includes(placement);
