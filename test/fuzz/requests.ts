import fc from 'fast-check';
import { signPrincipal } from '@hub/common';
import type { WireRequest } from './http';
import { routeKey, type FuzzRoute } from './routes';
import {
  EXTRA_NAMES,
  HOSTILE_REFS,
  groupRef,
  hostileNumber,
  hostileString,
  isFlag,
  isRef,
  projectRef,
  recordRefOf,
  shaRef,
  userRef,
  valueFor,
  type Value,
} from './values';
import type { World } from './world';

/** Who sends a request. Only `root` has access to the victim; every other caller must not. */
export type Caller =
  'actor' | 'actorQuery' | 'actorBearer' | 'rootSudoActor' | 'actorSudoRoot' | 'root' | 'anonymous' | 'badToken';
/** Where the parameters go, and how the body is spoiled. */
export type Placement =
  'query' | 'json' | 'form' | 'invalidJson' | 'wrongType' | 'jsonScalar' | 'badCharset' | 'oversized';
/** Header tricks added on top of the caller's credentials. */
export type Trick =
  | 'forgedPrincipal'
  | 'garbagePrincipal'
  | 'forwarded'
  | 'duplicateToken'
  | 'hostileSudo'
  | 'methodOverride'
  | 'weirdAuthorization';

export interface RestInput {
  route: FuzzRoute;
  caller: Caller;
  path: Array<{ value: Value; raw: boolean }>;
  params: Array<[string, Value]>;
  placement: Placement;
  tricks: Trick[];
  /** A spoiled body's text, or the content type of a wrong one. */
  junk: string;
  /** A hostile query fragment appended as it is (deep brackets, thousands of keys, bad escapes). */
  rawQuery: string | null;
  /** Sent by a caller allowed to do what it asks, to the records of the authorised scope (see Scope). */
  authorised?: boolean;
}

/** What the oracles need to know about a request beyond its answer. */
export interface RequestMeta {
  key: string;
  caller: Caller;
  /** Has access to the victim (root, not acting as someone else). */
  privileged: boolean;
  write: boolean;
  /** Names the victim project anywhere (path, query or body). */
  namesVictim: boolean;
  /** Names any record of the victim or the owner. */
  namesVictimRecords: boolean;
  /** Sent by a caller allowed to do it (RestInput.authorised). */
  authorised: boolean;
  placement: Placement;
  route: FuzzRoute;
}

const INVALID_JSON = [
  '{"a":',
  "{'a':1}",
  '[1,2',
  '{"a":1}}',
  '\u0000',
  'nul',
  '{"a":"\\x41"}',
  '{"__proto__":{"admin":true}',
  '\ufeff{}',
  '{"a":1e99999}',
];
const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'text/html',
  'application/jsonx',
  'application/x-www-form-urlencoded; charset=utf-7',
];
const JSON_SCALARS = ['"text"', '123', 'null', 'true', '[1,2]', '[]', '[{"a":1}]', '""'];
const RAW_QUERIES = [
  `a${'[a]'.repeat(40)}=1`,
  Array.from({ length: 1500 }, (_, i) => `k${i}=1`).join('&'),
  '%',
  '%zz=%zz',
  '=&=&=',
  'page[]=1&page[]=2',
  'per_page[x]=1',
  'private_token[]=x',
  'sudo[]=root',
  '__proto__[admin]=true',
  'constructor[prototype][admin]=true',
  'a=%00',
  '&&&&',
  `q=${'%41'.repeat(3000)}`,
];

function pathValue(route: FuzzRoute, name: string): fc.Arbitrary<Value> {
  const p = route.path;
  const hostile = fc.oneof(hostileNumber, hostileString);
  let likely: fc.Arbitrary<Value>;
  if (name === 'id' && p.startsWith('/users/')) likely = userRef;
  else if (name === 'id' && p.startsWith('/groups/')) likely = groupRef;
  else if (name === 'id' && (p.startsWith('/hooks/') || p.startsWith('/user/keys/')))
    likely = fc.oneof(recordRefOf('hook'), recordRefOf('deployKey'), fc.integer({ min: 1, max: 50 }));
  else if (name === 'id' || name === 'project_id' || name === 'forked_from_id') likely = projectRef;
  else if (name === 'user_id' || name === 'uid') likely = userRef;
  else if (name === 'sha')
    likely = fc.oneof(shaRef, fc.constantFrom<Value>('master', 'feature', 'v1'), fc.constantFrom(...HOSTILE_REFS));
  else if (name === 'branch')
    likely = fc.oneof(fc.constantFrom<Value>('master', 'feature', 'feature/x', 'v1'), fc.constantFrom(...HOSTILE_REFS));
  else if (name === 'query') likely = hostileString;
  else if (name === 'issue_id') likely = recordRefOf('issue');
  else if (name === 'merge_request_id') likely = recordRefOf('mergeRequest');
  else if (name === 'snippet_id') likely = recordRefOf('snippet');
  else if (name === 'note_id')
    likely = fc.oneof(recordRefOf('issueNote'), recordRefOf('mergeRequestNote'), recordRefOf('snippetNote'));
  else if (name === 'hook_id') likely = recordRefOf('hook');
  else if (name === 'milestone_id') likely = recordRefOf('milestone');
  else if (name === 'key_id') likely = recordRefOf('deployKey');
  else likely = fc.integer({ min: 1, max: 50 });
  return fc.oneof({ arbitrary: likely, weight: 4 }, { arbitrary: hostile, weight: 1 });
}

const CALLERS: Caller[] = [
  'actor',
  'actor',
  'actor',
  'actorQuery',
  'actorBearer',
  'rootSudoActor',
  'actorSudoRoot',
  'root',
  'anonymous',
  'badToken',
];
const TRICKS: Trick[] = [
  'forgedPrincipal',
  'garbagePrincipal',
  'forwarded',
  'duplicateToken',
  'hostileSudo',
  'methodOverride',
  'weirdAuthorization',
];

/** What spoils a body (invalidJson, wrongType, jsonScalar) and picks the hostile sudo and Authorization tricks. */
export const junkText = fc.oneof(
  fc.constantFrom(...INVALID_JSON, ...WRONG_TYPES, ...JSON_SCALARS),
  fc.string({ maxLength: 20 }),
);

/** Requests to one route: its parameters present, missing, spoiled or joined by others. */
export function restInput(route: FuzzRoute, allNames: string[]): fc.Arbitrary<RestInput> {
  const names = route.params;
  const chosen = fc.tuple(
    fc.subarray(names),
    fc.subarray(EXTRA_NAMES, { maxLength: 2 }),
    fc.subarray(allNames, { maxLength: 2 }),
  );
  const params = chosen.chain(([own, extra, other]) =>
    fc.tuple(...[...own, ...extra, ...other].map((name) => valueFor(name).map((v): [string, Value] => [name, v]))),
  );
  return fc.record({
    route: fc.constant(route),
    caller: fc.constantFrom(...CALLERS),
    path: fc.tuple(...route.pathParams.map((name) => fc.record({ value: pathValue(route, name), raw: fc.boolean() }))),
    params,
    placement: fc.oneof(
      { arbitrary: fc.constant<Placement>(route.method === 'get' ? 'query' : 'json'), weight: 240 },
      { arbitrary: fc.constantFrom<Placement>('query', 'json', 'form'), weight: 120 },
      { arbitrary: fc.constantFrom<Placement>('invalidJson', 'wrongType', 'jsonScalar', 'badCharset'), weight: 60 },
      // 10 MiB each: one input in about 400.
      { arbitrary: fc.constant<Placement>('oversized'), weight: 1 },
    ),
    tricks: fc.oneof(
      { arbitrary: fc.constant<Trick[]>([]), weight: 5 },
      { arbitrary: fc.subarray(TRICKS, { minLength: 1, maxLength: 2 }), weight: 1 },
    ),
    junk: junkText,
    rawQuery: fc.oneof(
      { arbitrary: fc.constant(null), weight: 12 },
      { arbitrary: fc.constantFrom(...RAW_QUERIES), weight: 1 },
    ),
  });
}

/** Percent-encodes every byte but the unreserved ones (lone surrogates as U+FFFD, as a browser would). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

type Resolved = string | number | boolean | null | Resolved[] | { [key: string]: Resolved };

/**
 * Whose records a request's references name: those it was generated with; the missing project in
 * the victim's place (the twin the runner compares an outsider's answer with); or, for an
 * authorised caller, the actor's and the spare records in place of the victim's, the owner's, the
 * group's and the actor's own account, so that what an allowed write changes is never what the
 * oracles compare against, nor the caller itself.
 */
export type Scope = 'generated' | 'missingTwin' | 'authorised';

const AUTHORISED_STAND_INS: Record<string, string> = {
  victim: 'own',
  owner: 'spare',
  actor: 'spare',
  group: 'ownGroup',
};

/** Looks up world references in a scope (see Scope). */
export function resolver(world: World, scope: Scope, inPath: boolean) {
  const lookup = (name: string): string | number => {
    const [owner, field] = name.split('.');
    if (owner === 'victim' && scope === 'missingTwin' && (field === 'id' || field === 'path'))
      return lookup(`missing.${field}`);
    if (scope === 'authorised' && owner in AUTHORISED_STAND_INS)
      return lookup(`${AUTHORISED_STAND_INS[owner]}.${field}`);
    if (owner === 'root') return field === 'id' ? 1 : 'root';
    if (owner === 'missingUser') return world.missingUserId;
    if (owner === 'owner' || owner === 'actor' || owner === 'spare')
      return (world[owner] as unknown as Record<string, string | number>)[field];
    if (owner === 'group' || owner === 'ownGroup' || owner === 'spareGroup')
      return field === 'id' ? world[owner].id : world[owner].path;
    const project = world[owner as 'victim' | 'visible' | 'own' | 'missing' | 'spareProject'] as unknown as Record<
      string,
      string | number
    >;
    if (field === 'path') return inPath ? (project.encodedPath as string) : (project.fullPath as string);
    return project[field];
  };
  const resolve = (v: Value): Resolved => {
    if (isRef(v)) return lookup(v.ref);
    if (Array.isArray(v)) return v.map(resolve);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    return v;
  };
  return resolve;
}

/** `name=value` pairs as Rack and qs read them: arrays as name[]=, objects as name[key]=. */
function formPairs(name: string, value: Resolved, out: string[]): void {
  if (Array.isArray(value)) for (const item of value) formPairs(`${name}[]`, item, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) formPairs(`${name}[${k}]`, v, out);
  else if (value === null) out.push(pct(name));
  else out.push(`${pct(name)}=${pct(String(value))}`);
}

const encodeForm = (params: Array<[string, Resolved]>) => {
  const out: string[] = [];
  for (const [name, value] of params) formPairs(name, value, out);
  return out.join('&');
};

let oversized: Buffer | null = null;
/** A JSON body just over the facade's 10 MiB limit (made once). */
function oversizedBody(): Buffer {
  oversized ??= Buffer.from(JSON.stringify({ content: 'x'.repeat(10 * 1024 * 1024 + 1024), commit_message: 'big' }));
  return oversized;
}

const refNames = (v: Value, out: string[] = []): string[] => {
  if (isRef(v)) out.push(v.ref);
  else if (Array.isArray(v)) v.forEach((x) => refNames(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => refNames(x, out));
  return out;
};

/** The request on the wire, and what the oracles need to know about it; `twin` names the missing project for the victim. */
export function toWire(input: RestInput, world: World, twin = false): { wire: WireRequest; meta: RequestMeta } {
  const { route } = input;
  const authorised = input.authorised === true;
  const scope: Scope = authorised ? 'authorised' : twin ? 'missingTwin' : 'generated';
  const inPath = resolver(world, scope, true);
  const inParams = resolver(world, scope, false);
  const method = route.method.toUpperCase();
  let path = route.path;
  input.route.pathParams.forEach((name, i) => {
    const { value, raw } = input.path[i];
    const resolved = inPath(value);
    const text =
      typeof resolved === 'string' || typeof resolved === 'number' || typeof resolved === 'boolean'
        ? String(resolved)
        : JSON.stringify(resolved);
    // A reference is encoded already (paths as NAMESPACE%2FNAME); raw text goes as it is when it can.
    const segment = isRef(value) || (raw && /^[\x21-\x7e]*$/.test(text) && !/[?#]/.test(text)) ? text : pct(text);
    path = path.replace(`:${name}`, () => segment);
  });
  const params = input.params.map(([name, value]): [string, Resolved] => [name, inParams(value)]);
  const headers: Record<string, string | string[]> = {};
  const query: string[] = [];
  let body: string | Buffer | undefined;
  const inQuery = input.placement === 'query' || input.placement === 'jsonScalar';
  if (inQuery && params.length) query.push(encodeForm(params));
  switch (input.placement) {
    case 'json':
      headers['content-type'] = 'application/json';
      body = JSON.stringify(Object.fromEntries(params));
      break;
    case 'form':
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = encodeForm(params);
      break;
    case 'invalidJson':
      headers['content-type'] = 'application/json';
      body = INVALID_JSON.includes(input.junk) ? input.junk : `{${input.junk}`;
      break;
    case 'wrongType':
      headers['content-type'] = WRONG_TYPES.includes(input.junk) ? input.junk : 'text/plain';
      body = JSON.stringify(Object.fromEntries(params));
      break;
    case 'jsonScalar':
      headers['content-type'] = 'application/json';
      body = JSON_SCALARS.includes(input.junk) ? input.junk : JSON.stringify(input.junk);
      break;
    case 'badCharset':
      headers['content-type'] = 'application/json; charset=utf-7';
      body = JSON.stringify(Object.fromEntries(params));
      break;
    case 'oversized':
      headers['content-type'] = 'application/json';
      body = oversizedBody();
      break;
  }
  if (input.rawQuery) query.push(input.rawQuery);

  const actor = world.actor;
  switch (input.caller) {
    case 'actor':
      headers['private-token'] = actor.token;
      break;
    case 'actorQuery':
      query.push(`private_token=${pct(actor.token)}`);
      break;
    case 'actorBearer':
      headers.authorization = `Bearer ${world.actorBearer}`;
      break;
    case 'rootSudoActor':
      headers['private-token'] = world.rootToken;
      headers.sudo = actor.username;
      break;
    case 'actorSudoRoot':
      headers['private-token'] = actor.token;
      headers.sudo = 'root';
      break;
    case 'root':
      headers['private-token'] = world.rootToken;
      break;
    case 'badToken':
      headers['private-token'] = 'x'.repeat(20);
      break;
    case 'anonymous':
      break;
  }
  for (const trick of input.tricks) {
    switch (trick) {
      case 'forgedPrincipal':
        // Signed with the real secret: only the gateway may set it, so it must count for nothing here.
        headers['x-hub-principal'] = signPrincipal(
          { userId: 1, username: 'root', isAdmin: true, impersonatorId: null },
          world.secrets.principalSecret,
        );
        break;
      case 'garbagePrincipal':
        headers['x-hub-principal'] =
          `${Buffer.from(JSON.stringify({ userId: 1, isAdmin: true, iat: Date.now() })).toString('base64url')}.AAAA`;
        break;
      case 'forwarded':
        headers['x-forwarded-for'] = '127.0.0.1, 10.0.0.1';
        headers['x-forwarded-host'] = 'evil.example';
        headers['x-forwarded-proto'] = 'javascript';
        headers.forwarded = 'for=127.0.0.1;host=evil.example;proto=https';
        headers['x-real-ip'] = '127.0.0.1';
        headers['x-original-url'] = '/api/v3/projects/all';
        break;
      case 'duplicateToken':
        headers['private-token'] = [
          typeof headers['private-token'] === 'string' ? headers['private-token'] : actor.token,
          'y'.repeat(20),
        ];
        break;
      case 'hostileSudo':
        headers.sudo = ['owner', '../root', '1 OR 1=1', ''.padEnd(300, 'z')][input.junk.length % 4].replace(
          'owner',
          world.owner.username,
        );
        break;
      case 'methodOverride':
        headers['x-http-method-override'] = 'DELETE';
        headers['x-http-method'] = 'DELETE';
        break;
      case 'weirdAuthorization':
        headers.authorization = [
          'Bearer',
          'Bearer  ',
          `Basic ${Buffer.from(`${actor.username}:${actor.password}`).toString('base64')}`,
          `Bearer ${world.actorBearer} extra`,
        ][input.junk.length % 4];
        break;
    }
  }
  const prefix = route.root ? '' : '/api/v3';
  const wire: WireRequest = {
    method,
    path: `${prefix}${path}${query.length ? `?${query.join('&')}` : ''}`,
    headers,
    body,
  };

  // The authorised scope names the actor's and the spare records in the victim's place.
  const refs = authorised
    ? []
    : [...input.path.map((p) => p.value), ...input.params.map(([, v]) => v)].flatMap((v) => refNames(v));
  // The owner sudo trick acts as the owner, who may see the victim: such a request is not an outsider's.
  const sudoOwner =
    input.tricks.includes('hostileSudo') &&
    input.junk.length % 4 === 0 &&
    ['root', 'rootSudoActor'].includes(input.caller);
  const meta: RequestMeta = {
    key: routeKey(route),
    caller: input.caller,
    privileged: input.caller === 'root' || sudoOwner,
    write: route.method !== 'get',
    namesVictim: refs.some((r) => r === 'victim.id' || r === 'victim.path'),
    namesVictimRecords: refs.some((r) => r.startsWith('victim.') || r.startsWith('owner.') || r.startsWith('group.')),
    authorised,
    placement: input.placement,
    route,
  };
  return { wire, meta };
}

/**
 * Whether to send an input at all: root only reads (its writes would change the world the oracles
 * compare against), and nobody deletes the actor's own project (the fuzz writes into it).
 */
export function sendable(input: RestInput): boolean {
  if (input.caller === 'root' && input.route.method !== 'get') return false;
  // Root acting as the owner (the hostile sudo trick's first name) may change the victim's world.
  if (
    input.caller === 'rootSudoActor' &&
    input.tricks.includes('hostileSudo') &&
    input.junk.length % 4 === 0 &&
    input.route.method !== 'get'
  )
    return false;
  const names = input.path.map((p) => (isRef(p.value) ? p.value.ref : ''));
  if (
    input.route.method === 'delete' &&
    input.route.path === '/projects/:id' &&
    names.some((n) => n.startsWith('own.'))
  )
    return false;
  return true;
}

const RECORD_OF_PARAM: Record<string, string> = {
  issue_id: 'issue',
  merge_request_id: 'mergeRequest',
  snippet_id: 'snippet',
  hook_id: 'hook',
  milestone_id: 'milestone',
  key_id: 'deployKey',
};

/** A well-formed value for a parameter, naming the victim's records where it names any. */
export function plausible(name: string, route: FuzzRoute, project: 'id' | 'path'): Value {
  const r = (name: string): Value => ({ ref: name });
  if (name === 'id' && route.path.startsWith('/users/')) return r('owner.id');
  if (name === 'id' && route.path.startsWith('/groups/')) return r('group.id');
  if (name === 'id' && (route.path.startsWith('/hooks/') || route.path.startsWith('/user/keys/'))) return 1;
  if (name === 'id' || name === 'project_id' || name === 'forked_from_id' || name === 'target_project_id')
    return r(`victim.${project}`);
  if (name === 'user_id' || name === 'uid' || name === 'assignee_id') return r('owner.id');
  if (name === 'group_id') return r('group.id');
  if (name === 'note_id')
    return route.path.includes('/snippets/')
      ? r('victim.snippetNote')
      : route.path.includes('/issues/')
        ? r('victim.issueNote')
        : r('victim.mergeRequestNote');
  if (RECORD_OF_PARAM[name]) return r(`victim.${RECORD_OF_PARAM[name]}`);
  if (name === 'sha') return r('victim.sha');
  if (['ref', 'from', 'ref_name', 'branch', 'branch_name', 'target_branch', 'default_branch'].includes(name))
    return 'master';
  if (['to', 'source_branch'].includes(name)) return 'feature';
  if (['path', 'file_path', 'filepath'].includes(name)) return 'README.md';
  if (name === 'page') return 1;
  if (name === 'per_page') return 20;
  if (name === 'access_level') return 30;
  if (name === 'visibility_level') return 0;
  if (name === 'url') return 'http://127.0.0.1:9/sweep';
  if (name === 'state_event') return 'close';
  if (name === 'event_id' || name === 'iid' || name === 'line') return 1;
  if (name === 'line_type') return 'new';
  if (name === 'due_date') return '2030-01-01';
  if (name === 'color') return '#ff0000';
  if (name === 'encoding') return 'text';
  if (isFlag(name)) return true;
  if (name === 'email') return 'sweep@fuzz.example';
  if (name === 'password') return 'sweep-password';
  if (name === 'state') return 'all';
  if (name === 'order_by') return 'created_at';
  if (name === 'sort') return 'desc';
  return 'sweep';
}

/**
 * One well-formed request per route and form of the project's name (id, NAMESPACE%2FNAME) from
 * the actor, every path parameter naming the victim's records: with the twin the runner sends
 * for the missing project, every route is compared at least once, not only those the random
 * inputs happen to reach with a record that exists.
 */
export function sweepInputs(routes: FuzzRoute[]): RestInput[] {
  const inputs: RestInput[] = [];
  for (const route of routes) {
    if (
      !route.pathParams.some((n) => n === 'id' || n === 'project_id' || n === 'forked_from_id') ||
      route.path.startsWith('/users/') ||
      route.path.startsWith('/groups/') ||
      route.path.startsWith('/hooks/') ||
      route.path.startsWith('/user/')
    )
      continue;
    for (const project of ['id', 'path'] as const) {
      inputs.push({
        route,
        caller: 'actor',
        path: route.pathParams.map((name) => ({ value: plausible(name, route, project), raw: false })),
        params: route.params.map((name): [string, Value] => [name, plausible(name, route, project)]),
        placement: route.method === 'get' ? 'query' : 'json',
        tricks: [],
        junk: '',
        rawQuery: null,
      });
    }
  }
  return inputs;
}
