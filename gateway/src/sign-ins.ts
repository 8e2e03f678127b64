/** The mutations that sign in with a password, and the variables that may name the login. */
const SIGN_IN = /\b(createSession|createOAuthToken)\b/;
const LOGIN_VARIABLES = ['login', 'email', 'username'];

/**
 * Whether a GraphQL request signs in with a password (identity's createSession or
 * createOAuthToken), and for which login: read from the variables when the document takes it
 * from them; '' otherwise, so every such guess from one address shares one count.
 */
export function signInOf(body: unknown): { login: string } | undefined {
  const { query, variables } = (body ?? {}) as { query?: unknown; variables?: unknown };
  if (typeof query !== 'string' || !SIGN_IN.test(query)) return undefined;
  const named = variables && typeof variables === 'object' ? LOGIN_VARIABLES.map((name) => (variables as Record<string, unknown>)[name]).find((v) => typeof v === 'string') : undefined;
  return { login: typeof named === 'string' ? named.trim().toLowerCase() : '' };
}
