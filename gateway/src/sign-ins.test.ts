import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { parse, specifiedRules, validate } from 'graphql';
import { oneSignInPerDocument, signInOf } from './sign-ins';

const schema = Supergraph.build(readFileSync(resolve(__dirname, '..', 'generated', 'supergraph.graphql'), 'utf8'))
  .apiSchema()
  .toGraphQLJSSchema();
const errorsOf = (document: string) =>
  validate(schema, parse(document), [...specifiedRules, oneSignInPerDocument]).map((e) => e.message);

describe('one sign-in per document', () => {
  it('lets a document sign in once', () => {
    expect(
      errorsOf(
        'mutation ($p: String!) { createSession(input: { login: "a", password: $p }) { session { user { id: databaseId } } } }',
      ),
    ).toEqual([]);
    expect(
      errorsOf(
        'mutation { createOAuthToken(input: { grantType: "password", username: "a", password: "p" }) { oauthToken { accessToken } } }',
      ),
    ).toEqual([]);
  });

  it('refuses aliases that would check several passwords in one counted attempt', () => {
    const aliased = `mutation { ${Array.from({ length: 3 }, (_, i) => `a${i}: createSession(input: { login: "root", password: "guess-${i}" }) { session { user { id } } }`).join(' ')} }`;
    expect(errorsOf(aliased)).toEqual(['A document may sign in only once', 'A document may sign in only once']);
  });

  it('counts both sign-in mutations and those inside fragments', () => {
    expect(
      errorsOf(
        'mutation { createSession(input: { login: "a", password: "p" }) { session { user { id: databaseId } } } createOAuthToken(input: { grantType: "password", username: "a", password: "q" }) { oauthToken { accessToken } } }',
      ),
    ).toHaveLength(1);
    expect(
      errorsOf(
        'mutation { ...A b: createSession(input: { login: "a", password: "q" }) { session { user { id: databaseId } } } } fragment A on Mutation { createSession(input: { login: "a", password: "p" }) { session { user { id: databaseId } } } }',
      ),
    ).toHaveLength(1);
  });
});

describe('signInOf', () => {
  it('reads the login from the variables of a sign-in document, its own or inside the input', () => {
    expect(
      signInOf({
        query:
          'mutation ($login: String) { createSession(input: { login: $login, password: "p" }) { session { user { id: databaseId } } } }',
        variables: { login: ' Root ' },
      }),
    ).toEqual({ login: 'root' });
    expect(
      signInOf({
        query:
          'mutation ($input: CreateSessionInput!) { createSession(input: $input) { session { user { id: databaseId } } } }',
        variables: { input: { login: ' Root ', password: 'p' } },
      }),
    ).toEqual({ login: 'root' });
    expect(
      signInOf({
        query:
          'mutation ($input: CreateOAuthTokenInput!) { createOAuthToken(input: $input) { oauthToken { accessToken } } }',
        variables: { input: { grantType: 'password', username: 'Alice', password: 'p' } },
      }),
    ).toEqual({ login: 'alice' });
  });

  it('counts a sign-in whose login is written in the document under the address alone', () => {
    expect(
      signInOf({
        query: 'mutation { createSession(input: { login: "root", password: "p" }) { session { user { id } } } }',
      }),
    ).toEqual({ login: '' });
  });

  it('finds no sign-in in a document sent by hash alone (the gateway refuses those: no persisted queries)', () => {
    expect(
      signInOf({
        extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
        variables: { login: 'root' },
      }),
    ).toBeUndefined();
  });
});
