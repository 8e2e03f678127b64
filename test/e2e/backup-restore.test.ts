import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, REPO_ROOT, startStack, type Stack } from '@hub/local';
import { isolatedEnv, tempDir } from '../support/global-setup';
import { commitFiles, git, ok, workingCopy } from '../support/git';
import { wire } from '../support/ssh-keys';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

// A system with two git shards gets a rich dataset, a full backup (reading the shards' folders),
// more data and an incremental backup (reading the shards over git HTTP) taken while issues keep
// being written; then it is stopped, restored onto a new database
// and a single shard, started, and every list, ref and delivery log is compared with the
// original's. Hook deliveries pending at the backup are sent once, by the restored system.
describe('backup and restore', () => {
  let source: Stack;
  let target: Stack | undefined;
  let sourceDir: string;
  let targetDir: string;
  let set: string;
  let receiver: Receiver;

  const env = isolatedEnv({
    // One failed attempt, then the next one ten minutes later: the down hook's deliveries stay
    // pending through the backup, and only the restored system's first attempt can send them.
    HOOK_RETRY_BASE_MS: '600000',
    HOOK_PAUSE_AFTER_FAILURES: '100',
  });

  const rest = async (stack: Stack, method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.restUrl}${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
  const made = async (method: string, path: string, body: unknown, token = source.rootToken) => {
    const res = await rest(source, method, path, token, body);
    if (res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const cli = (args: string[], extra: NodeJS.ProcessEnv) =>
    new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        process.execPath,
        [join(REPO_ROOT, 'infra/local/dist/cli.js'), ...args],
        { env: { ...env, ...extra }, encoding: 'utf8' },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
  const remote = (stack: Stack, path: string) => {
    const url = new URL(`${stack.env.EXTERNAL_URL}/${path}.git`);
    url.username = 'root';
    url.password = stack.rootToken;
    return url.toString();
  };
  const sshKey = () => {
    const x = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url');
    return `ssh-ed25519 ${Buffer.concat([wire('ssh-ed25519'), wire(x)]).toString('base64')} backup@example`;
  };

  const users: Array<{ id: number; username: string; token: string }> = [];
  const stable: Array<{ id: number; path_with_namespace: string }> = [];
  let busy: { id: number };
  let okHook: number;
  let downHook: number;
  let systemHook: number;
  let busyBeforeBackup = 0;
  let sentBefore = 0;

  beforeAll(async () => {
    sourceDir = tempDir('hub-e2e-backup-source-');
    targetDir = tempDir('hub-e2e-backup-target-');
    set = tempDir('hub-e2e-backup-set-');
    receiver = await startReceiver();
    receiver.respond('down', () => ({ status: 503, body: 'down for now' }));
    source = await startStack({
      dataDir: sourceDir,
      env,
      freePorts: true,
      logs: { kind: 'files', dir: sourceDir },
      log: () => {},
      shards: 2,
    });
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    await source?.stop();
    await target?.stop();
    if (!process.env.KEEP_E2E_DATA) {
      for (const dir of [sourceDir, targetDir, set]) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('backs up a system with two shards, fully then incrementally while issues are written', async () => {
    for (const n of [1, 2, 3]) {
      const username = `backup${n}${Date.now().toString(36)}`;
      const user = await made('POST', '/users', {
        email: `${username}@example.com`,
        password: 'password-backup',
        username,
        name: `Backup ${n}`,
      });
      const session = await rest(source, 'POST', '/session', '', { login: username, password: 'password-backup' });
      users.push({ id: user.id, username, token: session.body.private_token });
      await made('POST', `/users/${user.id}/keys`, { title: `key ${n}`, key: sshKey() });
    }
    const group = await made('POST', '/groups', { name: 'Backed up', path: `backed-up-${Date.now().toString(36)}` });
    await made('POST', `/groups/${group.id}/members`, { user_id: users[1].id, access_level: 30 });
    systemHook = (await made('POST', '/hooks', { url: receiver.url('system') })).id;
    for (const [i, namespace] of [undefined, group.id, undefined].entries()) {
      const project = await made('POST', '/projects', {
        name: `kept-${i}-${Date.now().toString(36)}`,
        visibility_level: 10,
        ...(namespace ? { namespace_id: namespace } : {}),
      });
      stable.push(project);
      await made('POST', `/projects/${project.id}/members`, { user_id: users[2].id, access_level: 30 });
      const work = await workingCopy({ 'README.md': `# ${project.path_with_namespace}\n` });
      ok(await git(work, 'push', '-q', remote(source, project.path_with_namespace), 'master'));
      await commitFiles(work, { 'feature.txt': 'feature\n' }, 'a feature');
      ok(await git(work, 'push', '-q', remote(source, project.path_with_namespace), 'master:feature'));
      ok(await git(work, 'tag', '-a', 'v1', '-m', 'first release', 'master'));
      ok(await git(work, 'push', '-q', remote(source, project.path_with_namespace), 'v1'));
    }
    const [first] = stable;
    okHook = (await made('POST', `/projects/${first.id}/hooks`, { url: receiver.url('ok'), issues_events: true })).id;
    downHook = (await made('POST', `/projects/${first.id}/hooks`, { url: receiver.url('down'), issues_events: true }))
      .id;
    const label = await made('POST', `/projects/${first.id}/labels`, { name: 'bug', color: '#ff0000' });
    const milestone = await made('POST', `/projects/${first.id}/milestones`, { title: 'v1.0' });
    for (const n of [1, 2]) {
      const issue = await made('POST', `/projects/${first.id}/issues`, {
        title: `issue ${n}`,
        labels: label.name,
        milestone_id: milestone.id,
      });
      await made('POST', `/projects/${first.id}/issues/${issue.id}/notes`, { body: `note on ${n}` }, users[2].token);
    }
    const mr = await made('POST', `/projects/${first.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'the feature',
    });
    await made('POST', `/projects/${first.id}/merge_requests/${mr.id}/notes`, { body: 'looks good' });
    // Both issues reached both hooks: delivered to one, failed once and pending at the other.
    await receiver.waitFor('ok', 2, 30_000);
    await receiver.waitFor('down', 2, 30_000);

    const full = await cli(['backup', '--to', set, '--repos', shardsOf(source)], backupEnv(source));
    expect(full).toMatchObject({ code: 0, output: expect.stringContaining(', full') });

    // More after the full backup: a push, and a project whose issues keep coming during the next.
    const work = join(tempDir('hub-e2e-backup-clone-'), 'c');
    ok(await git(sourceDir, 'clone', '-q', remote(source, stable[1].path_with_namespace), work));
    await commitFiles(work, { 'later.txt': 'later\n' }, 'after the full backup');
    ok(await git(work, 'push', '-q', 'origin', 'master'));
    busy = await made('POST', '/projects', { name: `busy-${Date.now().toString(36)}` });
    let writing = true;
    const writes = (async () => {
      for (let n = 1; writing; n++) await made('POST', `/projects/${busy.id}/issues`, { title: `busy ${n}` });
    })();
    // The system hook's delivery of the busy project's creation is made, so none of it is
    // pending at the backup (the down hook's are the pending ones this test follows).
    await untilDelivered(source, `/hooks/${systemHook}/events`);
    const started = Date.now();
    while (
      (await rest(source, 'GET', `/projects/${busy.id}/issues?per_page=100&sort=asc`, source.rootToken)).body.length < 3
    ) {
      if (Date.now() - started > 30_000) throw new Error('the busy project got no issues');
    }
    busyBeforeBackup = (
      await rest(source, 'GET', `/projects/${busy.id}/issues?per_page=100&sort=asc`, source.rootToken)
    ).body.length;
    // This one reads the shards over their git HTTP side, as the cluster's CronJob does.
    const incremental = await cli(['backup', '--to', set], {
      ...backupEnv(source),
      GIT_WORKER_SHARDS: source.env.GIT_WORKER_SHARDS,
      PRINCIPAL_SECRET: source.env.PRINCIPAL_SECRET,
    });
    writing = false;
    await writes;
    expect(incremental).toMatchObject({ code: 0, output: expect.stringContaining('incremental on') });
    expect(incremental.output).toMatch(/repositories: \d+, [1-9]\d* of them with a new bundle/);
  }, 180_000);

  const untilDelivered = async (stack: Stack, path: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const log = (await rest(stack, 'GET', path, stack.rootToken)).body as any[];
      if (log.every((d) => d.state === 'delivered')) return log;
      if (Date.now() > deadline) throw new Error(`${path} not delivered: ${JSON.stringify(log.map((d) => d.state))}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const shardsOf = (stack: Stack) => `default=${stack.env.REPOS_ROOT},shard2=${stack.env.REPOS_ROOT}-shard2`;
  const backupEnv = (stack: Stack) => ({ DATABASE_URL: stack.env.DATABASE_URL, REDIS_URL: stack.env.REDIS_URL });

  // Everything the original serves, read before it stops, to hold the restored system to.
  let before: Record<string, unknown>;
  let beforeBusy: any[];
  let beforeRefs: Record<string, string>;
  let beforeObjects: Record<string, string>;
  let downLog: any[];

  const lists = async (stack: Stack) => {
    const get = async (path: string) => {
      const res = await rest(stack, 'GET', path, stack.rootToken);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      // Addresses name the stack's own port (the logged bodies of deliveries, as sent, the
      // original's); all else must match.
      const text = JSON.stringify(res.body)
        .replaceAll(source.env.EXTERNAL_URL!, 'EXTERNAL')
        .replaceAll(stack.env.EXTERNAL_URL!, 'EXTERNAL');
      return JSON.parse(text);
    };
    const out: Record<string, unknown> = {};
    for (const path of ['/users?per_page=100', '/groups', '/hooks', `/hooks/${systemHook}/events`])
      out[path] = await get(path);
    out['/projects/all'] = ((await get('/projects/all?per_page=100')) as any[]).filter((p) => p.id !== busy.id);
    for (const group of out['/groups'] as any[])
      out[`group ${group.id} members`] = await get(`/groups/${group.id}/members`);
    for (const user of users) out[`keys of ${user.id}`] = await get(`/users/${user.id}/keys`);
    for (const project of stable) {
      for (const part of ['members', 'hooks', 'labels', 'milestones', 'repository/branches', 'repository/tags']) {
        out[`${project.id} ${part}`] = await get(`/projects/${project.id}/${part}`);
      }
      for (const kind of ['issues', 'merge_requests']) {
        const items = (await get(`/projects/${project.id}/${kind}?per_page=100`)) as any[];
        out[`${project.id} ${kind}`] = items;
        for (const item of items)
          out[`${project.id} ${kind} ${item.id} notes`] = await get(`/projects/${project.id}/${kind}/${item.id}/notes`);
      }
    }
    out['ok hook log'] = await get(`/projects/${stable[0].id}/hooks/${okHook}/events`);
    return out;
  };
  const repositoryState = async (stack: Stack) => {
    const refs: Record<string, string> = {};
    const objects: Record<string, string> = {};
    for (const project of stable) {
      const mirror = join(tempDir('hub-e2e-backup-mirror-'), 'm.git');
      ok(await git(sourceDir, 'clone', '-q', '--mirror', remote(stack, project.path_with_namespace), mirror));
      refs[project.path_with_namespace] = ok(await git(mirror, 'for-each-ref')).stdout;
      objects[project.path_with_namespace] = ok(await git(mirror, 'rev-list', '--objects', '--all'))
        .stdout.split('\n')
        .sort()
        .join('\n');
    }
    return { refs, objects };
  };

  it('refuses a damaged backup before writing anything, then restores onto one shard', async () => {
    before = await lists(source);
    beforeBusy = (await rest(source, 'GET', `/projects/${busy.id}/issues?per_page=100&sort=asc`, source.rootToken))
      .body;
    ({ refs: beforeRefs, objects: beforeObjects } = await repositoryState(source));
    downLog = (await rest(source, 'GET', `/projects/${stable[0].id}/hooks/${downHook}/events`, source.rootToken)).body;
    expect(downLog.length).toBeGreaterThanOrEqual(2);
    expect(downLog.filter((d: any) => d.state !== 'pending')).toEqual([]);
    await source.stop();

    const restoreEnv = {
      DATA_DIR: targetDir,
      TOKEN_ENCRYPTION_KEY: source.env.TOKEN_ENCRYPTION_KEY,
      LOCAL_POSTGRES_PORT: String(await freePort()),
    };
    const damaged = tempDir('hub-e2e-backup-damaged-');
    cpSync(set, damaged, { recursive: true });
    // The set holds the backups (by start time) and the mirrors of the shards read over HTTP.
    const backups = readdirSync(damaged)
      .filter((name) => /^\d{8}T\d{6}Z/.test(name))
      .sort();
    const newest = backups[backups.length - 1];
    const bundles = join(damaged, backups[0], 'repositories', 'default');
    truncateSync(join(bundles, readdirSync(bundles)[0]), 10);
    const refused = await cli(['restore', '--from', damaged], restoreEnv);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      new RegExp(`backup ${newest} is damaged or incomplete, nothing was restored: .*bundle has 10 bytes`),
    );
    expect(existsSync(join(targetDir, 'repositories'))).toBe(false);
    rmSync(damaged, { recursive: true, force: true });

    const restored = await cli(['restore', '--from', set], restoreEnv);
    expect(restored).toMatchObject({ code: 0, output: expect.stringContaining(`restoring backup ${newest}`) });
    expect(restored.output).toMatch(/repositories placed on other shards/);
    // The receiver is back: the restored hook workers' first attempts succeed.
    sentBefore = receiver.at('down').length;
    receiver.respond('down', () => ({ status: 200, body: 'back' }));
    target = await startStack({
      dataDir: targetDir,
      env: { ...env, TOKEN_ENCRYPTION_KEY: source.env.TOKEN_ENCRYPTION_KEY },
      freePorts: true,
      logs: { kind: 'files', dir: targetDir },
      log: () => {},
    });
  }, 240_000);

  it('serves every list, ref and object as the original did, with the same tokens', async () => {
    const stack = target!;
    expect(await lists(stack)).toEqual(before);
    expect(await repositoryState(stack)).toEqual({ refs: beforeRefs, objects: beforeObjects });
    for (const user of users) {
      expect((await rest(stack, 'GET', '/user', user.token)).body).toMatchObject({
        id: user.id,
        username: user.username,
      });
    }
    // The busy project's issues as of one moment of the backup: those before it, and a prefix
    // of those written during it, none missing in between (the oldest hundred of each side).
    const issues = (await rest(stack, 'GET', `/projects/${busy.id}/issues?per_page=100&sort=asc`, stack.rootToken))
      .body as any[];
    expect(issues.length).toBeGreaterThanOrEqual(busyBeforeBackup);
    const byIid = (list: any[]) => list.map((i) => [i.iid, i.title]).sort((a, b) => a[0] - b[0]);
    expect(byIid(issues)).toEqual(byIid(beforeBusy).slice(0, issues.length));
    // A new push lands on the one shard, through the restored records of where each project is.
    const work = join(tempDir('hub-e2e-backup-after-'), 'c');
    ok(await git(targetDir, 'clone', '-q', remote(stack, stable[1].path_with_namespace), work));
    await commitFiles(work, { 'restored.txt': 'restored\n' }, 'after the restore');
    ok(await git(work, 'push', '-q', 'origin', 'master'));
  }, 120_000);

  it('sends each delivery pending at the backup once', async () => {
    const log = await untilDelivered(target!, `/projects/${stable[0].id}/hooks/${downHook}/events`);
    expect(log.map((d) => [d.id, d.webhook_id])).toEqual(downLog.map((d) => [d.id, d.webhook_id]));
    expect(log.map((d) => d.attempts.length)).toEqual(downLog.map((d) => d.attempts.length + 1));
    const sent = receiver
      .at('down')
      .slice(sentBefore)
      .map((r) => r.headers['webhook-id'])
      .sort();
    expect(sent).toEqual(downLog.map((d) => d.webhook_id).sort());
  }, 120_000);
});
