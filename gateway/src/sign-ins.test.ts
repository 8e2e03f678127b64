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
      errorsOf('mutation ($p: String!) { createSession(login: "a", password: $p) { user { id: databaseId } } }'),
    ).toEqual([]);
    expect(
      errorsOf('mutation { createOAuthToken(grantType: "password", username: "a", password: "p") { accessToken } }'),
    ).toEqual([]);
  });

  it('refuses aliases that would check several passwords in one counted attempt', () => {
    const aliased = `mutation { ${Array.from({ length: 3 }, (_, i) => `a${i}: createSession(login: "root", password: "guess-${i}") { user { id } }`).join(' ')} }`;
    expect(errorsOf(aliased)).toEqual(['A document may sign in only once', 'A document may sign in only once']);
  });

  it('counts both sign-in mutations and those inside fragments', () => {
    expect(
      errorsOf(
        'mutation { createSession(login: "a", password: "p") { user { id: databaseId } } createOAuthToken(grantType: "password", username: "a", password: "q") { accessToken } }',
      ),
    ).toHaveLength(1);
    expect(
      errorsOf(
        'mutation { ...A b: createSession(login: "a", password: "q") { user { id: databaseId } } } fragment A on Mutation { createSession(login: "a", password: "p") { user { id: databaseId } } }',
      ),
    ).toHaveLength(1);
  });
});

describe('signInOf', () => {
  it('reads the login from the variables of a sign-in document', () => {
    expect(
      signInOf({
        query: 'mutation ($login: String) { createSession(login: $login, password: "p") { user { id: databaseId } } }',
        variables: { login: ' Root ' },
      }),
    ).toEqual({ login: 'root' });
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
