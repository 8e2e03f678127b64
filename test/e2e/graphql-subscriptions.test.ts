import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '@hub/local';
import {
  addMember,
  api,
  createProject,
  createUser,
  eventually,
  graphql,
  unique,
  type TestProject,
  type TestUser,
} from '../support/api';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';
import { startReplica } from '../support/replica';
import { rawSocket, subscribe, subscriber, subscriptionsUrl, untilLive } from '../support/subscriptions';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

// GraphQL subscriptions at the gateway's /graphql over WebSocket (graphql-transport-ws), as an
// internal team's graphql-ws client uses them: what happens arrives as it happens, as the
// subscriber may see it; refusals look like a missing object; bad input closes only its socket;
// a cursor resumes after a gateway restart, and two gateways each deliver each event once.

const MERGE_REQUESTS = `subscription ($projectId: Int, $mergeRequestId: Int, $after: String) {
  mergeRequestUpdated(projectId: $projectId, mergeRequestId: $mergeRequestId, after: $after) {
    cursor action actor { username } mergeRequest { databaseId title state }
  }
}`;
const ISSUES = `subscription ($projectId: Int, $issueId: Int, $after: String) {
  issueUpdated(projectId: $projectId, issueId: $issueId, after: $after) {
    cursor action issue { databaseId title state }
  }
}`;
const PUSHES = `subscription ($projectId: Int!) {
  pushed(projectId: $projectId) { cursor ref tag before after totalCommitsCount actor { username } project { databaseId name } }
}`;

let owner: TestUser;
let developer: TestUser;
let stranger: TestUser;
let project: TestProject;
let wc: string;
const clients: Array<{ dispose: () => void }> = [];

/** A signed-in graphql-ws client, disposed after the file. */
function client(token: string, url?: string) {
  const made = subscriber(token, url);
  clients.push(made);
  return made;
}

/** A new user who is a Developer of the project. */
async function member() {
  const user = await createUser();
  await addMember(project.id, user.id, 30);
  return user;
}

const openIssue = async (title = unique('issue')) =>
  (await api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title } })).body as {
    id: number;
    title: string;
  };
const retitle = (issueId: number, title: string) =>
  api('PUT', `/projects/${project.id}/issues/${issueId}`, { token: owner.token, body: { title } });

/** Pushes `branch` with one more commit; answers the commit's sha. */
async function push(branch: string, files: Record<string, string>) {
  await git(wc, 'checkout', '-q', '-B', branch);
  const sha = await commitFiles(wc, files, `work on ${branch}`);
  ok(
    await git(wc, 'push', '-q', '--force', remoteUrl(project.path_with_namespace, owner.username, owner.token), branch),
  );
  await git(wc, 'checkout', '-q', 'master');
  return sha;
}

beforeAll(async () => {
  [owner, developer, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
  project = await createProject(owner.token, { visibility_level: 0 });
  await addMember(project.id, developer.id, 30);
  wc = await workingCopy({ 'README.md': 'hello\n' });
  ok(await git(wc, 'push', '-q', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
});

afterAll(() => {
  for (const made of clients) made.dispose();
});

describe('what happens arrives as it happens', () => {
  it('a push: its ref, shas, commit count and pusher, and the project as selected', async () => {
    const pushes = subscribe(client(developer.token).client, PUSHES, { projectId: project.id }, 'pushed');
    await untilLive(pushes, () => push('warm-up', { 'warm.txt': unique('w') }));
    const sha = await push('feature-push', { 'push.txt': 'pushed\n' });
    expect(await pushes.find((m) => m.ref === 'refs/heads/feature-push')).toEqual({
      cursor: expect.any(String),
      ref: 'refs/heads/feature-push',
      tag: false,
      before: '0'.repeat(40),
      after: sha,
      totalCommitsCount: 1,
      actor: { username: owner.username },
      project: { databaseId: project.id, name: project.name },
    });
  });

  it('a merge request opened and merged, to subscribers of its project and of it alone', async () => {
    const byProject = subscribe(
      client(developer.token).client,
      MERGE_REQUESTS,
      { projectId: project.id },
      'mergeRequestUpdated',
    );
    await push('feature-merge', { 'merge.txt': 'merge me\n' });
    const title = unique('Merge me');
    await untilLive(byProject, async () => {
      if (byProject.messages.length === 0)
        await api('POST', `/projects/${project.id}/merge_requests`, {
          token: developer.token,
          body: { source_branch: 'feature-merge', target_branch: 'master', title },
        });
    });
    const opened = await byProject.find((m) => m.mergeRequest.title === title);
    expect(opened).toMatchObject({
      action: 'OPENED',
      actor: { username: developer.username },
      mergeRequest: { state: 'OPENED' },
    });
    const id = opened.mergeRequest.databaseId;
    const alone = subscribe(
      client(developer.token).client,
      MERGE_REQUESTS,
      { mergeRequestId: id },
      'mergeRequestUpdated',
    );
    await untilLive(alone, () =>
      api('PUT', `/projects/${project.id}/merge_request/${id}`, {
        token: owner.token,
        body: { description: unique('d') },
      }),
    );
    const merged = await api('PUT', `/projects/${project.id}/merge_request/${id}/merge`, { token: owner.token });
    expect(merged.status).toBe(200);
    for (const subscription of [byProject, alone])
      expect(await subscription.find((m) => m.action === 'MERGED')).toEqual({
        cursor: expect.any(String),
        action: 'MERGED',
        actor: { username: owner.username },
        mergeRequest: { databaseId: id, title, state: 'MERGED' },
      });
    // The merge request's own subscription hears of no other.
    expect(alone.messages.every((m) => m.mergeRequest.databaseId === id)).toBe(true);
  });

  it('a comment on an issue, and the issue closed, to subscribers of the issue', async () => {
    const issue = await openIssue();
    const { client: c } = client(developer.token);
    const notes = subscribe(
      c,
      `subscription ($noteableId: ID!) { noteAdded(noteableId: $noteableId) { cursor actor { username } note { body author { username } } } }`,
      { noteableId: `gid://hub/Issue/${issue.id}` },
      'noteAdded',
    );
    const issues = subscribe(c, ISSUES, { issueId: issue.id }, 'issueUpdated');
    const comment = (body: string) =>
      api('POST', `/projects/${project.id}/issues/${issue.id}/notes`, { token: owner.token, body: { body } });
    await untilLive(notes, () => comment(unique('warm-up')));
    await untilLive(issues, () => retitle(issue.id, unique('retitled')));
    await comment('the one that counts');
    expect(await notes.find((m) => m.note.body === 'the one that counts')).toEqual({
      cursor: expect.any(String),
      actor: { username: owner.username },
      note: { body: 'the one that counts', author: { username: owner.username } },
    });
    await api('PUT', `/projects/${project.id}/issues/${issue.id}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    expect(await issues.find((m) => m.action === 'CLOSED')).toMatchObject({
      issue: { databaseId: issue.id, state: 'CLOSED' },
    });
  });

  it("the project's feed, live", async () => {
    const feed = subscribe(
      client(developer.token).client,
      `subscription ($projectId: Int!) { projectEvents(projectId: $projectId) { cursor occurredAt event { actionName targetTitle author { username } } } }`,
      { projectId: project.id },
      'projectEvents',
    );
    await untilLive(feed, () => openIssue());
    const title = unique('feed');
    await openIssue(title);
    expect(await feed.find((m) => m.event.targetTitle === title)).toEqual({
      cursor: expect.any(String),
      occurredAt: expect.any(String),
      event: { actionName: 'opened', targetTitle: title, author: { username: owner.username } },
    });
  });

  it('each attempt to deliver to a hook, failed and then delivered', async () => {
    const receiver: Receiver = await startReceiver();
    try {
      const title = unique('hooked');
      let refused = false;
      receiver.respond('live', (hook) => {
        const mine = (hook.body as { object_attributes?: { title?: string } }).object_attributes?.title === title;
        if (!mine || refused) return { status: 200, body: 'ok' };
        refused = true;
        return { status: 500, body: 'not yet' };
      });
      const hook = (
        await api('POST', `/projects/${project.id}/hooks`, {
          token: owner.token,
          body: { url: receiver.url('live'), push_events: false, issues_events: true },
        })
      ).body as { id: number };
      const attempts = subscribe(
        client(owner.token).client,
        `subscription ($hookId: ID!) { hookDeliveryAttempted(hookId: $hookId) { cursor attempt state statusCode delivery { hookId eventName payload } } }`,
        { hookId: `gid://hub/Hook/${hook.id}` },
        'hookDeliveryAttempted',
      );
      await untilLive(attempts, () => openIssue());
      await openIssue(title);
      const ours = (m: { delivery: { payload: string } }) =>
        JSON.parse(m.delivery.payload).object_attributes.title === title;
      const delivered = await attempts.find((m) => ours(m) && m.state === 'delivered');
      expect(
        attempts.messages.filter(ours).map(({ attempt, state, statusCode }) => ({ attempt, state, statusCode })),
      ).toEqual([
        { attempt: 1, state: 'pending', statusCode: 500 },
        { attempt: 2, state: 'delivered', statusCode: 200 },
      ]);
      expect(delivered.delivery).toMatchObject({ hookId: hook.id, eventName: 'Issue Hook' });
    } finally {
      await receiver.close();
    }
  });
});

describe('what the subscriber may see', () => {
  it('a private project is refused to a stranger as a missing one is, and pushes to a guest', async () => {
    const guest = await createUser();
    await addMember(project.id, guest.id, 10);
    // The error, without where it points (the field differs between the subscriptions asked).
    const ask = async (token: string, query: string, variables: Record<string, unknown>, field: string) => {
      const { message, extensions } = (await subscribe(client(token).client, query, variables, field).firstError()) as {
        message: string;
        extensions?: unknown;
      };
      return { message, extensions };
    };
    const missing = await ask(stranger.token, ISSUES, { projectId: 2_000_000_000 }, 'issueUpdated');
    expect(missing).toMatchObject({ message: '404 Project Not Found', extensions: { code: 'NOT_FOUND' } });
    expect(await ask(stranger.token, ISSUES, { projectId: project.id }, 'issueUpdated')).toEqual(missing);
    expect(await ask(guest.token, PUSHES, { projectId: project.id }, 'pushed')).toEqual(missing);
  });

  it('a member removed hears nothing more: the subscription ends as for a missing project', async () => {
    const leaving = await createUser();
    await addMember(project.id, leaving.id, 30);
    const issues = subscribe(client(leaving.token).client, ISSUES, { projectId: project.id }, 'issueUpdated');
    await untilLive(issues, () => openIssue());
    const heard = issues.messages.length;
    expect((await api('DELETE', `/projects/${project.id}/members/${leaving.id}`, { token: owner.token })).status).toBe(
      200,
    );
    // Once the issues' owner has heard of the removal (a query as the member sees nothing)…
    const seen = issues.messages[heard - 1]!.issue.databaseId;
    await eventually(async () => {
      const answer = await graphql(
        `{ node(id: "gid://hub/Issue/${seen}") { id } }`,
        {},
        { 'PRIVATE-TOKEN': leaving.token },
      );
      expect(answer.body.data?.node).toBeNull();
    });
    const secret = unique('after removal');
    await openIssue(secret);
    expect(await issues.firstError()).toMatchObject({ message: '404 Project Not Found' });
    expect(issues.messages.slice(heard).some((m) => m.issue.title === secret)).toBe(false);
    await issues.completion();
  });

  it('closes a socket whose token is missing or refused with 4401', async () => {
    expect(await subscriber(null).closed).toEqual({ code: 4401, reason: expect.stringMatching(/^Unauthorized/) });
    expect(await subscriber('not-a-token').closed).toEqual({
      code: 4401,
      reason: 'Unauthorized: the token was refused',
    });
  });
});

describe('bad input', () => {
  it('closes the socket of a malformed message with 4400, and of a subscribe before connection_init with 4401', async () => {
    const malformed = await rawSocket();
    malformed.send('{"type": "connection_init"');
    expect((await malformed.closed).code).toBe(4400);
    const early = await rawSocket();
    early.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { pushed(projectId: 1) { cursor } }' } });
    expect((await early.closed).code).toBe(4401);
  });

  it('answers a query over WebSocket and a bad document with an error message, keeping the socket', async () => {
    const socket = await rawSocket();
    socket.send({ type: 'connection_init', payload: { privateToken: owner.token } });
    await socket.next('connection_ack');
    socket.send({ id: 'q', type: 'subscribe', payload: { query: '{ viewer { username } }' } });
    expect((await socket.next('error')).payload).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^Only subscriptions are served over WebSocket/) }),
    ]);
    socket.send({
      id: 'bad',
      type: 'subscribe',
      payload: { query: 'subscription { pushed(projectId: "x") { cursor } }' },
    });
    expect((await socket.next('error')).payload[0].message).toMatch(/Int/);
    socket.send({
      id: 'both',
      type: 'subscribe',
      payload: { query: 'subscription { issueUpdated(projectId: 1, issueId: 1) { cursor } }' },
    });
    expect((await socket.next('next')).payload.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    socket.send({
      id: 'cursor',
      type: 'subscribe',
      payload: {
        query: 'subscription ($after: String) { issueUpdated(projectId: 1, after: $after) { cursor } }',
        variables: { after: Buffer.from('git_worker/1-0').toString('base64url') },
      },
    });
    expect((await socket.next('next')).payload.errors[0]).toMatchObject({
      message: expect.stringMatching(/^"after" is not a cursor of this subscription/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(socket.socket.readyState).toBe(socket.socket.OPEN);
    socket.socket.close();
  });

  it('refuses a subscription sent over HTTP with 400', async () => {
    const res = await graphql(
      `subscription { pushed(projectId: ${project.id}) { cursor } }`,
      {},
      { 'PRIVATE-TOKEN': owner.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].message).toMatch(/subscriptions are served over WebSocket/);
  });
});

describe('a second gateway, restarted, and its limits', () => {
  const PER_USER = 3;
  const QUEUE = 4;
  let port: number;
  let replica: ChildProcess | undefined;
  const start = async () => {
    replica = await startReplica(
      'gateway/dist/main.js',
      'gateway-live',
      {
        GATEWAY_PORT: String(port),
        SUBSCRIPTIONS_PER_USER: String(PER_USER),
        SUBSCRIPTION_QUEUE_LIMIT: String(QUEUE),
        LOG_LEVEL: 'warn',
      },
      `http://127.0.0.1:${port}/readyz`,
    );
  };
  const stop = async () => {
    const exited = new Promise((resolve) => replica!.once('exit', resolve));
    replica!.kill('SIGTERM');
    await exited;
  };
  const url = () => subscriptionsUrl(`http://127.0.0.1:${port}/graphql`);

  beforeAll(async () => {
    port = await freePort();
    await start();
  }, 60_000);
  afterAll(() => {
    replica?.kill('SIGTERM');
  });

  it('delivers each event once to a subscriber of each gateway', async () => {
    const here = subscribe(client(owner.token).client, ISSUES, { projectId: project.id }, 'issueUpdated');
    const there = subscribe(client(owner.token, url()).client, ISSUES, { projectId: project.id }, 'issueUpdated');
    await untilLive(here, () => openIssue());
    await untilLive(there, () => openIssue());
    const titles = [unique('once'), unique('once'), unique('marker')];
    for (const title of titles) await openIssue(title);
    for (const subscription of [here, there]) {
      await subscription.find((m) => m.issue.title === titles[2]);
      for (const title of titles) expect(subscription.messages.filter((m) => m.issue.title === title)).toHaveLength(1);
    }
  });

  it('resumes after a restart from the last cursor: nothing lost, nothing twice', async () => {
    const issue = await openIssue();
    const first = subscriber(owner.token, url());
    const before = subscribe(first.client, ISSUES, { issueId: issue.id }, 'issueUpdated');
    await untilLive(before, () => retitle(issue.id, unique('before')));
    // The last event before the restart is the only close: its message is the last one heard.
    await api('PUT', `/projects/${project.id}/issues/${issue.id}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    const last = await before.find((m) => m.action === 'CLOSED');
    await stop();
    expect((await first.closed).code).toBe(1001);
    await api('PUT', `/projects/${project.id}/issues/${issue.id}`, {
      token: owner.token,
      body: { state_event: 'reopen' },
    });
    expect((await retitle(issue.id, unique('missed'))).status).toBe(200);
    await start();
    const again = subscribe(
      client(owner.token, url()).client,
      ISSUES,
      { issueId: issue.id, after: last.cursor },
      'issueUpdated',
    );
    await again.nth(1);
    await api('PUT', `/projects/${project.id}/issues/${issue.id}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    await again.nth(2);
    expect(again.messages.map((m) => m.action)).toEqual(['REOPENED', 'UPDATED', 'CLOSED']);
    expect(new Set([last.cursor, ...again.messages.map((m) => m.cursor)]).size).toBe(4);
  }, 120_000);

  it('closes the socket that asks for more subscriptions than a user may hold with 4429, and no other', async () => {
    const other = subscribe(client(developer.token, url()).client, ISSUES, { projectId: project.id }, 'issueUpdated');
    await untilLive(other, () => openIssue());
    const greedy = subscriber((await member()).token, url());
    const held = Array.from({ length: PER_USER + 1 }, () =>
      subscribe(greedy.client, ISSUES, { projectId: project.id }, 'issueUpdated'),
    );
    expect(await greedy.closed).toEqual({ code: 4429, reason: `Too many subscriptions: at most ${PER_USER} per user` });
    expect(held).toHaveLength(PER_USER + 1);
    const title = unique('still heard');
    await openIssue(title);
    expect(await other.find((m) => m.issue.title === title)).toBeTruthy();
  });

  it('closes a subscriber that does not read with 4008', async () => {
    const issue = await openIssue();
    // Messages of about 2 MiB: a few fill the socket's buffers, and the rest wait in the queue.
    const description = 'x'.repeat(256 * 1024);
    await api('PUT', `/projects/${project.id}/issues/${issue.id}`, { token: owner.token, body: { description } });
    const copies = Array.from({ length: 8 }, (_, i) => `d${i}: issue { description }`).join(' ');
    const reader = await member();
    const slow = await rawSocket(url());
    slow.send({ type: 'connection_init', payload: { privateToken: reader.token } });
    await slow.next('connection_ack');
    slow.send({
      id: 'slow',
      type: 'subscribe',
      payload: {
        query: `subscription ($issueId: Int) { issueUpdated(issueId: $issueId) { cursor ${copies} } }`,
        variables: { issueId: issue.id },
      },
    });
    const watcher = subscribe(client(reader.token, url()).client, ISSUES, { issueId: issue.id }, 'issueUpdated');
    await untilLive(watcher, () => retitle(issue.id, unique('warm')));
    // The slow one stops reading; updates go on until the watcher, on the same gateway, has heard
    // them all (each is offered to both subscriptions at once).
    (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const heard = watcher.messages.length;
    const updates = 24;
    for (let i = 0; i < updates; i++) await retitle(issue.id, `update ${i}`);
    await watcher.nth(heard + updates - 1, 30_000);
    (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.resume();
    expect(await slow.closed).toEqual({
      code: 4008,
      reason: `Slow consumer: ${QUEUE} messages were waiting to be read`,
    });
    expect(slow.received.filter((m) => m.type === 'next').length).toBeLessThan(updates);
  }, 120_000);
});

describe("the README's example", () => {
  it('runs as written, printing each message', async () => {
    const readme = readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Following what happens'));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toContain("require('graphql-ws')");
    // Run where graphql-ws and ws are installed (test/'s dependencies), as the README asks.
    const child = spawn(process.execPath, ['-e', code!], {
      cwd: resolve(__dirname, '..'),
      env: { ...process.env, T: owner.token, PROJECT: String(project.id), GRAPHQL_WS: subscriptionsUrl() },
    });
    const lines: string[] = [];
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      lines.push(...output.split('\n').slice(0, -1));
      output = output.slice(output.lastIndexOf('\n') + 1);
    });
    try {
      const title = unique('from the readme');
      const deadline = Date.now() + 20_000;
      while (!lines.some((line) => line.includes(title))) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no message printed: ${JSON.stringify(lines)}`);
        await openIssue(title);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const printed = JSON.parse(lines.find((line) => line.includes(title))!);
      expect(printed).toEqual({
        data: { issueUpdated: { cursor: expect.any(String), action: 'OPENED', issue: { title, state: 'OPENED' } } },
      });
    } finally {
      child.kill();
    }
  });
});
