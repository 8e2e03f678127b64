import { call, type WireResponse } from './http';
import type { RequestMeta } from './requests';
import type { World } from './world';

/** What must hold for every answer, named as the figures print them. */
export const REST_ORACLES = [
  'no 5xx',
  'no hang',
  'JSON with a v3 message',
  'as the OpenAPI description says',
  '413 over the limit',
  'no disclosure',
  'refused write changes nothing',
  'private looks missing',
] as const;
export const GRAPHQL_ORACLES = [
  'no 5xx',
  'no hang',
  'JSON errors with messages',
  'no stack trace',
  'no disclosure',
  'refused write changes nothing',
] as const;
export type Oracle = (typeof REST_ORACLES)[number] | (typeof GRAPHQL_ORACLES)[number];

/** One oracle's verdict on one input: null when it held. */
export type Verdict = string | null;

// Answers that are bytes, not JSON, by design (raw files, archives, a snippet's code).
const RAW_ROUTE = /\/(raw|raw_blobs|blobs|blob|archive)(\/|$|\.)|\/archive\./;

/** Errors carry a v3 `message`; successes are JSON except the raw routes. OAuth errors have their own shape. */
export function v3Shape(meta: RequestMeta, res: WireResponse): Verdict {
  const json = res.json as Record<string, unknown> | undefined;
  const contentType = String(res.headers['content-type'] ?? '');
  if (res.status >= 400) {
    if (!contentType.includes('application/json')) return `error ${res.status} as ${contentType || 'no content type'}`;
    if (!json || typeof json !== 'object' || Array.isArray(json))
      return `error ${res.status} body is not a JSON object`;
    if (meta.route.root && typeof json.error === 'string') return null;
    const message = json.message;
    if (typeof message !== 'string' && (typeof message !== 'object' || message === null))
      return `error ${res.status} without a message`;
    return null;
  }
  // No archive is empty, not even of an empty tree: an empty 200 is an error answered as success.
  if (/archive/.test(meta.route.path) && res.status === 200 && res.text.length === 0) return 'an empty 200 archive';
  if (RAW_ROUTE.test(meta.route.path)) return null;
  if (!contentType.includes('application/json') || json === undefined)
    return `${res.status} answered ${contentType || 'no content type'}, not JSON`;
  return null;
}

export function oversizedRefused(meta: RequestMeta, res: WireResponse): Verdict {
  if (meta.placement !== 'oversized') return null;
  // Headers over their own limit are refused first (431), before the body is read.
  if (res.status !== 413 && res.status !== 431) return `a body over the limit answered ${res.status}`;
  const message = (res.json as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message.startsWith(String(res.status))
    ? null
    : `${res.status} without a v3 message: ${res.text.slice(0, 100)}`;
}

const HOST_FILE = [
  /root:[x*!]?:0:0:/,
  /daemon:[x*]:1:1:/,
  /\bPG_VERSION\b/,
  /postmaster\.pid/,
  /pnpm-workspace\.yaml/,
  /BEGIN [A-Z ]*PRIVATE KEY/,
];
const STACK = [/\n\s+at [^\n]+:\d+:\d+\)?/, /node:internal\//, /"stacktrace"/, /\/node_modules\//];

/** Nothing of the host (files, paths, stack traces, secrets) and, for an outsider, nothing of the victim. */
export function disclosure(world: World, privileged: boolean, caller: string, text: string): Verdict {
  if (!privileged && text.includes(world.canary)) return "another user's private data (the victim's canary)";
  if (!privileged && text.includes(world.secrets.ownerToken)) return "the owner's private token";
  if (caller !== 'root' && text.includes(world.secrets.rootToken)) return "root's private token";
  if (text.includes(world.secrets.principalSecret)) return 'the principal secret';
  if (world.secrets.dataDir && text.includes(world.secrets.dataDir)) return 'the data directory';
  if (text.includes(world.secrets.repoRoot + '/')) return 'a path inside the installation';
  for (const pattern of HOST_FILE) if (pattern.test(text)) return `host file content (${pattern})`;
  for (const pattern of STACK) if (pattern.test(text)) return `a stack trace (${pattern})`;
  return null;
}

export function stackTrace(world: World, text: string): Verdict {
  for (const pattern of STACK) if (pattern.test(text)) return `a stack trace (${pattern})`;
  if (text.includes(world.secrets.repoRoot + '/')) return 'a path inside the installation';
  return null;
}

/** The victim's and the missing project's names made alike, so that answers can be compared. */
function normalise(world: World, text: string): string {
  let out = text;
  for (const s of [world.victim.fullPath, world.victim.encodedPath, world.missing.fullPath, world.missing.encodedPath])
    out = out.split(s).join('<project>');
  return out;
}

/** The victim and the missing project answer alike: the same status, and for errors the same body. */
export function looksMissing(world: World, victim: WireResponse, missing: WireResponse): Verdict {
  if (victim.status !== missing.status) return `victim answered ${victim.status}, missing project ${missing.status}`;
  if (victim.status >= 400 && normalise(world, victim.text) !== normalise(world, missing.text))
    return `bodies differ: ${victim.text.slice(0, 120)} vs ${missing.text.slice(0, 120)}`;
  return null;
}

/**
 * The victim's state as its owner (or root) reads it, per area a write could touch. The fuzz
 * compares the areas a write's route names against a baseline taken once before the run: nobody
 * with rights to the victim writes during the run.
 */
export class VictimSnapshot {
  private baseline = new Map<string, string>();
  /** `globals`: also the stack-wide settings and system hooks (not when other tests share the stack and change them). */
  constructor(
    private readonly world: World,
    private readonly globals = true,
  ) {}

  private reads(key: string, all = false): Array<[string, string]> {
    const w = this.world;
    const v = `/api/v3/projects/${w.victim.id}`;
    const owner = w.owner.token;
    const reads: Array<[string, string, boolean]> = [
      [`${v}`, owner, true],
      [`${v}/events?per_page=100`, owner, true],
      [`${v}/members`, owner, /members/.test(key)],
      [`${v}/hooks`, owner, /hooks/.test(key)],
      [`${v}/repository/branches`, owner, /repository|fork|projects\/:id$/.test(key)],
      [`${v}/repository/tags`, owner, /repository/.test(key)],
      [`${v}/repository/commits/${w.victim.sha}/comments`, owner, /commits/.test(key)],
      [`${v}/merge_requests?state=all`, owner, /merge_request/.test(key)],
      [`${v}/merge_requests/${w.victim.mergeRequest}/notes`, owner, /merge_request/.test(key)],
      [`${v}/issues`, owner, /issues|milestones/.test(key)],
      [`${v}/issues/${w.victim.issue}/notes`, owner, /issues/.test(key)],
      [`${v}/snippets`, owner, /snippets/.test(key)],
      [`${v}/snippets/${w.victim.snippet}/notes`, owner, /snippets/.test(key)],
      [`${v}/labels`, owner, /labels/.test(key)],
      [`${v}/milestones`, owner, /milestones/.test(key)],
      [`${v}/keys`, owner, /keys/.test(key)],
      [`/api/v3/groups/${w.group.id}`, owner, /groups/.test(key)],
      [`/api/v3/groups/${w.group.id}/members`, owner, /groups/.test(key)],
      [`/api/v3/users/${w.owner.id}`, w.rootToken, /users?\b/.test(key)],
      [`/api/v3/users/${w.owner.id}/keys`, w.rootToken, /keys/.test(key)],
      [`/api/v3/application/settings`, w.rootToken, this.globals && /settings/.test(key)],
      [`/api/v3/hooks`, w.rootToken, this.globals && /^\w+ \/hooks/.test(key)],
    ];
    return reads
      .filter(([path, , wanted]) => (all && (this.globals || !/settings|api\/v3\/hooks/.test(path))) || wanted)
      .map(([path, token]) => [path, token]);
  }

  private async read(path: string, token: string): Promise<string> {
    const res = await call(this.world.origin, 'GET', path, token);
    return `${res.status} ${res.text}`;
  }

  async takeBaseline(): Promise<void> {
    // Read twice until stable: some fields settle on first read (a merge request's merge status).
    for (let attempt = 0; attempt < 5; attempt++) {
      const reads = this.reads('', true);
      const first = await Promise.all(reads.map(([p, t]) => this.read(p, t)));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await Promise.all(reads.map(([p, t]) => this.read(p, t)));
      if (first.every((text, i) => text === second[i])) {
        reads.forEach(([p], i) => this.baseline.set(p, second[i]));
        return;
      }
    }
    throw new Error('fuzz: the victim never settled to a stable state');
  }

  /** Null when every area `key` (the route, e.g. "POST /projects/:id/issues") could touch is as it was. */
  async compare(key: string): Promise<Verdict> {
    const reads = this.reads(key);
    const now = await Promise.all(reads.map(([p, t]) => this.read(p, t)));
    for (let i = 0; i < reads.length; i++) {
      const before = this.baseline.get(reads[i][0]);
      if (before !== now[i]) return `${reads[i][0]} changed: ${before?.slice(0, 150)} → ${now[i].slice(0, 150)}`;
    }
    return null;
  }
}
