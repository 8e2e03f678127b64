import { request } from 'undici';
import { addMember, api, createProject, createUser, stack, type TestProject, type TestUser } from '../support/api';

let owner: TestUser;
let reporter: TestUser;
let guest: TestUser;
let project: TestProject;
const path = (suffix = '') => `/projects/${project.id}/snippets${suffix}`;

beforeAll(async () => {
  [owner, reporter, guest] = [await createUser(), await createUser(), await createUser()];
  // Snippets are off by default, as in GitLab.
  project = await createProject(owner.token, { snippets_enabled: true });
  await addMember(project.id, reporter.id, 20);
  await addMember(project.id, guest.id, 10);
});

describe('project snippets', () => {
  it('creates, reads, lists and serves the raw code', async () => {
    const res = await api('POST', path(), {
      token: reporter.token,
      body: { title: 'Hello', file_name: 'hello.rb', code: 'puts "hi"\n', visibility_level: 10 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Hello',
      file_name: 'hello.rb',
      author: { id: reporter.id },
      expires_at: null,
    });
    for (const field of ['id', 'updated_at', 'created_at']) expect(res.body).toHaveProperty(field);
    expect((await api('GET', path(`/${res.body.id}`), { token: guest.token })).body).toMatchObject({
      id: res.body.id,
      title: 'Hello',
    });
    const list = await api('GET', path(), { token: guest.token });
    expect(list.body.map((s: { id: number }) => s.id)).toContain(res.body.id);
    expect(list.headers.get('x-total')).toEqual(expect.any(String));
    const raw = await request(`${stack.restUrl}${path(`/${res.body.id}/raw`)}`, {
      headers: { 'PRIVATE-TOKEN': guest.token },
    });
    expect([raw.statusCode, raw.headers['content-type'], await raw.body.text()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'puts "hi"\n',
    ]);
  });

  it('needs Reporter to create, the author or a Master to change or delete; delete is idempotent', async () => {
    expect(
      (
        await api('POST', path(), {
          token: guest.token,
          body: { title: 't', file_name: 'f', code: 'c', visibility_level: 0 },
        })
      ).status,
    ).toBe(403);
    expect((await api('POST', path(), { token: reporter.token, body: { title: 't', file_name: 'f' } })).body).toEqual({
      message: '400 (Bad request) "code" not given',
    });
    const snippet = (
      await api('POST', path(), {
        token: reporter.token,
        body: { title: 'Mine', file_name: 'm.txt', code: 'm', visibility_level: 0 },
      })
    ).body;
    expect((await api('PUT', path(`/${snippet.id}`), { token: guest.token, body: { title: 'no' } })).status).toBe(403);
    expect(
      (
        await api('PUT', path(`/${snippet.id}`), {
          token: reporter.token,
          body: { title: 'Renamed', code: 'new code' },
        })
      ).body.title,
    ).toBe('Renamed');
    expect(
      (await api('PUT', path(`/${snippet.id}`), { token: reporter.token, body: { visibility_level: 7 } })).status,
    ).toBe(400);
    expect((await api('DELETE', path(`/${snippet.id}`), { token: guest.token })).status).toBe(403);
    expect((await api('DELETE', path(`/${snippet.id}`), { token: owner.token })).status).toBe(200);
    expect((await api('GET', path(`/${snippet.id}`), { token: owner.token })).status).toBe(404);
    expect((await api('DELETE', path(`/${snippet.id}`), { token: owner.token })).status).toBe(200);
  });

  it('refuses snippets where they are disabled', async () => {
    const off = await createProject(owner.token);
    expect(
      (
        await api('POST', `/projects/${off.id}/snippets`, {
          token: owner.token,
          body: { title: 't', file_name: 'f', code: 'c', visibility_level: 0 },
        })
      ).status,
    ).toBe(403);
  });

  it('requires title, file_name, code and visibility_level, as GitLab 7.14 did', async () => {
    const full = { title: 't', file_name: 'f', code: 'c', visibility_level: 0 };
    for (const missing of ['title', 'file_name', 'code', 'visibility_level'] as const) {
      const { [missing]: _left, ...body } = full;
      const res = await api('POST', path(), { token: reporter.token, body });
      expect([res.status, res.body]).toEqual([400, { message: `400 (Bad request) "${missing}" not given` }]);
    }
    const made = await api('POST', path(), { token: reporter.token, body: { ...full, visibility_level: 20 } });
    expect(made.status).toBe(201);
  });
});

describe('snippet notes', () => {
  it('comments, lists, edits, and answers the single note with the snippet fields (as the spec says)', async () => {
    const snippet = (
      await api('POST', path(), {
        token: reporter.token,
        body: { title: 'Discussed', file_name: 'd.txt', code: 'd', visibility_level: 0 },
      })
    ).body;
    const note = await api('POST', path(`/${snippet.id}/notes`), { token: guest.token, body: { body: ':+1:' } });
    expect(note.status).toBe(201);
    // Snippet notes are no votes: GitLab 7.14 counted votes on issues and merge requests only.
    expect(note.body).toMatchObject({ body: ':+1:', upvote: false, downvote: false, author: { id: guest.id } });
    const list = await api('GET', path(`/${snippet.id}/notes`), { token: owner.token });
    expect(list.body.map((n: { body: string }) => n.body)).toEqual([':+1:']);
    const single = await api('GET', path(`/${snippet.id}/notes/${note.body.id}`), { token: owner.token });
    expect(single.body).toEqual({
      id: snippet.id,
      title: 'Discussed',
      file_name: 'd.txt',
      author: expect.objectContaining({ id: reporter.id }),
      expires_at: null,
      updated_at: expect.any(String),
      created_at: expect.any(String),
    });
    expect(
      (await api('PUT', path(`/${snippet.id}/notes/${note.body.id}`), { token: reporter.token, body: { body: 'x' } }))
        .status,
    ).toBe(403);
    expect(
      (await api('PUT', path(`/${snippet.id}/notes/${note.body.id}`), { token: guest.token, body: { body: 'edited' } }))
        .body.body,
    ).toBe('edited');
    const other = await createProject(owner.token, { snippets_enabled: true });
    expect(
      (await api('GET', `/projects/${other.id}/snippets/${snippet.id}/notes/${note.body.id}`, { token: owner.token }))
        .status,
    ).toBe(404);
  });
});
