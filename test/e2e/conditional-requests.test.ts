import type { ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { freePort } from '@hub/local';
import { request } from 'undici';
import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  stack,
  unique,
  type ApiResponse,
  type TestProject,
  type TestUser,
} from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';
import { startReplica } from '../support/replica';

// Conditional requests: every JSON GET answers with a weak ETag; If-None-Match with a current one
// gets 304. The routes clients poll build their tag from versions that events advance, so a 304
// asks no subgraph; every change shown advances a version on every replica.

const SUBGRAPHS = ['identity', 'projects', 'membership', 'repository', 'mergerequests', 'notes', 'hooks'] as const;

/** Forwards to a subgraph and counts the GraphQL requests it forwards. */
async function countingProxy(target: string): Promise<{ url: string; server: Server; graphql: () => number }> {
  let graphqlRequests = 0;
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/graphql')) graphqlRequests++;
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, server, graphql: () => graphqlRequests };
}

/** A GET to a facade at `base` (…/api/v3) as `token`, with extra headers. */
async function get(base: string, path: string, token: string, headers: Record<string, string> = {}) {
  const response = await request(`${base}${path}`, { headers: { 'PRIVATE-TOKEN': token, ...headers } });
  const text = await response.body.text();
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return { status: response.statusCode, text, header };
}

const WEAK_TAG = /^W\/"[A-Za-z0-9_-]+"$/;
const PRIVATE = 'max-age=0, private, must-revalidate';

/**
 * The tag of `path` once what was just changed has settled: versions advance again as consumers
 * apply an event and a second after it is relayed, so a tag taken meanwhile may be replaced.
 */
async function settledTag(path: string, token: string): Promise<string> {
  let tag = '';
  await eventually(async () => {
    const first = await api('GET', path, { token });
    expect([path, first.status]).toEqual([path, 200]);
    tag = first.headers.get('etag')!;
    expect([path, tag]).toEqual([path, expect.stringMatching(WEAK_TAG)]);
    expect(first.headers.get('cache-control')).toBe(PRIVATE);
    const again = await api('GET', path, { token, headers: { 'If-None-Match': tag } });
    expect([path, again.status, again.text]).toEqual([path, 304, '']);
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('cache-control')).toBe(PRIVATE);
  }, 10_000);
  return tag;
}

describe('conditional requests', () => {
  let owner: TestUser;
  let project: TestProject;
  let issueId: number;
  let mergeRequestId: number;
  let milestoneId: number;
  let clone: string;

  beforeAll(async () => {
    owner = await createUser();
    project = await createProject(owner.token);
    clone = await workingCopy({ 'README.md': 'one\n' });
    ok(
      await git(clone, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.password), 'master'),
    );
    ok(await git(clone, 'checkout', '-q', '-b', 'feature'));
    await commitFiles(clone, { 'feature.txt': 'feature\n' }, 'a feature');
    ok(
      await git(clone, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.password), 'feature'),
    );
    const milestone = await api('POST', `/projects/${project.id}/milestones`, {
      token: owner.token,
      body: { title: unique('m') },
    });
    milestoneId = milestone.body.id;
    const issue = await api('POST', `/projects/${project.id}/issues`, {
      token: owner.token,
      body: { title: 'polled', milestone_id: milestoneId },
    });
    issueId = issue.body.id;
    await api('POST', `/projects/${project.id}/issues/${issueId}/notes`, { token: owner.token, body: { body: 'a' } });
    const mr = await api('POST', `/projects/${project.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: 'feature', target_branch: 'master', title: 'polled mr' },
    });
    expect(mr.status).toBe(201);
    mergeRequestId = mr.body.id;
  });

  /** The routes clients poll, then others: each must answer with a tag. */
  const polled = () => [
    `/projects/${project.id}`,
    `/projects/${encodeURIComponent(project.path_with_namespace)}`,
    '/projects',
    '/projects/owned',
    `/projects/${project.id}/events`,
    `/projects/${project.id}/merge_requests`,
    `/projects/${project.id}/merge_request/${mergeRequestId}`,
    `/projects/${project.id}/merge_request/${mergeRequestId}/changes`,
    `/projects/${project.id}/issues`,
    `/projects/${project.id}/issues/${issueId}`,
    `/projects/${project.id}/issues/${issueId}/notes`,
    `/projects/${project.id}/repository/branches`,
    `/projects/${project.id}/repository/branches/master`,
    `/projects/${project.id}/repository/commits`,
  ];
  const others = () => [
    '/user',
    `/users/${owner.id}`,
    `/projects/${project.id}/members`,
    `/projects/${project.id}/hooks`,
    `/projects/${project.id}/labels`,
    `/projects/${project.id}/milestones`,
    `/projects/${project.id}/repository/compare?from=master&to=feature`,
    '/namespaces',
  ];

  it('tags every JSON GET, privately, and answers a current tag with 304 and no body', async () => {
    // A project list's tag follows every project's activity, which other test files make meanwhile:
    // settledTag asks until two requests in a row agree.
    for (const path of [...polled(), ...others()]) await settledTag(path, owner.token);
  });

  it('compares weakly: the strong form and a list holding the tag match, another tag does not', async () => {
    const path = `/projects/${project.id}/issues`;
    const withTag = (value: string) => api('GET', path, { token: owner.token, headers: { 'If-None-Match': value } });
    // Retried whole if a version advances meanwhile (another test file changing a user).
    await eventually(async () => {
      const tag = await settledTag(path, owner.token);
      expect((await withTag(tag.slice(2))).status).toBe(304);
      expect((await withTag(`W/"elsewhere", ${tag}`)).status).toBe(304);
      expect((await withTag('W/"elsewhere"')).status).toBe(200);
      expect((await withTag('*')).status).toBe(304);
    }, 10_000);
  });

  it('gives each caller its own tags: another caller’s tag gets the full answer', async () => {
    const member = await createUser();
    await addMember(project.id, member.id, 30);
    const path = `/projects/${project.id}`;
    const ownerAnswer = await api('GET', path, { token: owner.token });
    const memberAnswer = await api('GET', path, { token: member.token });
    expect(memberAnswer.headers.get('etag')).not.toBe(ownerAnswer.headers.get('etag'));
    const borrowed = await api('GET', path, {
      token: member.token,
      headers: { 'If-None-Match': ownerAnswer.headers.get('etag')! },
    });
    expect(borrowed.status).toBe(200);
    expect(borrowed.body.permissions.project_access.access_level).toBe(30);
  });

  it('checks credentials before a 304: a bad token or a refused sudo is refused as without a tag', async () => {
    const path = `/projects/${project.id}`;
    const bad = await api('GET', path, { token: 'not-a-token', headers: { 'If-None-Match': '*' } });
    expect(bad.status).toBe(401);
    const sudo = await api('GET', path, { token: owner.token, headers: { 'If-None-Match': '*', SUDO: '1' } });
    expect(sudo.status).toBe(403);
  });

  it('answers a path the replica remembers as one it never looked up (found by the fuzz, seed 447690160)', async () => {
    // The owner's read makes this replica remember the private path; a stranger's refused sudo with
    // a malformed id must then be answered as for a path that names nothing.
    await settledTag(`/projects/${encodeURIComponent(project.path_with_namespace)}`, owner.token);
    const stranger = await createUser();
    const ask = (path: string) =>
      api('GET', `/projects/${encodeURIComponent(path)}/merge_requests/1.5/notes/9`, {
        token: stranger.token,
        headers: { SUDO: 'root' },
      });
    const remembered = await ask(project.path_with_namespace);
    const missing = await ask(`${owner.username}/${unique('nothing')}`);
    expect([remembered.status, remembered.text]).toEqual([missing.status, missing.text]);
  });

  /**
   * The tag of `path` before `change`, then: a request with it gets the full answer, showing
   * what `shows` looks for, soon after the change (the change travels as an event).
   */
  async function expectChangeShown(
    path: string,
    token: string,
    change: () => Promise<unknown>,
    shows: (answer: ApiResponse) => void,
  ) {
    const tag = await settledTag(path, token);
    await change();
    await eventually(async () => {
      const after = await api('GET', path, { token, headers: { 'If-None-Match': tag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(tag);
      shows(after);
    });
  }

  it('changes the project’s tag when the project is updated', async () => {
    const description = unique('described ');
    await expectChangeShown(
      `/projects/${project.id}`,
      owner.token,
      () => api('PUT', `/projects/${project.id}`, { token: owner.token, body: { description } }),
      (answer) => expect(answer.body.description).toBe(description),
    );
  });

  it('follows a path to the project it names now: after a rename the old path’s tag gets 404', async () => {
    const own = await createProject(owner.token);
    const oldPath = `/projects/${encodeURIComponent(own.path_with_namespace)}`;
    const tag = await settledTag(oldPath, owner.token);
    const moved = await api('PUT', `/projects/${own.id}`, { token: owner.token, body: { path: unique('moved') } });
    expect(moved.status).toBe(200);
    await eventually(async () => {
      const answer = await api('GET', oldPath, { token: owner.token, headers: { 'If-None-Match': tag } });
      expect(answer.status).toBe(404);
    });
    const newPath = `/projects/${encodeURIComponent(moved.body.path_with_namespace)}`;
    expect((await api('GET', newPath, { token: owner.token, headers: { 'If-None-Match': tag } })).status).toBe(200);
  });

  it('changes a member’s project list when they are added to a project', async () => {
    const newcomer = await createUser();
    await expectChangeShown(
      '/projects',
      newcomer.token,
      () => addMember(project.id, newcomer.id, 20),
      (answer) => expect(answer.body.map((p: TestProject) => p.id)).toContain(project.id),
    );
  });

  it('changes branches and commits with a push', async () => {
    const push = async () => {
      ok(await git(clone, 'checkout', '-q', 'master'));
      await commitFiles(clone, { [`${unique('f')}.txt`]: 'x\n' }, unique('pushed '));
      ok(
        await git(
          clone,
          'push',
          '-q',
          remoteUrl(project.path_with_namespace, owner.username, owner.password),
          'master',
        ),
      );
      return (await git(clone, 'rev-parse', 'HEAD')).stdout.trim();
    };
    let head = '';
    await expectChangeShown(
      `/projects/${project.id}/repository/branches/master`,
      owner.token,
      async () => (head = await push()),
      (answer) => expect(answer.body.commit.id).toBe(head),
    );
    await expectChangeShown(
      `/projects/${project.id}/repository/commits`,
      owner.token,
      async () => (head = await push()),
      (answer) => expect(answer.body[0].id).toBe(head),
    );
  });

  it('changes branches when one is protected, issues when their milestone changes', async () => {
    await expectChangeShown(
      `/projects/${project.id}/repository/branches/feature`,
      owner.token,
      () => api('PUT', `/projects/${project.id}/repository/branches/feature/protect`, { token: owner.token }),
      (answer) => expect(answer.body.protected).toBe(true),
    );
    const title = unique('renamed ');
    await expectChangeShown(
      `/projects/${project.id}/issues/${issueId}`,
      owner.token,
      () => api('PUT', `/projects/${project.id}/milestones/${milestoneId}`, { token: owner.token, body: { title } }),
      (answer) => expect(answer.body.milestone.title).toBe(title),
    );
  });

  it('changes notes with a note, merge requests with an update, the feed with anything', async () => {
    const body = unique('noted ');
    await expectChangeShown(
      `/projects/${project.id}/issues/${issueId}/notes`,
      owner.token,
      () => api('POST', `/projects/${project.id}/issues/${issueId}/notes`, { token: owner.token, body: { body } }),
      (answer) => expect(answer.body.map((n: { body: string }) => n.body)).toContain(body),
    );
    const title = unique('retitled ');
    await expectChangeShown(
      `/projects/${project.id}/merge_request/${mergeRequestId}`,
      owner.token,
      () =>
        api('PUT', `/projects/${project.id}/merge_request/${mergeRequestId}`, { token: owner.token, body: { title } }),
      (answer) => expect(answer.body.title).toBe(title),
    );
    const issueTitle = unique('fed ');
    await expectChangeShown(
      `/projects/${project.id}/events`,
      owner.token,
      () => api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title: issueTitle } }),
      (answer) => expect(answer.body[0].target_title).toBe(issueTitle),
    );
  });

  describe('on another replica whose subgraph calls are counted', () => {
    let replica: ChildProcess;
    let base: string;
    const proxies: Array<Awaited<ReturnType<typeof countingProxy>>> = [];
    const subgraphCalls = () => proxies.reduce((sum, proxy) => sum + proxy.graphql(), 0);

    beforeAll(async () => {
      const settings: NodeJS.ProcessEnv = {};
      for (const name of SUBGRAPHS) {
        const proxy = await countingProxy(stack.urls[name]);
        proxies.push(proxy);
        settings[`${name.toUpperCase()}_URL`] = proxy.url;
      }
      const port = await freePort();
      base = `http://127.0.0.1:${port}/api/v3`;
      replica = await startReplica(
        'rest-facade/dist/main.js',
        'rest-facade-conditional',
        // Its own request budget (a window no other facade uses): 304s must not spend it.
        { ...settings, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_USER: '100', RATE_LIMIT_WINDOW_S: '3599' },
        `http://127.0.0.1:${port}/readyz`,
      );
    });
    afterAll(() => {
      replica?.kill('SIGTERM');
      for (const proxy of proxies) proxy.server.close();
    });

    it('answers a current tag of every polled route with 304 without asking a subgraph', async () => {
      for (const path of polled()) {
        await eventually(async () => {
          const full = await get(base, path, owner.token);
          expect([path, full.status]).toEqual([path, 200]);
          const before = subgraphCalls();
          const again = await get(base, path, owner.token, { 'If-None-Match': full.header('etag')! });
          expect([path, again.status, subgraphCalls() - before]).toEqual([path, 304, 0]);
        }, 10_000);
        // …and the full answer did ask them: the count is not stuck.
        const before = subgraphCalls();
        expect((await get(base, path, owner.token)).status).toBe(200);
        expect([path, subgraphCalls() > before]).toEqual([path, true]);
      }
    });

    it('makes the same tags as the stack’s facade, and both change with a change', async () => {
      const path = `/projects/${project.id}/issues/${issueId}`;
      let tag = '';
      await eventually(async () => {
        tag = await settledTag(path, owner.token);
        expect((await get(base, path, owner.token)).header('etag')).toBe(tag);
      }, 10_000);
      await api('PUT', path, { token: owner.token, body: { description: unique('both ') } });
      await eventually(async () => {
        expect((await get(base, path, owner.token, { 'If-None-Match': tag })).status).toBe(200);
        expect((await api('GET', path, { token: owner.token, headers: { 'If-None-Match': tag } })).status).toBe(200);
      });
    });

    it('does not count a 304 against the rate limit', async () => {
      const caller = await createUser();
      const path = `/projects/${project.id}`;
      await addMember(project.id, caller.id, 20);
      const remainingAfter = async (path: string) =>
        Number((await get(base, path, caller.token)).header('ratelimit-remaining'));
      // Retried whole if a version advances meanwhile (a full answer then counts, as it should).
      await eventually(async () => {
        const tag = await settledTag(path, caller.token);
        const before = await remainingAfter('/user');
        for (let i = 0; i < 5; i++) {
          const conditional = await get(base, path, caller.token, { 'If-None-Match': tag });
          expect(conditional.status).toBe(304);
          expect(Number(conditional.header('ratelimit-remaining'))).toBe(before);
        }
        // The refunds go to Redis ahead of the next request's count, on the same connection.
        expect(await remainingAfter('/user')).toBe(before - 1);
      }, 10_000);
    });
  });
});
