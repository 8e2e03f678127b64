import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedis, createSql, eventStream, type Redis, type Sql } from '@hub/common';
import { addMember, api, createProject, createUser, eventually, type TestUser } from '../support/api';
import { stackInfo } from '../support/stack-info';
import { commitFiles, git, ok, remoteUrl, workingCopy } from '../support/git';

const scratch = () => mkdtempSync(join(tmpdir(), 'hub-clone-'));

describe('git over HTTP through the facade', () => {
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    owner = await createUser();
    stranger = await createUser();
  });

  it('pushes with username and password, clones back with username and private token', async () => {
    const project = await createProject(owner.token);
    const wc = await workingCopy({ 'README.md': '# hello\n', 'src/ünï.txt': 'grüße\n' });
    const push = await git(
      wc,
      'push',
      remoteUrl(project.path_with_namespace, owner.username, owner.password),
      'master',
    );
    expect(push.code).toBe(0);
    const dir = scratch();
    const clone = await git(
      dir,
      'clone',
      '-q',
      remoteUrl(project.path_with_namespace, owner.username, owner.token),
      'copy',
    );
    expect(clone.code).toBe(0);
    expect(readFileSync(join(dir, 'copy', 'src', 'ünï.txt'), 'utf8')).toBe('grüße\n');
  });

  it('clones public projects anonymously; private ones need credentials (401 asks for them)', async () => {
    const pub = await createProject(owner.token, { visibility_level: 20 });
    const priv = await createProject(owner.token);
    for (const p of [pub, priv])
      await git(
        await workingCopy({ 'a.txt': 'a' }),
        'push',
        remoteUrl(p.path_with_namespace, owner.username, owner.token),
        'master',
      );
    expect((await git(scratch(), 'clone', '-q', remoteUrl(pub.path_with_namespace), 'x')).code).toBe(0);
    const anonymous = await git(scratch(), 'clone', '-q', remoteUrl(priv.path_with_namespace), 'x');
    expect(anonymous.code).not.toBe(0);
    const info = await fetch(`${remoteUrl(priv.path_with_namespace)}/info/refs?service=git-upload-pack`);
    expect(info.status).toBe(401);
    expect(info.headers.get('www-authenticate')).toMatch(/^Basic/);
    // Anonymous pushes always meet a credential request, even on public projects.
    const anonPush = await fetch(`${remoteUrl(pub.path_with_namespace)}/info/refs?service=git-receive-pack`);
    expect(anonPush.status).toBe(401);
  });

  it('refuses wrong credentials, and hides private projects from strangers', async () => {
    const project = await createProject(owner.token);
    await git(
      await workingCopy({ 'a.txt': 'a' }),
      'push',
      remoteUrl(project.path_with_namespace, owner.username, owner.token),
      'master',
    );
    const wrong = await git(
      scratch(),
      'clone',
      '-q',
      remoteUrl(project.path_with_namespace, owner.username, 'wrong-password'),
      'x',
    );
    expect(wrong.code).not.toBe(0);
    const wrongStatus = await fetch(`${remoteUrl(project.path_with_namespace)}/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`${owner.username}:nope`).toString('base64')}` },
    });
    expect(wrongStatus.status).toBe(401);
    const hidden = await fetch(`${remoteUrl(project.path_with_namespace)}/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`${stranger.username}:${stranger.token}`).toString('base64')}` },
    });
    expect(hidden.status).toBe(404);
  });

  it('lets reporters clone but not push; developers push', async () => {
    const project = await createProject(owner.token);
    const [reporter, developer] = [await createUser(), await createUser()];
    await addMember(project.id, reporter.id, 20);
    await addMember(project.id, developer.id, 30);
    const wc = await workingCopy({ 'a.txt': 'a' });
    expect(
      (await git(wc, 'push', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master')).code,
    ).toBe(0);
    expect(
      (
        await git(
          scratch(),
          'clone',
          '-q',
          remoteUrl(project.path_with_namespace, reporter.username, reporter.token),
          'x',
        )
      ).code,
    ).toBe(0);
    await commitFiles(wc, { 'b.txt': 'b' }, 'second');
    const refused = await git(
      wc,
      'push',
      remoteUrl(project.path_with_namespace, reporter.username, reporter.token),
      'master',
    );
    expect(refused.code).not.toBe(0);
    const status = await fetch(`${remoteUrl(project.path_with_namespace)}/info/refs?service=git-receive-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`${reporter.username}:${reporter.token}`).toString('base64')}` },
    });
    expect(status.status).toBe(403);
    // master was protected by the first push (GitLab's default); developers push other branches.
    expect(
      (
        await git(
          wc,
          'push',
          remoteUrl(project.path_with_namespace, developer.username, developer.token),
          'master:topic',
        )
      ).code,
    ).toBe(0);
  });

  it('protects the default branch on the first push into an empty repository, as GitLab did', async () => {
    const project = await createProject(owner.token);
    const wc = await workingCopy({ 'a.txt': 'a' });
    ok(await git(wc, 'push', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master'));
    ok(await git(wc, 'push', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master:other'));
    await eventually(async () => {
      const branches = await api('GET', `/projects/${project.id}/repository/branches`, { token: owner.token });
      expect(branches.body.map((b: { name: string; protected: boolean }) => [b.name, b.protected])).toEqual([
        ['master', true],
        ['other', false],
      ]);
    });
  });

  it('has recorded a push’s event by the time git push returns, as GitLab’s post-receive had queued it', async () => {
    const sql: Sql = createSql({ url: stackInfo().databaseUrl, schema: 'git_worker', max: 1 });
    const redis: Redis = createRedis(stackInfo().redisUrl);
    try {
      const project = await createProject(owner.token);
      const wc = await workingCopy({ 'a.txt': 'a' });
      const remote = remoteUrl(project.path_with_namespace, owner.username, owner.token);
      ok(await git(wc, 'push', remote, 'master'));
      for (let round = 0; round < 5; round++) {
        const sha = await commitFiles(wc, { 'a.txt': `round ${round}` }, `round ${round}`);
        ok(await git(wc, 'push', remote, 'master'));
        // No waiting: the outbox holds the event, or the relay has moved it to the stream already
        // (it adds to the stream before it deletes the row, so it is never in neither).
        const inOutbox =
          await sql`select 1 from outbox where payload->>'after' = ${sha} and (payload->>'project_id')::int = ${project.id}`;
        const streamed = inOutbox.length
          ? []
          : (
              (await redis.xrevrange(eventStream('git_worker'), '+', '-', 'COUNT', 500)) as Array<[string, string[]]>
            ).filter(([, fields]) => {
              const payload = JSON.parse(fields[fields.indexOf('payload') + 1]);
              return payload.after === sha && payload.project_id === project.id;
            });
        expect([round, inOutbox.length + streamed.length]).toEqual([round, 1]);
      }
    } finally {
      await sql.end();
      redis.disconnect();
    }
  });

  it('protects branches: developers may not push to them, nobody force-pushes or deletes them', async () => {
    const project = await createProject(owner.token);
    const developer = await createUser();
    await addMember(project.id, developer.id, 30);
    const wc = await workingCopy({ 'a.txt': 'a' });
    const asOwner = remoteUrl(project.path_with_namespace, owner.username, owner.token);
    const asDeveloper = remoteUrl(project.path_with_namespace, developer.username, developer.token);
    expect((await git(wc, 'push', asOwner, 'master')).code).toBe(0);
    expect(
      (await api('PUT', `/projects/${project.id}/repository/branches/master/protect`, { token: owner.token })).status,
    ).toBe(200);

    await commitFiles(wc, { 'b.txt': 'b' }, 'developer change');
    const devPush = await git(wc, 'push', asDeveloper, 'master');
    expect(devPush.code).not.toBe(0);
    expect(devPush.stderr).toContain('protected branches');
    // A developer may still push other branches.
    expect((await git(wc, 'push', asDeveloper, 'master:feature')).code).toBe(0);

    expect((await git(wc, 'push', asOwner, 'master')).code).toBe(0);
    await git(wc, 'reset', '-q', '--hard', 'HEAD~1');
    await commitFiles(wc, { 'c.txt': 'c' }, 'rewritten history');
    const force = await git(wc, 'push', '--force', asOwner, 'master');
    expect(force.code).not.toBe(0);
    expect(force.stderr).toContain('force push');
    const deletion = await git(wc, 'push', asOwner, ':master');
    expect(deletion.code).not.toBe(0);
    const branches = await api('GET', `/projects/${project.id}/repository/branches`, { token: owner.token });
    expect(branches.body.map((b: { name: string }) => b.name)).toEqual(['feature', 'master']);
  });

  it('reports pushes in the project events feed with GitLab push data', async () => {
    const project = await createProject(owner.token);
    const wc = await workingCopy({ 'a.txt': 'a' }, 'master', 'first');
    expect(
      (await git(wc, 'push', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master')).code,
    ).toBe(0);
    const second = await commitFiles(wc, { 'b.txt': 'b' }, 'second');
    expect(
      (await git(wc, 'push', remoteUrl(project.path_with_namespace, owner.username, owner.token), 'master')).code,
    ).toBe(0);
    await eventually(async () => {
      const events = await api('GET', `/projects/${project.id}/events`, { token: owner.token });
      const actions = events.body.map((e: { action_name: string }) => e.action_name);
      expect(actions).toEqual(['pushed to', 'pushed new', 'joined', 'created']);
      expect(events.body[0].data).toMatchObject({
        ref: 'refs/heads/master',
        after: second,
        user_id: owner.id,
        user_name: owner.username,
        total_commits_count: 1,
        commits: [{ id: second, message: 'second\n', author: { name: 'Test Pusher', email: 'pusher@example.com' } }],
        repository: { name: project.name, homepage: expect.stringContaining(project.path_with_namespace) },
      });
      expect(events.body[1].data.before).toBe('0'.repeat(40));
      expect(events.body[1].data.total_commits_count).toBe(1);
    });
  });

  it('refuses a pushed tag named like a branch (it would stand in for the branch)', async () => {
    const project = await createProject(owner.token);
    const wc = await workingCopy({ 'a.txt': 'a' });
    const url = remoteUrl(project.path_with_namespace, owner.username, owner.token);
    ok(await git(wc, 'push', url, 'master'));
    await git(wc, 'tag', 'master-tag');
    const twin = await git(wc, 'push', url, 'refs/tags/master-tag:refs/tags/master');
    expect(twin.code).not.toBe(0);
    expect(twin.stderr).toContain('may not share the name');
    ok(await git(wc, 'push', url, 'refs/tags/master-tag:refs/tags/v1'));
  });

  it('never lets a hostile path reach git', async () => {
    const project = await createProject(owner.token, { visibility_level: 20 });
    for (const path of [
      `${project.path_with_namespace}.git/info/refs?service=--upload-pack=touch`,
      `${project.path_with_namespace}.git/objects/info/packs`,
      `${project.path_with_namespace}.git/HEAD`,
    ]) {
      const res = await fetch(`${remoteUrl('x').replace(/\/x\.git$/, '')}/${path}`);
      expect([403, 404]).toContain(res.status);
    }
  });
});
