import { DOWNLOAD_PURPOSE, GIT_ACCESS_HEADER, PRINCIPAL_HEADER, signClaims, signPrincipal } from '@hub/common';
import { api, createProject, createUser, graphql, stack } from '../support/api';

// The principal header is how the gateway tells the services who a request acts for. From the
// outside it must mean nothing: the facade and the gateway build their own from credentials, and
// a service refuses one it did not get from the gateway. Forged headers are tried here signed
// with a wrong secret, and also with the real one (as if one had leaked from inside, or been
// captured from a request): the doors still ignore them; only a service takes a valid one.

const ROOT = { userId: 1, username: 'root', isAdmin: true, impersonatorId: null };
const forged = () => signPrincipal(ROOT, 'not-the-secret-'.repeat(3));
const genuine = () => signPrincipal(ROOT, stack.principalSecret);
const SUBGRAPHS = ['identity', 'projects', 'membership', 'repository', 'mergerequests', 'notes', 'hooks'];

describe('the internal principal header sent from outside', () => {
  it('means nothing to the facade: no credentials stay anonymous, a user stays that user', async () => {
    const user = await createUser();
    for (const header of [forged(), genuine()]) {
      const anonymous = await api('GET', '/user', { token: null, headers: { [PRINCIPAL_HEADER]: header } });
      expect(anonymous.status).toBe(401);
      const asUser = await api('GET', '/user', { token: user.token, headers: { [PRINCIPAL_HEADER]: header } });
      expect(asUser.body).toMatchObject({ id: user.id, is_admin: false });
      // An admin-only route stays closed to them.
      expect((await api('GET', '/hooks', { token: user.token, headers: { [PRINCIPAL_HEADER]: header } })).status).toBe(
        403,
      );
    }
  });

  it('keeps a private project hidden through the facade whatever the header says', async () => {
    const project = await createProject(stack.rootToken, { visibility_level: 0 });
    const plain = await api('GET', `/projects/${project.id}`, { token: null });
    const withHeader = await api('GET', `/projects/${project.id}`, {
      token: null,
      headers: { [PRINCIPAL_HEADER]: genuine() },
    });
    expect([withHeader.status, withHeader.body]).toEqual([plain.status, plain.body]);
    expect(plain.status).toBeGreaterThanOrEqual(401);
    const user = await createUser();
    const asUser = await api('GET', `/projects/${project.id}`, {
      token: user.token,
      headers: { [PRINCIPAL_HEADER]: genuine() },
    });
    expect(asUser.status).toBe(404);
  });

  it('means nothing to the gateway: the viewer comes from credentials only', async () => {
    const user = await createUser();
    for (const header of [forged(), genuine()]) {
      expect(
        (await graphql('{ viewer { id: databaseId isAdmin } }', {}, { [PRINCIPAL_HEADER]: header })).body.data,
      ).toEqual({
        viewer: null,
      });
      const asUser = await graphql(
        '{ viewer { id: databaseId isAdmin } }',
        {},
        { 'PRIVATE-TOKEN': user.token, [PRINCIPAL_HEADER]: header },
      );
      expect(asUser.body.data).toEqual({ viewer: { id: user.id, isAdmin: false } });
    }
  });

  it.each(SUBGRAPHS)('is refused by %s when missing, forged or stale', async (name) => {
    const post = (headers: Record<string, string>) =>
      fetch(`${stack.urls[name]}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ [PRINCIPAL_HEADER]: forged() })).status).toBe(401);
    // A genuine header replayed after its lifetime (five minutes).
    expect(
      (await post({ [PRINCIPAL_HEADER]: signPrincipal(ROOT, stack.principalSecret, Date.now() - 10 * 60_000) })).status,
    ).toBe(401);
    expect((await post({ [PRINCIPAL_HEADER]: `${genuine()}x` })).status).toBe(401);
    // What a cross-site form could send (Apollo's CSRF check is off in subgraphs: this is the door).
    expect((await post({ 'content-type': 'text/plain' })).status).toBe(401);
    // The control: the same request with the gateway's signature is served.
    expect((await post({ [PRINCIPAL_HEADER]: genuine() })).status).toBe(200);
  });

  it('is refused by the git worker’s HTTP side, as is a forged git access grant', async () => {
    const project = await createProject();
    const url = `${stack.urls['git-worker']}/${project.id}.git/info/refs?service=git-upload-pack`;
    const forgedAccess = signClaims(
      {
        projectId: project.id,
        userId: 1,
        username: 'root',
        push: true,
        pushProtected: true,
        protectedBranches: [],
        developersCanPush: false,
        defaultBranch: 'master',
      },
      'not-the-secret-'.repeat(3),
    );
    const attempts: Array<Record<string, string>> = [
      {},
      { [PRINCIPAL_HEADER]: genuine() },
      { [GIT_ACCESS_HEADER]: forgedAccess },
    ];
    for (const headers of attempts) {
      const res = await fetch(url, { headers });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    // Blob reads: only claims the facade signed for a blob read of this project open them; a
    // clone's grant signed with the real secret does not.
    const blobUrl = `${stack.urls['git-worker']}/blobs/${project.id}?oid=${'0'.repeat(40)}`;
    const cloneGrant = signClaims({ projectId: project.id }, stack.principalSecret);
    const blobAttempts: Array<Record<string, string>> = [
      {},
      { [PRINCIPAL_HEADER]: genuine() },
      { [GIT_ACCESS_HEADER]: cloneGrant },
      {
        [GIT_ACCESS_HEADER]: signClaims(
          { projectId: project.id },
          'not-the-secret-'.repeat(3),
          Date.now(),
          DOWNLOAD_PURPOSE,
        ),
      },
    ];
    for (const headers of blobAttempts) expect((await fetch(blobUrl, { headers })).status).toBe(403);
    // The control: the facade's own kind of claims reach the lookup (no such blob).
    expect(
      (
        await fetch(blobUrl, {
          headers: {
            [GIT_ACCESS_HEADER]: signClaims(
              { projectId: project.id },
              stack.principalSecret,
              Date.now(),
              DOWNLOAD_PURPOSE,
            ),
          },
        })
      ).status,
    ).toBe(404);
  });
});
