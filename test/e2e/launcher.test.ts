import { existsSync, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  alive,
  keeperPid,
  launcherEnv,
  launcherState,
  startLauncher,
  statePids,
  waitGone,
  type Launcher,
} from '../chaos/launcher';

// `npm start`'s launcher itself, run as a user runs it (the clone in a folder no other user can
// enter), twice on one data folder. (Ctrl-C and SIGTERM take the stack's own stop, which every
// other e2e stack takes too.)
describe('the local launcher', () => {
  const home = mkdtempSync(join(tmpdir(), 'hub-launcher-home-'));
  const dir = join(home, 'clone', '.data');
  let env: NodeJS.ProcessEnv;
  let launcher: Launcher | null = null;
  const user = async () => {
    const response = await fetch(`${launcher!.restUrl}/user`, { headers: { 'PRIVATE-TOKEN': launcher!.rootToken } });
    return response.status;
  };

  beforeAll(async () => {
    env = await launcherEnv(dir);
  });
  afterAll(async () => {
    if (launcher && launcher.child.exitCode === null) {
      launcher.child.kill('SIGTERM');
      await launcher.exited;
    }
    // Postgres's files, moved where its user can reach them (see infra/local/src/postgres-server.ts).
    const pointer = join(dir, 'postgres', 'data');
    if (existsSync(pointer) && lstatSync(pointer).isSymbolicLink())
      rmSync(dirname(readlinkSync(pointer)), { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }, 60_000);

  it('restarts a service killed with SIGKILL instead of stopping everything', async () => {
    launcher = await startLauncher(env);
    expect(await user()).toBe(200);
    const before = launcherState(dir)!.services.find((s) => s.name === 'identity')!;
    process.kill(before.pid, 'SIGKILL');
    let after = before;
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline) {
      after = launcherState(dir)!.services.find((s) => s.name === 'identity')!;
      status = after.pid !== before.pid ? await user() : 0;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(after.pid).not.toBe(before.pid);
    expect(status).toBe(200);
    expect(launcher.child.exitCode).toBeNull();
    expect(launcher.output()).toMatch(/identity was killed by SIGKILL; restarting it/);
  }, 180_000);

  it('leaves no service running when it is killed with its keeper; the next launcher stops the Postgres and Redis left behind', async () => {
    const state = launcherState(dir)!;
    // As `kill -9` of the whole group would: the launcher and its keeper at once.
    process.kill(keeperPid(launcher!.child.pid!)!, 'SIGKILL');
    launcher!.child.kill('SIGKILL');
    await launcher!.exited;
    const services = statePids(state).filter((p) => !['postgres', 'redis-server'].includes(p.name));
    expect(services.map((p) => p.name)).toEqual(expect.arrayContaining(['identity', 'gateway', 'rest-facade']));
    expect(await waitGone(services, 30_000)).toEqual([]);
    const servers = statePids(state).filter((p) => ['postgres', 'redis-server'].includes(p.name));
    expect(
      servers
        .filter((p) => alive(p.pid))
        .map((p) => p.name)
        .sort(),
    ).toEqual(['postgres', 'redis-server']);

    launcher = await startLauncher(env);
    expect(await user()).toBe(200);
    expect(launcher.output()).toMatch(/a launcher that died left processes running; stopped .*postgres .*redis-server/);
    expect(servers.filter((p) => alive(p.pid))).toEqual([]);
    // While it lives, a second one on the same data refuses, and disturbs nothing.
    await expect(startLauncher(env)).rejects.toThrow(/another launcher \(pid \d+\) is running on /);
    expect(await user()).toBe(200);
  }, 180_000);

  it('leaves nothing running when it alone is killed with SIGKILL: the keeper stops Postgres and Redis', async () => {
    const pids = statePids(launcherState(dir)!);
    expect(pids.map((p) => p.name)).toEqual(
      expect.arrayContaining(['identity', 'rest-facade', 'postgres', 'redis-server']),
    );
    const keeper = keeperPid(launcher!.child.pid!);
    expect(keeper).not.toBeNull();
    launcher!.child.kill('SIGKILL');
    await launcher!.exited;
    expect(await waitGone([...pids, { name: 'keeper', pid: keeper! }], 30_000)).toEqual([]);
    expect(launcherState(dir)).toBeNull();
  }, 60_000);
});
