import { generateKeyPairSync } from 'node:crypto';
import { createSql } from '@hub/common';
import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  stack,
  unique,
  type ApiResponse,
  type TestUser,
} from '../support/api';

// Many identical writes at once: exactly the successes a sequential run would give, the others
// answered as a sequential repeat is answered, and one row where one row belongs.
const N = 24;

const parallel = <T>(n: number, call: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => call(i)));
/** `{ "201": 1, "409": 23 }`: what came back, counted by status. */
const statuses = (results: ApiResponse[]) =>
  results.reduce<Record<string, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

/** One number from a service's own schema (the owner's table, as the test's oracle). */
async function count(
  schema: string,
  query: (sql: ReturnType<typeof createSql>) => Promise<{ count: number }[]>,
): Promise<number> {
  const sql = createSql({ url: stack.databaseUrl, schema, max: 1 });
  try {
    return (await query(sql))[0].count;
  } finally {
    await sql.end();
  }
}

/** A new ed25519 public key in OpenSSH form. */
function newKey(): string {
  const wire = (value: Buffer | string) => {
    const bytes = Buffer.from(value);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const x = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return `ssh-ed25519 ${Buffer.concat([wire('ssh-ed25519'), wire(x)]).toString('base64')} race@example`;
}

let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  [owner, other] = await Promise.all([createUser(), createUser()]);
});

describe('creating the same project many times at once', () => {
  it(`gives one 201 and ${N - 1} of the answer a repeat gets (409 naming the field), and one row`, async () => {
    const name = unique('race');
    const results = await parallel(N, () => api('POST', '/projects', { token: owner.token, body: { name } }));
    expect(statuses(results)).toEqual({ 201: 1, 409: N - 1 });
    const repeat = await api('POST', '/projects', { token: owner.token, body: { name } });
    expect(repeat.status).toBe(409);
    for (const lost of results.filter((r) => r.status !== 201)) expect(lost.body).toEqual(repeat.body);
    expect(
      await count(
        'projects',
        (sql) => sql`select count(*)::int as count from projects where lower(name) = lower(${name})`,
      ),
    ).toBe(1);
    const made = results.find((r) => r.status === 201)!.body;
    // The project's other owners learnt of it once: membership's facts and the creator's row.
    await eventually(async () => {
      expect(
        await count(
          'membership',
          (sql) => sql`select count(*)::int as count from members where project_id = ${made.id}`,
        ),
      ).toBe(1);
    });
  });

  it('renames one of many projects renamed to the same name at once: one 200, the others 409 as a repeat', async () => {
    const projects = await Promise.all(Array.from({ length: 8 }, () => createProject(owner.token)));
    const name = unique('renamed');
    const results = await Promise.all(
      projects.map((p) => api('PUT', `/projects/${p.id}`, { token: owner.token, body: { name, path: name } })),
    );
    expect(statuses(results)).toEqual({ 200: 1, 409: 7 });
    const loser = projects[results.findIndex((r) => r.status !== 200)];
    const repeat = await api('PUT', `/projects/${loser.id}`, { token: owner.token, body: { name, path: name } });
    for (const lost of results.filter((r) => r.status !== 200)) expect(lost.body).toEqual(repeat.body);
  });

  it('gives one fork per namespace when the same user forks a project many times at once', async () => {
    const source = await createProject(owner.token, { visibility_level: 20 });
    const results = await parallel(16, () => api('POST', `/projects/fork/${source.id}`, { token: other.token }));
    expect(statuses(results)).toEqual({ 201: 1, 409: 15 });
    const repeat = await api('POST', `/projects/fork/${source.id}`, { token: other.token });
    for (const lost of results.filter((r) => r.status !== 201))
      expect([lost.status, lost.body]).toEqual([repeat.status, repeat.body]);
    expect(
      await count(
        'projects',
        (sql) => sql`select count(*)::int as count from projects where forked_from_project_id = ${source.id}`,
      ),
    ).toBe(1);
  });

  it('records one fork relation when an admin sets it many times at once', async () => {
    const [source, target] = await Promise.all([createProject(owner.token), createProject(owner.token)]);
    const results = await parallel(16, () => api('POST', `/projects/${target.id}/fork/${source.id}`));
    expect(statuses(results)).toEqual({ 201: 1, 409: 15 });
    for (const lost of results.filter((r) => r.status !== 201))
      expect(lost.body).toEqual({ message: 'Project already forked' });
  });
});

describe('adding the same member many times at once', () => {
  it(`answers every add as GitLab answered an existing member (201, the membership unchanged), with one row`, async () => {
    const project = await createProject(owner.token);
    const user = await createUser();
    const results = await parallel(N, (i) =>
      api('POST', `/projects/${project.id}/members`, {
        token: owner.token,
        body: { user_id: user.id, access_level: i % 2 ? 30 : 20 },
      }),
    );
    expect(statuses(results)).toEqual({ 201: N });
    // Whichever add won, every answer shows that one membership.
    const levels = new Set(results.map((r) => r.body.access_level));
    expect(levels.size).toBe(1);
    expect(results.every((r) => r.body.id === user.id)).toBe(true);
    expect(
      await count(
        'membership',
        (sql) =>
          sql`select count(*)::int as count from members where project_id = ${project.id} and user_id = ${user.id}`,
      ),
    ).toBe(1);
    const shown = await api('GET', `/projects/${project.id}/members/${user.id}`, { token: owner.token });
    expect(shown.body.access_level).toBe([...levels][0]);
  });

  it('leaves the member removed or present, never half: removes and adds racing end with one row or none', async () => {
    const project = await createProject(owner.token);
    const user = await createUser();
    await addMember(project.id, user.id, 30);
    const results = await parallel(N, (i) =>
      i % 2
        ? api('DELETE', `/projects/${project.id}/members/${user.id}`, { token: owner.token })
        : api('POST', `/projects/${project.id}/members`, {
            token: owner.token,
            body: { user_id: user.id, access_level: 30 },
          }),
    );
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    const rows = await count(
      'membership',
      (sql) =>
        sql`select count(*)::int as count from members where project_id = ${project.id} and user_id = ${user.id}`,
    );
    const listed = (await api('GET', `/projects/${project.id}/members`, { token: owner.token })).body.filter(
      (m: { id: number }) => m.id === user.id,
    );
    expect(listed.length).toBe(rows);
  });
});

describe('creating the same hook many times at once', () => {
  it('makes one hook per request, as GitLab 7.14 did (no uniqueness on the URL), each listed once', async () => {
    const project = await createProject(owner.token);
    const url = `http://example.com/${unique('hook')}`;
    const results = await parallel(16, () =>
      api('POST', `/projects/${project.id}/hooks`, { token: owner.token, body: { url } }),
    );
    expect(statuses(results)).toEqual({ 201: 16 });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(16);
    const listed = await api('GET', `/projects/${project.id}/hooks`, { token: owner.token, query: { per_page: 100 } });
    expect(listed.body.map((h: { id: number }) => h.id).sort()).toEqual(results.map((r) => r.body.id).sort());
  });
});

describe('issues and notes created at once', () => {
  it(`gives ${N * 2} concurrent issues distinct, gap-free iids`, async () => {
    const project = await createProject(owner.token);
    const results = await parallel(N * 2, (i) =>
      api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: `issue ${i}` } }),
    );
    expect(statuses(results)).toEqual({ 201: N * 2 });
    expect(results.map((r) => r.body.iid).sort((a, b) => a - b)).toEqual(
      Array.from({ length: N * 2 }, (_, i) => i + 1),
    );
  });

  it(`keeps all ${N * 2} concurrent notes on one issue`, async () => {
    const project = await createProject(owner.token);
    const issue = (await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'talk' } }))
      .body;
    const results = await parallel(N * 2, (i) =>
      api('POST', `/projects/${project.id}/issues/${issue.id}/notes`, {
        token: owner.token,
        body: { body: `note ${i}` },
      }),
    );
    expect(statuses(results)).toEqual({ 201: N * 2 });
    const listed = await api('GET', `/projects/${project.id}/issues/${issue.id}/notes`, {
      token: owner.token,
      query: { per_page: 100 },
    });
    expect(listed.body.map((n: { body: string }) => n.body).sort()).toEqual(results.map((r) => r.body.body).sort());
  });

  it('gives one label and one milestone per name when the same one is created many times at once', async () => {
    const project = await createProject(owner.token);
    const labels = await parallel(16, () =>
      api('POST', `/projects/${project.id}/labels`, { token: owner.token, body: { name: 'bug', color: '#ff0000' } }),
    );
    expect(statuses(labels)).toEqual({ 201: 1, 409: 15 });
    for (const lost of labels.filter((r) => r.status !== 201))
      expect(lost.body).toEqual({ message: 'Label already exists' });
    const milestones = await parallel(16, (i) =>
      api('POST', `/projects/${project.id}/milestones`, { token: owner.token, body: { title: `m${i}` } }),
    );
    expect(statuses(milestones)).toEqual({ 201: 16 });
    expect(milestones.map((r) => r.body.iid).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
  });
});

describe('writes racing the deletion of their project', () => {
  it('answers a project deleted many times at once 200 each time (DELETE is idempotent), and it is gone', async () => {
    const project = await createProject(owner.token);
    const results = await parallel(N, () => api('DELETE', `/projects/${project.id}`, { token: owner.token }));
    expect(statuses(results)).toEqual({ 200: N });
    expect((await api('GET', `/projects/${project.id}`, { token: owner.token })).status).toBe(404);
  });

  it('answers changes to a project being deleted with 200 or 404, never a 5xx', async () => {
    const project = await createProject(owner.token);
    const results = await parallel(N, (i) =>
      i === N / 2
        ? api('DELETE', `/projects/${project.id}`, { token: owner.token })
        : api('PUT', `/projects/${project.id}`, { token: owner.token, body: { description: `change ${i}` } }),
    );
    expect(results.filter((r) => r.status !== 200 && r.status !== 404).map((r) => [r.status, r.text])).toEqual([]);
    expect((await api('GET', `/projects/${project.id}`, { token: owner.token })).status).toBe(404);
  });

  it('answers every write with a 2xx or a 404, never a 5xx, and leaves no rows of the deleted project behind', async () => {
    const project = await createProject(owner.token);
    const issue = (
      await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: 'first' } })
    ).body;
    const writes = parallel(N * 2, async (i) => {
      // Spread over the deletion: some before, some after.
      await new Promise((resolve) => setTimeout(resolve, i * 5));
      switch (i % 5) {
        case 0:
          return api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: `issue ${i}` } });
        case 1:
          return api('POST', `/projects/${project.id}/issues/${issue.id}/notes`, {
            token: owner.token,
            body: { body: `note ${i}` },
          });
        case 2:
          return api('POST', `/projects/${project.id}/hooks`, {
            token: owner.token,
            body: { url: `http://example.com/${i}` },
          });
        case 3:
          return api('POST', `/projects/${project.id}/keys`, {
            token: owner.token,
            body: { title: `key ${i}`, key: newKey() },
          });
        default:
          return api('POST', `/projects/${project.id}/members`, {
            token: owner.token,
            body: { user_id: other.id, access_level: 30 },
          });
      }
    });
    const deleted = await new Promise<ApiResponse>((resolve) =>
      setTimeout(() => resolve(api('DELETE', `/projects/${project.id}`, { token: owner.token })), N * 5),
    );
    expect(deleted.status).toBe(200);
    const results = await writes;
    expect(results.filter((r) => r.status !== 201 && r.status !== 404).map((r) => [r.status, r.text])).toEqual([]);
    // The owners clean up when they learn of the deletion; then nothing of the project is left.
    await eventually(async () => {
      const left = {
        issues: await count(
          'notes',
          (sql) => sql`select count(*)::int as count from issues where project_id = ${project.id}`,
        ),
        notes: await count(
          'notes',
          (sql) => sql`select count(*)::int as count from notes where project_id = ${project.id}`,
        ),
        hooks: await count(
          'hooks',
          (sql) => sql`select count(*)::int as count from hooks where project_id = ${project.id}`,
        ),
        members: await count(
          'membership',
          (sql) => sql`select count(*)::int as count from members where project_id = ${project.id}`,
        ),
        deployKeys: await count(
          'identity',
          (sql) => sql`select count(*)::int as count from deploy_keys_projects where project_id = ${project.id}`,
        ),
      };
      expect(left).toEqual({ issues: 0, notes: 0, hooks: 0, members: 0, deployKeys: 0 });
    }, 10000);
  });
});
