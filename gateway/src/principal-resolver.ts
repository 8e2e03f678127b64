import { createHash } from 'node:crypto';
import {
  CREDENTIALS_REFUSED,
  DomainError,
  ErrorCode,
  GATEWAY_SYSTEM,
  PRINCIPAL_HEADER,
  principalLookup,
  requestIdHeaders,
  signPrincipal,
  ANONYMOUS,
  type Principal,
  type ResponseOf,
} from '@hub/common';
import type { Dispatcher } from 'undici';
import { hasCredentials, type PresentedCredentials } from './credentials';
import type { PrincipalCache } from './principal-cache';

type IdentityAnswer = ResponseOf<typeof principalLookup>;

/** An auth failure, raised before any subgraph is called; the HTTP status helps direct GraphQL users. */
const authError = (code: ErrorCode, message: string, status: number, refused = false) =>
  new DomainError(code, message, { http: { status }, ...(refused ? { [CREDENTIALS_REFUSED]: true } : {}) });

/** Outcomes are cached whole, failures included, so a bad token costs one identity call per TTL. */
type Outcome =
  { principal: Principal } | { error: { code: ErrorCode; message: string; status: number; refused?: boolean } };

/**
 * Turns presented credentials into a principal: one call to identity (user and sudo target
 * together), then GitLab v3's sudo rules, cached briefly per credential + sudo value.
 */
export function createPrincipalResolver(deps: {
  identity: Dispatcher;
  secret: string;
  cache: PrincipalCache<Outcome>;
  onUnavailable?: (error: unknown) => void;
}) {
  /** Any failure to get an answer means identity is unavailable: 503, never a 500 or a hang. */
  async function askIdentity(credentials: PresentedCredentials): Promise<IdentityAnswer> {
    try {
      const response = await deps.identity.request({
        path: principalLookup.path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [PRINCIPAL_HEADER]: signPrincipal(GATEWAY_SYSTEM, deps.secret),
          ...requestIdHeaders(),
        },
        body: JSON.stringify(credentials),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw new Error(`identity answered ${response.statusCode} to a principal lookup`);
      }
      return principalLookup.response.parse(await response.body.json());
    } catch (error) {
      deps.onUnavailable?.(error);
      throw authError(ErrorCode.SERVICE_UNAVAILABLE, '503 Service Unavailable', 503);
    }
  }

  function decide(credentials: PresentedCredentials, answer: IdentityAnswer): Outcome {
    const { user } = answer;
    if (!user)
      return { error: { code: ErrorCode.UNAUTHENTICATED, message: '401 Unauthorized', status: 401, refused: true } };
    const self: Principal = { userId: user.id, username: user.username, isAdmin: user.isAdmin, impersonatorId: null };
    const sudo = credentials.sudo;
    // Sudo to oneself, by id or username, changes nothing and needs no admin rights.
    if (sudo === undefined || sudo === String(user.id) || sudo === user.username) return { principal: self };
    if (!user.isAdmin) {
      return { error: { code: ErrorCode.FORBIDDEN, message: '403 Forbidden: Must be admin to use sudo', status: 403 } };
    }
    if (!answer.sudo) {
      return {
        error: {
          code: ErrorCode.NOT_FOUND,
          message: `404 Not Found: No user id or username for: ${sudo}`,
          status: 404,
        },
      };
    }
    const target = answer.sudo;
    return {
      principal: { userId: target.id, username: target.username, isAdmin: target.isAdmin, impersonatorId: user.id },
    };
  }

  const inFlight = new Map<string, Promise<Outcome>>();

  return async function resolvePrincipal(credentials: PresentedCredentials): Promise<Principal> {
    // Without credentials the request is anonymous (sudo then means nothing, as in GitLab);
    // subgraphs decide what anonymous callers may do.
    if (!hasCredentials(credentials)) return ANONYMOUS;
    // No token or password sits in the cache as such: entries are keyed by a digest of them all.
    const presented = [
      credentials.privateToken ?? null,
      credentials.bearer ?? null,
      credentials.basic?.login ?? null,
      credentials.basic?.secret ?? null,
      credentials.sudo ?? null,
    ];
    const key = createHash('sha256').update(JSON.stringify(presented)).digest('base64url');
    let outcome = deps.cache.get(key);
    if (!outcome) {
      // Callers presenting the same credentials at once (a page opening its sockets, a client's
      // burst) wait for one lookup rather than each asking identity.
      let lookup = inFlight.get(key);
      if (!lookup) {
        lookup = (async () => {
          try {
            const answer = await askIdentity(credentials);
            const decided = decide(credentials, answer);
            const userIds = [answer.user?.id, answer.sudo?.id].filter((id): id is number => typeof id === 'number');
            deps.cache.set(key, decided, userIds);
            return decided;
          } finally {
            inFlight.delete(key);
          }
        })();
        inFlight.set(key, lookup);
      }
      outcome = await lookup;
    }
    if ('error' in outcome)
      throw authError(outcome.error.code, outcome.error.message, outcome.error.status, outcome.error.refused);
    return outcome.principal;
  };
}

export type PrincipalOutcome = Outcome;
