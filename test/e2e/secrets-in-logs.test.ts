import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { api, createProject, createUser, graphql, stack, unique } from '../support/api';
import { git, remoteUrl } from '../support/git';

// Every way a secret reaches the system (sign-in with a password, right and wrong; OAuth grants
// and refreshes; private tokens as header, parameter, Bearer and git's basic auth; sudo; a token
// reset), then every log file of the stack (each process's, Postgres's, Redis's) read whole: none
// may contain a token, a password or the stack's own secrets.

/** Every log file under the stack's folder (repositories and database files are not logs). */
function logFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'repositories' ? [] : logFiles(path);
    return /\.log$|^log$|logfile/.test(entry.name) ? [path] : [];
  });
}

describe('secrets in the logs', () => {
  it('writes no token, password or secret into any process’s log', async () => {
    const secrets: string[] = [
      stack.rootToken,
      stack.rootPassword,
      stack.principalSecret,
      stack.env.TOKEN_ENCRYPTION_KEY,
    ].filter(Boolean);
    const user = await createUser();
    secrets.push(user.password, user.token);
    const wrongPassword = unique('wrong-password-');
    secrets.push(wrongPassword);

    // Sign-ins, right and wrong, by login and by email.
    expect(
      (await api('POST', '/session', { token: null, body: { login: user.username, password: user.password } })).status,
    ).toBe(201);
    expect(
      (await api('POST', '/session', { token: null, body: { email: user.email, password: wrongPassword } })).status,
    ).toBe(401);
    expect(
      (
        await api('POST', '/session', {
          token: null,
          body: new URLSearchParams({ login: user.username, password: wrongPassword }),
        })
      ).status,
    ).toBe(401);

    // OAuth: a password grant, its token as Bearer and as a parameter, a refresh, a wrong grant.
    const grant = await api('POST', 'root:/oauth/token', {
      token: null,
      body: { grant_type: 'password', username: user.username, password: user.password },
    });
    expect(grant.status).toBe(200);
    secrets.push(grant.body.access_token, grant.body.refresh_token);
    expect(
      (await api('GET', '/user', { token: null, headers: { authorization: `Bearer ${grant.body.access_token}` } })).body
        .id,
    ).toBe(user.id);
    expect((await api('GET', '/user', { token: null, query: { access_token: grant.body.access_token } })).body.id).toBe(
      user.id,
    );
    const refreshed = await api('POST', 'root:/oauth/token', {
      token: null,
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: grant.body.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    secrets.push(refreshed.body.access_token, refreshed.body.refresh_token);
    expect(
      (
        await api('POST', 'root:/oauth/token', {
          token: null,
          body: { grant_type: 'password', username: user.username, password: wrongPassword },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await api('POST', 'root:/oauth/token', {
          token: null,
          body: { grant_type: 'refresh_token', refresh_token: grant.body.refresh_token },
        })
      ).status,
    ).toBe(401);

    // Private tokens: header, parameter, Bearer, a bad one; sudo as root; the gateway directly.
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200);
    expect((await api('GET', '/user', { token: null, query: { private_token: user.token } })).status).toBe(200);
    expect(
      (await api('GET', '/user', { token: null, headers: { authorization: `Bearer ${user.token}` } })).status,
    ).toBe(200);
    const badToken = unique('bad-token-');
    secrets.push(badToken);
    expect((await api('GET', '/user', { token: badToken })).status).toBe(401);
    expect((await api('GET', '/user', { query: { sudo: user.username } })).body.id).toBe(user.id);
    expect((await api('GET', '/user', { query: { sudo: unique('nobody') } })).status).toBe(404);
    expect((await api('GET', '/user', { token: user.token, query: { sudo: 'root' } })).status).toBe(403);
    expect(
      (await graphql('{ viewer { id: databaseId } }', {}, { 'PRIVATE-TOKEN': user.token })).body.data.viewer.id,
    ).toBe(user.id);

    // git over HTTP with the token and with the password as basic credentials, and a wrong one.
    const project = await createProject(user.token);
    for (const secret of [user.token, user.password]) {
      expect(
        (await git(stack.dir, 'ls-remote', remoteUrl(project.path_with_namespace, user.username, secret))).code,
      ).toBe(0);
    }
    expect(
      (await git(stack.dir, 'ls-remote', remoteUrl(project.path_with_namespace, user.username, wrongPassword))).code,
    ).not.toBe(0);

    // A reset: the new token is shown once to its owner, and never logged either.
    const reset = await graphql(
      'mutation { resetPrivateToken(input: {}) { privateToken } }',
      {},
      { 'PRIVATE-TOKEN': user.token },
    );
    const fresh = reset.body.data.resetPrivateToken.privateToken as string;
    secrets.push(fresh);
    expect((await api('GET', '/user', { token: fresh })).body.private_token).toBe(fresh);

    // Log lines are written by the processes as they go; give the last ones time to land.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const files = logFiles(stack.dir).filter((file) => statSync(file).size > 0);
    // The stack's processes, at least: an empty search would prove nothing.
    expect(files.map((f) => f.slice(stack.dir.length + 1))).toEqual(
      expect.arrayContaining(['rest-facade.log', 'gateway.log', 'identity.log']),
    );
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets)
        if (text.includes(secret)) found.push(`${file.slice(stack.dir.length + 1)} contains ${secret.slice(0, 4)}…`);
    }
    expect(found).toEqual([]);
    expect(secrets.length).toBeGreaterThanOrEqual(12);
  }, 60_000);
});
