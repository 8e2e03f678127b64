import { createHmac, timingSafeEqual } from 'node:crypto';

/** Who a request acts for, as the gateway resolved it. Subgraphs trust nothing else. */
export interface Principal {
  /** The acting user (after sudo); null for anonymous requests. */
  userId: number | null;
  username: string | null;
  isAdmin: boolean;
  /** The admin who used sudo to act as `userId`, when sudo was used. */
  impersonatorId: number | null;
  /** The calling process's name when a process calls on its own behalf: the gateway resolving
   * credentials, a service asking membership for access. Internal endpoints admit only these. */
  system?: string;
}

export const ANONYMOUS: Principal = Object.freeze({
  userId: null,
  username: null,
  isAdmin: false,
  impersonatorId: null,
});
export const GATEWAY_SYSTEM: Principal = Object.freeze({ ...ANONYMOUS, system: 'gateway' as const });

export const PRINCIPAL_HEADER = 'x-hub-principal';

/**
 * A signed header lives for a short while only, so a captured header cannot be replayed later;
 * the window covers clock skew between pods plus the longest subgraph call.
 */
const MAX_AGE_MS = 5 * 60_000;

// A purpose other than the default is signed in front of the body (which, base64url, never holds
// a NUL): claims signed for one purpose never verify as another's, e.g. as a principal.
const mac = (secret: string, body: string, purpose: string) =>
  createHmac('sha256', secret)
    .update(purpose ? `${purpose}\0${body}` : body)
    .digest('base64url');

/** `<base64url(json)>.<base64url(hmac)>` of any claims, stamped with the time of signing. */
export function signClaims(claims: object, secret: string, now = Date.now(), purpose = ''): string {
  const body = Buffer.from(JSON.stringify({ ...claims, iat: now })).toString('base64url');
  return `${body}.${mac(secret, body, purpose)}`;
}

/** The claims, or null when the value is missing, forged, signed for another purpose, or older than MAX_AGE_MS. */
export function verifyClaims<T>(value: string | undefined, secret: string, now = Date.now(), purpose = ''): T | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot <= 0) return null;
  const body = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(secret, body, purpose));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { iat, ...claims } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (typeof iat !== 'number' || Math.abs(now - iat) > MAX_AGE_MS) return null;
    return claims as T;
  } catch {
    return null;
  }
}

/** The gateway signs one per request. */
export const signPrincipal = (principal: Principal, secret: string, now = Date.now()) =>
  signClaims(principal, secret, now);

/** Returns the principal, or null when the header is missing, forged, or stale. */
export const verifyPrincipal = (header: string | undefined, secret: string, now = Date.now()) =>
  verifyClaims<Principal>(header, secret, now);

/**
 * Sent by the facade with each call it forwards to the gateway: the facade has already applied
 * the rate and authentication-failure limits to its client (named here), so the gateway must not
 * count the facade's address as one client for all of them.
 */
export const LIMITED_HEADER = 'x-hub-limited-for';

/**
 * Where the gateway serves the internal contract of the graph (the facade's, with v3's page numbers
 * and authorization shortcuts): only to calls carrying a valid LIMITED_HEADER, i.e. the facade's.
 */
export const INTERNAL_GRAPHQL_PATH = '/internal/graphql';
/** Set on the gateway's 403 to a call whose note it refused there: the facade's secret is not the gateway's. */
export const INTERNAL_REFUSED_HEADER = 'x-hub-internal-refused';
const LIMITED = 'limited-by-facade';

export const signLimited = (client: string, secret: string, now = Date.now()) =>
  signClaims({ client }, secret, now, LIMITED);

/** The client the facade limited, or null when the header is missing, forged, stale, or another kind of claims. */
export const verifyLimited = (header: string | undefined, secret: string, now = Date.now()) =>
  verifyClaims<{ client: string }>(header, secret, now, LIMITED)?.client ?? null;
