import { writeFileSync } from 'node:fs';
import { createSql } from '@hub/common';
import {
  api,
  createProject,
  createUser,
  eventually,
  stack,
  type ApiResponse,
  type TestProject,
  type TestUser,
} from '../support/api';
import { git, ok, remoteUrl, workingCopy } from '../support/git';

// Identical writes on refs and merge requests at once: the successes a sequential run gives, the
// others answered as a sequential repeat is, and refs and rows consistent afterwards.
const N = 16;

const parallel = <T>(n: number, call: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => call(i)));
const statuses = (results: ApiResponse[]) =>
  results.reduce<Record<string, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

let owner: TestUser;

/** A project with master and `branches` pushed, each branch one commit with its own file off master. */
async function projectWithBranches(branches: string[]): Promise<{ project: TestProject; wc: string }> {
  const project = await createProject(owner.token);
  const wc = await workingCopy({ 'README.md': 'hello\n' });
  for (const name of branches) {
    ok(await git(wc, 'checkout', '-q', '-B', name, 'master'));
    writeFileSync(`${wc}/${name}.txt`, `${name}\n`);
    ok(await git(wc, 'add', '-A'));
    ok(await git(wc, 'commit', '-q', '-m', `work on ${name}`));
  }
  ok(
    await git(
      wc,
      'push',
      '-q',
      remoteUrl(project.path_with_namespace, owner.username, owner.token),
      'master',
      ...branches,
    ),
  );
  return { project, wc };
}

const repo = (project: TestProject, suffix: string) => `/projects/${project.id}/repository${suffix}`;

beforeAll(async () => {
  owner = await createUser();
});

describe('tags and branches made at once', () => {
  it(`creates a tag once: one 200, ${N - 1} times 405 "Tag already exists"`, async () => {
    const { project } = await projectWithBranches([]);
    const results = await parallel(N, () =>
      api('POST', repo(project, '/tags'), { token: owner.token, body: { tag_name: 'v1.0', ref: 'master' } }),
    );
    expect(statuses(results)).toEqual({ 200: 1, 405: N - 1 });
    for (const lost of results.filter((r) => r.status !== 200))
      expect(lost.body).toEqual({ message: 'Tag already exists' });
    const tags = await api('GET', repo(project, '/tags'), { token: owner.token });
    expect(tags.body.map((t: { name: string }) => t.name)).toEqual(['v1.0']);
  });

  it(`creates a branch once: one 201, ${N - 1} times 400 "Branch already exists"`, async () => {
    const { project } = await projectWithBranches([]);
    const results = await parallel(N, () =>
      api('POST', repo(project, '/branches'), { token: owner.token, body: { branch_name: 'twin', ref: 'master' } }),
    );
    expect(statuses(results)).toEqual({ 201: 1, 400: N - 1 });
    for (const lost of results.filter((r) => r.status !== 201))
      expect(lost.body).toEqual({ message: 'Branch already exists' });
  });

  it('makes every one of many different branches and tags created at once', async () => {
    const { project } = await projectWithBranches([]);
    const results = await parallel(N, (i) =>
      i % 2
        ? api('POST', repo(project, '/branches'), { token: owner.token, body: { branch_name: `b${i}`, ref: 'master' } })
        : api('POST', repo(project, '/tags'), { token: owner.token, body: { tag_name: `t${i}`, ref: 'master' } }),
    );
    expect(statuses(results)).toEqual({ 200: N / 2, 201: N / 2 });
    const branches = await api('GET', repo(project, '/branches'), { token: owner.token });
    expect(branches.body.length).toBe(N / 2 + 1);
  });

  it(`deletes a branch once: one 200, the others 404 "No such branch"`, async () => {
    const { project } = await projectWithBranches(['doomed']);
    const results = await parallel(N, () => api('DELETE', repo(project, '/branches/doomed'), { token: owner.token }));
    expect(statuses(results)).toEqual({ 200: 1, 404: N - 1 });
    for (const lost of results.filter((r) => r.status !== 200))
      expect(lost.body).toEqual({ message: 'No such branch' });
  });

  it('deletes each of many branches deleted at once', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `gone${i}`);
    const { project } = await projectWithBranches(names);
    const results = await parallel(names.length, (i) =>
      api('DELETE', repo(project, `/branches/${names[i]}`), { token: owner.token }),
    );
    expect(statuses(results)).toEqual({ 200: names.length });
    expect(
      (await api('GET', repo(project, '/branches'), { token: owner.token })).body.map((b: { name: string }) => b.name),
    ).toEqual(['master']);
  });

  it('protects and unprotects idempotently under races: every answer 200, the state one of the two, shown alike everywhere', async () => {
    const { project } = await projectWithBranches(['flip']);
    const results = await parallel(N, (i) =>
      api('PUT', repo(project, `/branches/flip/${i % 2 ? 'protect' : 'unprotect'}`), { token: owner.token }),
    );
    expect(statuses(results)).toEqual({ 200: N });
    const protect = await parallel(N, () =>
      api('PUT', repo(project, '/branches/flip/protect'), { token: owner.token }),
    );
    expect(statuses(protect)).toEqual({ 200: N });
    expect(protect.every((r) => r.body.protected === true)).toBe(true);
    const sql = createSql({ url: stack.databaseUrl, schema: 'repository', max: 1 });
    try {
      const [{ count }] =
        await sql`select count(*)::int as count from protected_branches where project_id = ${project.id} and name = 'flip'`;
      expect(count).toBe(1);
    } finally {
      await sql.end();
    }
    const shown = await api('GET', repo(project, '/branches'), { token: owner.token });
    expect(shown.body.find((b: { name: string }) => b.name === 'flip').protected).toBe(true);
  });
});

describe('merge requests at once', () => {
  it('gives 12 merge requests opened at once distinct, gap-free iids', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `mr${i}`);
    const { project } = await projectWithBranches(names);
    const results = await parallel(names.length, (i) =>
      api('POST', `/projects/${project.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: names[i], target_branch: 'master', title: names[i] },
      }),
    );
    expect(statuses(results)).toEqual({ 201: names.length });
    expect(results.map((r) => r.body.iid).sort((a, b) => a - b)).toEqual(
      Array.from({ length: names.length }, (_, i) => i + 1),
    );
  });

  it('opens one merge request for the same branches asked at once: one 201, the others 409', async () => {
    const { project } = await projectWithBranches(['same']);
    const results = await parallel(16, () =>
      api('POST', `/projects/${project.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: 'same', target_branch: 'master', title: 'Same' },
      }),
    );
    expect(statuses(results)).toEqual({ 201: 1, 409: 15 });
    for (const lost of results.filter((r) => r.status !== 201))
      expect(lost.body).toEqual({ message: 'Cannot Create: This merge request already exists: ["Same"]' });
  });

  it(`merges once when one merge request is accepted ${N} times at once: one 200, the others 405, one merge commit`, async () => {
    const { project } = await projectWithBranches(['accepted']);
    const before = (await api('GET', repo(project, '/branches/master'), { token: owner.token })).body.commit.id;
    const mr = (
      await api('POST', `/projects/${project.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: 'accepted', target_branch: 'master', title: 'Accept me' },
      })
    ).body;
    const results = await parallel(N, () =>
      api('PUT', `/projects/${project.id}/merge_request/${mr.id}/merge`, { token: owner.token }),
    );
    expect(statuses(results)).toEqual({ 200: 1, 405: N - 1 });
    for (const lost of results.filter((r) => r.status !== 200))
      expect(lost.body).toEqual({ message: '405 Method Not Allowed' });
    const commits = await api('GET', repo(project, '/commits'), { token: owner.token, query: { ref_name: 'master' } });
    // The merge commit, the branch's commit, master's first.
    expect(commits.body.length).toBe(3);
    const merge = await api('GET', repo(project, `/commits/${commits.body[0].id}`), { token: owner.token });
    expect(merge.body.parent_ids).toEqual([before, expect.any(String)]);
  });

  it('merges every one of many merge requests into the same branch accepted at once', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `each${i}`);
    const { project } = await projectWithBranches(names);
    const mrs = await parallel(names.length, (i) =>
      api('POST', `/projects/${project.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: names[i], target_branch: 'master', title: names[i] },
      }),
    );
    const results = await parallel(names.length, (i) =>
      api('PUT', `/projects/${project.id}/merge_request/${mrs[i].body.id}/merge`, { token: owner.token }),
    );
    expect(results.map((r) => [r.status, r.body.message])).toEqual(names.map(() => [200, undefined]));
    // Every branch's file is on master.
    const tree = await api('GET', repo(project, '/tree'), { token: owner.token });
    expect(tree.body.map((e: { name: string }) => e.name).sort()).toEqual(
      ['README.md', ...names.map((n) => `${n}.txt`)].sort(),
    );
  });

  it('answers merge requests opened while their project is deleted with 201 or 404, never a 5xx, and keeps none of them', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `late${i}`);
    const { project } = await projectWithBranches(names);
    const writes = parallel(names.length, async (i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 10));
      return api('POST', `/projects/${project.id}/merge_requests`, {
        token: owner.token,
        body: { source_branch: names[i], target_branch: 'master', title: names[i] },
      });
    });
    await new Promise((resolve) => setTimeout(resolve, names.length * 5));
    expect((await api('DELETE', `/projects/${project.id}`, { token: owner.token })).status).toBe(200);
    const results = await writes;
    expect(results.filter((r) => r.status !== 201 && r.status !== 404).map((r) => [r.status, r.text])).toEqual([]);
    const sql = createSql({ url: stack.databaseUrl, schema: 'mergerequests', max: 1 });
    try {
      await eventually(async () => {
        const [{ count }] =
          await sql`select count(*)::int as count from merge_requests where project_id = ${project.id}`;
        expect(count).toBe(0);
      }, 10000);
    } finally {
      await sql.end();
    }
  });
});
