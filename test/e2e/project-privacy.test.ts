import { api, createProject, createUser, unique, type TestProject, type TestUser } from '../support/api';

/**
 * A caller without access must not be able to tell a private project from a missing one: every
 * project route answers a stranger the same status and body for both, by id and by
 * NAMESPACE%2FPATH.
 */
let owner: TestUser;
let stranger: TestUser;
let hidden: TestProject;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([createUser(), createUser()]);
  hidden = await createProject(owner.token, { snippets_enabled: true });
});

/** Everything a route might require, so that required-attribute checks do not decide the answer. */
const FULL_BODY = {
  name: 'n',
  title: 't',
  description: 'd',
  url: 'http://example.com/hook',
  access_level: 30,
  source_branch: 's',
  target_branch: 'master',
  body: 'b',
  note: 'n',
  file_name: 'f',
  code: 'c',
  visibility_level: 0,
  tag_name: 'v1',
  ref: 'master',
  from: 'master',
  to: 'master',
  filepath: 'README.md',
  state_event: 'close',
};

// [method, path]: :id is the project, by id or by NAMESPACE%2FPATH.
const ROUTES: Array<[string, string]> = [
  ['GET', '/projects/:id'],
  ['PUT', '/projects/:id'],
  ['DELETE', '/projects/:id'],
  ['GET', '/projects/:id/events'],
  ['POST', '/projects/fork/:id'],
  ['POST', '/projects/:id/fork/1'],
  ['DELETE', '/projects/:id/fork'],
  ['GET', '/projects/:id/members'],
  ['GET', '/projects/:id/members/1'],
  ['POST', '/projects/:id/members'],
  ['PUT', '/projects/:id/members/1'],
  ['DELETE', '/projects/:id/members/1'],
  ['GET', '/projects/:id/hooks'],
  ['GET', '/projects/:id/hooks/1'],
  ['POST', '/projects/:id/hooks'],
  ['PUT', '/projects/:id/hooks/1'],
  ['DELETE', '/projects/:id/hooks/1'],
  ['GET', '/projects/:id/hooks/1/events'],
  ['POST', '/projects/:id/hooks/1/events/1/resend'],
  ['GET', '/projects/:id/repository/branches'],
  ['GET', '/projects/:id/repository/branches/master'],
  ['PUT', '/projects/:id/repository/branches/master/protect'],
  ['PUT', '/projects/:id/repository/branches/master/unprotect'],
  ['GET', '/projects/:id/repository/tags'],
  ['POST', '/projects/:id/repository/tags'],
  ['GET', '/projects/:id/repository/tree'],
  ['GET', '/projects/:id/repository/blobs/master'],
  ['GET', '/projects/:id/repository/raw_blobs/0123456789012345678901234567890123456789'],
  ['GET', '/projects/:id/repository/archive'],
  ['GET', '/projects/:id/repository/archive.zip'],
  ['GET', '/projects/:id/repository/compare'],
  ['GET', '/projects/:id/repository/contributors'],
  ['GET', '/projects/:id/merge_requests'],
  ['POST', '/projects/:id/merge_requests'],
  ['GET', '/projects/:id/merge_request/1'],
  ['GET', '/projects/:id/merge_request/1/changes'],
  ['PUT', '/projects/:id/merge_request/1'],
  ['PUT', '/projects/:id/merge_request/1/merge'],
  ['GET', '/projects/:id/merge_request/1/comments'],
  ['POST', '/projects/:id/merge_request/1/comments'],
  ['GET', '/projects/:id/merge_requests/1/notes'],
  ['POST', '/projects/:id/merge_requests/1/notes'],
  ['GET', '/projects/:id/merge_requests/1/notes/1'],
  ['PUT', '/projects/:id/merge_requests/1/notes/1'],
  ['GET', '/projects/:id/issues'],
  ['POST', '/projects/:id/issues'],
  ['GET', '/projects/:id/issues/1'],
  ['PUT', '/projects/:id/issues/1'],
  ['GET', '/projects/:id/issues/1/notes'],
  ['POST', '/projects/:id/issues/1/notes'],
  ['GET', '/projects/:id/issues/1/notes/1'],
  ['PUT', '/projects/:id/issues/1/notes/1'],
  ['GET', '/projects/:id/snippets'],
  ['POST', '/projects/:id/snippets'],
  ['GET', '/projects/:id/snippets/1'],
  ['GET', '/projects/:id/snippets/1/raw'],
  ['PUT', '/projects/:id/snippets/1'],
  ['DELETE', '/projects/:id/snippets/1'],
  ['GET', '/projects/:id/snippets/1/notes'],
  ['POST', '/projects/:id/snippets/1/notes'],
  ['GET', '/projects/:id/snippets/1/notes/1'],
  ['PUT', '/projects/:id/snippets/1/notes/1'],
];

const pathFor = (route: string, id: string) => route.replace(':id', id);

async function answer(method: string, route: string, id: string, withBody: boolean) {
  const body = withBody ? FULL_BODY : undefined;
  const res = await api(
    method,
    pathFor(route, id),
    method === 'GET' ? { token: stranger.token, query: body } : { token: stranger.token, body },
  );
  return { status: res.status, body: res.text };
}

describe('a stranger cannot tell a private project from a missing one', () => {
  it.each(ROUTES)('%s %s', async (method, route) => {
    const missingPath = encodeURIComponent(`${owner.username}/${unique('missing')}`);
    for (const withBody of [false, true]) {
      const [privateById, missingById, privateByPath, missingByPath] = await Promise.all([
        answer(method, route, String(hidden.id), withBody),
        answer(method, route, '2147483000', withBody),
        answer(method, route, encodeURIComponent(hidden.path_with_namespace), withBody),
        answer(method, route, missingPath, withBody),
      ]);
      expect(privateById).toEqual(missingById);
      expect(privateByPath).toEqual(missingByPath);
    }
  });

  it('DELETE /projects/:id answers 200 true for both (the spec: DELETE is idempotent) and leaves the private project alone', async () => {
    for (const id of [
      String(hidden.id),
      '2147483000',
      encodeURIComponent(hidden.path_with_namespace),
      encodeURIComponent(`${owner.username}/${unique('gone')}`),
    ]) {
      const res = await api('DELETE', `/projects/${id}`, { token: stranger.token });
      expect([res.status, res.body]).toEqual([200, true]);
    }
    expect((await api('GET', `/projects/${hidden.id}`, { token: owner.token })).status).toBe(200);
  });

  it('the owner deleting a missing project gets 200 true too; one they may see but not delete stays 403', async () => {
    expect(await api('DELETE', '/projects/2147483000', { token: owner.token })).toMatchObject({
      status: 200,
      body: true,
    });
    const internal = await createProject(owner.token, { visibility_level: 10 });
    expect((await api('DELETE', `/projects/${internal.id}`, { token: stranger.token })).status).toBe(403);
    expect((await api('GET', `/projects/${internal.id}`, { token: owner.token })).status).toBe(200);
  });
});

describe('admin-only project routes', () => {
  it('check the admin before the project, by id and by path, as GitLab did (403 whatever :id names)', async () => {
    const upstream = await createProject(owner.token);
    const missingPath = encodeURIComponent(`${owner.username}/${unique('missing')}`);
    for (const token of [stranger.token, owner.token]) {
      for (const id of [String(hidden.id), '2147483000', encodeURIComponent(hidden.path_with_namespace), missingPath]) {
        for (const [method, path] of [
          ['POST', `/projects/${id}/fork/${upstream.id}`],
          ['DELETE', `/projects/${id}/fork`],
        ]) {
          const res = await api(method, path, { token });
          expect([method, id, res.status, res.body]).toEqual([method, id, 403, { message: '403 Forbidden' }]);
        }
      }
    }
    const admin = await api('POST', `/projects/${missingPath}/fork/${upstream.id}`);
    expect([admin.status, admin.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});
