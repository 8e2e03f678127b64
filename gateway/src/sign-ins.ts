import { GraphQLError, type ValidationRule } from 'graphql';

/** The mutations that sign in with a password, and the variables that may name the login. */
const SIGN_IN_FIELDS = ['createSession', 'createOAuthToken'];
const SIGN_IN = new RegExp(`\\b(${SIGN_IN_FIELDS.join('|')})\\b`);
const LOGIN_VARIABLES = ['login', 'email', 'username'];

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object';

/** The first login named among an object's fields, if any. */
const loginIn = (fields: unknown): string | undefined =>
  isObject(fields)
    ? (LOGIN_VARIABLES.map((name) => fields[name]).find((v) => typeof v === 'string') as string | undefined)
    : undefined;

/**
 * Whether a GraphQL request signs in with a password (identity's createSession or
 * createOAuthToken), and for which login: read from the variables when the document takes it
 * from them, either as a variable of its own (`$login`) or inside the mutation's `$input`; ''
 * otherwise, so every such guess from one address shares one count.
 */
export function signInOf(body: unknown): { login: string } | undefined {
  const { query, variables } = (body ?? {}) as { query?: unknown; variables?: unknown };
  if (typeof query !== 'string' || !SIGN_IN.test(query)) return undefined;
  const named = loginIn(variables) ?? (isObject(variables) ? loginIn(variables.input) : undefined);
  return { login: named?.trim().toLowerCase() ?? '' };
}

/**
 * One password sign-in per document: the limits count a request as one attempt, and aliases
 * (`a: createSession(...) b: createSession(...)`) would otherwise check a password per field.
 * Fields of a fragment spread twice merge into one, so each field in the text counts once.
 */
export const oneSignInPerDocument: ValidationRule = (context) => {
  let seen = 0;
  return {
    Field(node) {
      if (!SIGN_IN_FIELDS.includes(node.name.value) || ++seen < 2) return;
      // Apollo answers it as any invalid document: 400, GRAPHQL_VALIDATION_FAILED.
      context.reportError(new GraphQLError('A document may sign in only once', { nodes: [node] }));
    },
  };
};
