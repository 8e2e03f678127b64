#!/usr/bin/env node
// `npm run test:containers`: builds both images, runs infra/docker/compose.yaml under a project name
// of its own, waits for every process's /readyz, runs test/containers (jest) against the
// containerized facade and gateway, then removes every container, network and volume it made (also
// on failure) and prints its figures. Works from a fresh clone, as root on Debian:
//   - the engine: `docker` when its daemon answers, else podman (apt-installed when missing) with
//     infra/docker/containers.conf (runc, no default ulimits: crun fails on these machines);
//   - compose: docker-compose (Debian's 1.29.2) against podman's Docker-compatible socket, chosen
//     over podman-compose 1.0.3 because it honours depends_on conditions (service_healthy,
//     service_completed_successfully), which podman-compose ignores (it starts everything at once).
//     Podman runs health checks on systemd timers and there is no systemd here, so this script runs
//     each container's health check itself (`podman healthcheck run`) while compose waits: the
//     compose file's ordering and its checks are the ones Docker users get;
//   - the bases: official images when they can be pulled, local stand-ins otherwise (standins.cjs,
//     made once and kept);
//   - jest and its transform on the host: the workspace's pinned install, as `npm test` makes it.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join, resolve } = require('node:path');
const { ensureBaseImages } = require('./standins.cjs');

const ROOT = resolve(__dirname, '..', '..');
const PNPM = 'pnpm@10.34.8';
const COMPOSE_FILES = [join(ROOT, 'infra/docker/compose.yaml'), join(ROOT, 'test/containers/compose.test.yaml')];
const IMAGES = { app: 'v3hub:local', 'git-worker': 'v3hub-git-worker:local' };
// As compose.yaml sets them for seed-root.
const ROOT_TOKEN = 'compose-root-token-0123';
const ROOT_PASSWORD = 'compose-root-password';
/** Every long-running process of compose.yaml (each has a /readyz health check). */
const PROCESSES = [
  'identity',
  'membership',
  'projects',
  'repository',
  'mergerequests',
  'notes',
  'hooks',
  'hooks-worker',
  'git-worker',
  'gateway',
  'rest-facade',
];
const READY_TIMEOUT_MS = 5 * 60_000;

const log = (line) => console.log(`[test:containers] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: options.quiet ? 'pipe' : 'inherit',
    maxBuffer: 64 << 20,
    ...options,
  });
  if (result.error && !options.allowFail) throw result.error;
  if (result.status !== 0 && !options.allowFail) {
    throw new Error(
      `${command} ${args.join(' ')} exited with ${result.status}${options.quiet ? `: ${result.stderr}` : ''}`,
    );
  }
  return result;
}
const has = (binary) => run('sh', ['-c', `command -v ${binary}`], { quiet: true, allowFail: true }).status === 0;

/** docker when a daemon answers, else podman. */
function chooseEngine() {
  if (has('docker') && run('docker', ['info'], { quiet: true, allowFail: true, timeout: 15_000 }).status === 0) {
    // docker compose (v2) when there, else docker-compose.
    const v2 = run('docker', ['compose', 'version'], { quiet: true, allowFail: true }).status === 0;
    return { engine: 'docker', compose: v2 ? ['docker', 'compose'] : ['docker-compose'], env: {} };
  }
  const packages = {
    podman: 'podman',
    buildah: 'buildah',
    runc: 'runc',
    debootstrap: 'debootstrap',
    'docker-compose': 'docker-compose',
  };
  const missing = Object.keys(packages).filter((binary) => !has(binary));
  if (missing.length > 0) {
    if (process.getuid?.() !== 0)
      throw new Error(
        `needs ${missing.join(', ')}: apt-get install -y ${missing.map((b) => packages[b]).join(' ')} (as root)`,
      );
    log(`installing ${missing.join(', ')} with apt-get`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', ...missing.map((b) => packages[b])], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return {
    engine: 'podman',
    compose: ['docker-compose'],
    env: { CONTAINERS_CONF: process.env.CONTAINERS_CONF || join(ROOT, 'infra/docker/containers.conf') },
  };
}

/** The workspace's dependencies on the host (jest, @swc/jest), as `npm test` installs them. */
function installWorkspace() {
  const stamp = join(ROOT, 'node_modules', '.install-stamp');
  const want = createHash('sha256')
    .update(readFileSync(join(ROOT, 'pnpm-lock.yaml')))
    .update(readFileSync(join(ROOT, 'package.json')))
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  run('npx', ['-y', PNPM, 'install', '--frozen-lockfile', '--reporter=append-only'], {
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  writeFileSync(stamp, want);
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** podman's Docker-compatible API on a socket of this run's own, for docker-compose. */
async function startPodmanService(env, socket, logFile) {
  // Its log (an error per container with a health check: no systemd to schedule them) goes to a
  // file, shown when the run fails.
  const out = openSync(logFile, 'w');
  const child = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
    env,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const deadline = Date.now() + 30_000;
  while (!existsSync(socket)) {
    if (child.exitCode !== null) throw new Error(`podman system service exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('podman system service did not open its socket in 30 s');
    await sleep(100);
  }
  return child;
}

/** Containers of the compose project: [{ id, name, service, state, health }]. */
function projectContainers(ctx) {
  const out = run(
    ctx.engine,
    ['ps', '-a', '--filter', `label=com.docker.compose.project=${ctx.project}`, '--format', '{{.ID}}'],
    { quiet: true, env: ctx.env },
  ).stdout;
  const ids = out.split('\n').filter(Boolean);
  if (ids.length === 0) return [];
  const inspected = JSON.parse(
    run(ctx.engine, ['inspect', ...ids], { quiet: true, env: ctx.env, allowFail: true }).stdout || '[]',
  );
  return inspected.map((c) => ({
    id: c.Id,
    name: (c.Name || '').replace(/^\//, ''),
    service: c.Config?.Labels?.['com.docker.compose.service'],
    state: c.State?.Status,
    restarts: c.RestartCount ?? 0,
    health: c.State?.Health?.Status ?? c.State?.Healthcheck?.Status,
    hasCheck: Boolean(c.Config?.Healthcheck?.Test?.length || c.Config?.Healthcheck?.test?.length),
  }));
}

/**
 * Runs, all at once, the health check of every running container that has one and has not passed
 * it yet (podman only: Docker runs them itself), so compose's service_healthy conditions are met
 * as soon as the checks pass. Returns the services whose check has passed.
 */
async function driveHealthChecks(ctx) {
  const healthy = new Set();
  const checks = [];
  for (const c of projectContainers(ctx)) {
    if (c.state !== 'running' || !c.hasCheck) continue;
    if (c.health === 'healthy') healthy.add(c.service);
    else if (ctx.engine === 'podman') {
      checks.push(
        new Promise((resolveCheck) => {
          const check = spawn('podman', ['healthcheck', 'run', c.id], {
            env: ctx.env,
            stdio: 'ignore',
            timeout: 30_000,
          });
          check.on('exit', (code) => resolveCheck(code === 0 && healthy.add(c.service)));
          check.on('error', () => resolveCheck(false));
        }),
      );
    }
  }
  await Promise.all(checks);
  return healthy;
}

function compose(ctx, args, options = {}) {
  return run(
    ctx.compose[0],
    [...ctx.compose.slice(1), '-p', ctx.project, ...COMPOSE_FILES.flatMap((f) => ['-f', f]), ...args],
    { env: ctx.env, ...options },
  );
}

function imageSize(ctx, image) {
  const size = Number(
    run(ctx.engine, ['image', 'inspect', '--format', '{{.Size}}', image], { quiet: true, env: ctx.env }).stdout.trim(),
  );
  return `${(size / 1e6).toFixed(0)} MB`;
}

/** compose up, with the health checks run meanwhile; then every process's /readyz. */
async function upAndReady(ctx) {
  const up = spawn(
    ctx.compose[0],
    [...ctx.compose.slice(1), '-p', ctx.project, ...COMPOSE_FILES.flatMap((f) => ['-f', f]), 'up', '-d', '--no-build'],
    {
      cwd: ROOT,
      env: ctx.env,
      stdio: 'inherit',
    },
  );
  const upDone = new Promise((r) => up.on('exit', (code) => r(code)));
  let upCode = null;
  void upDone.then((code) => (upCode = code));
  try {
    await waitReady(ctx, () => upCode);
  } finally {
    // compose up still waiting (a condition never met) is stopped before the teardown.
    if (up.exitCode === null) up.kill('SIGTERM');
  }
}

async function waitReady(ctx, upCode) {
  const started = Date.now();
  const deadline = started + READY_TIMEOUT_MS;
  let healthy = new Set();
  while (Date.now() < deadline) {
    healthy = await driveHealthChecks(ctx);
    for (const service of healthy) {
      if (ctx.healthyAt[service] !== undefined) continue;
      ctx.healthyAt[service] = Date.now() - started;
      log(`${service} healthy after ${seconds(ctx.healthyAt[service])}`);
    }
    if (upCode() !== null && upCode() !== 0) throw new Error(`compose up exited with ${upCode()}`);
    // Every process's /readyz answered 200 (its health check), and the published ports answer.
    if (upCode() === 0 && PROCESSES.every((p) => healthy.has(p))) {
      const [facade, gateway] = await Promise.all([
        ready(`${ctx.facadeUrl}/readyz`),
        ready(`${ctx.gatewayUrl}/readyz`),
      ]);
      if (facade && gateway) return;
    }
    await sleep(1000);
  }
  throw new Error(
    `not ready in ${READY_TIMEOUT_MS / 1000} s; not ready: ${PROCESSES.filter((p) => !healthy.has(p)).join(', ')}`,
  );
}

async function ready(url, timeoutMs = 5000) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })).status === 200;
  } catch {
    return false;
  }
}

/** compose down -v, then checks that nothing of the project is left (and removes what is). */
/** Every container's log, kept in a folder that outlives the teardown, for a failed run's cause. */
function keepLogs(ctx) {
  const dir = `/tmp/${ctx.project}-logs`;
  mkdirSync(dir, { recursive: true });
  for (const c of projectContainers(ctx)) {
    const { stdout, stderr } = run(ctx.engine, ['logs', c.id], { quiet: true, env: ctx.env, allowFail: true });
    writeFileSync(join(dir, `${c.service ?? c.name}.log`), `${stdout ?? ''}${stderr ?? ''}`);
  }
  log(`the containers' logs: ${dir}`);
}

function teardown(ctx) {
  compose(ctx, ['down', '-v', '--remove-orphans', '-t', '10'], { allowFail: true });
  const label = `label=com.docker.compose.project=${ctx.project}`;
  const left = {
    containers: run(ctx.engine, ['ps', '-a', '-q', '--filter', label], { quiet: true, env: ctx.env, allowFail: true })
      .stdout.split('\n')
      .filter(Boolean),
    volumes: run(ctx.engine, ['volume', 'ls', '-q', '--filter', label], { quiet: true, env: ctx.env, allowFail: true })
      .stdout.split('\n')
      .filter(Boolean),
    networks: run(ctx.engine, ['network', 'ls', '-q', '--filter', label], {
      quiet: true,
      env: ctx.env,
      allowFail: true,
    })
      .stdout.split('\n')
      .filter(Boolean),
  };
  // Also by name, in case an object lost its labels.
  for (const kind of ['volume', 'network']) {
    const named = run(ctx.engine, [kind, 'ls', '--format', '{{.Name}}'], { quiet: true, env: ctx.env, allowFail: true })
      .stdout.split('\n')
      .filter((n) => n.startsWith(`${ctx.project}_`));
    left[`${kind}s`] = [...new Set([...left[`${kind}s`], ...named])];
  }
  const leftovers = Object.entries(left).filter(([, list]) => list.length > 0);
  if (leftovers.length === 0) {
    log(`torn down: no container, volume or network of ${ctx.project} left`);
    return true;
  }
  log(
    `left behind after compose down: ${leftovers.map(([kind, list]) => `${kind} ${list.join(' ')}`).join('; ')}; removing them`,
  );
  if (left.containers.length)
    run(ctx.engine, ['rm', '-f', '-v', ...left.containers], { quiet: true, env: ctx.env, allowFail: true });
  if (left.volumes.length)
    run(ctx.engine, ['volume', 'rm', '-f', ...left.volumes], { quiet: true, env: ctx.env, allowFail: true });
  if (left.networks.length)
    run(ctx.engine, ['network', 'rm', ...left.networks], { quiet: true, env: ctx.env, allowFail: true });
  return false;
}

async function main() {
  const started = Date.now();
  const figures = {};
  const { engine, compose: composeCommand, env: engineEnv } = chooseEngine();
  log(`engine: ${engine}, compose: ${composeCommand.join(' ')}`);
  installWorkspace();
  const env = { ...process.env, ...engineEnv };
  Object.assign(process.env, engineEnv);

  let t = Date.now();
  const bases = ensureBaseImages({ engine, log });
  figures['base images'] = `${Object.entries(bases)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')} (${seconds(Date.now() - t)})`;

  for (const [target, tag] of Object.entries(IMAGES)) {
    t = Date.now();
    log(`building ${tag} (--target ${target})`);
    const args = [
      'build',
      '-f',
      'infra/docker/Dockerfile',
      '--target',
      target,
      '-t',
      tag,
      '--build-arg',
      `NODE_IMAGE=${bases.NODE_IMAGE}`,
      '--build-arg',
      `NODE_RUNTIME_IMAGE=${bases.NODE_RUNTIME_IMAGE}`,
    ];
    // buildah reads no <Dockerfile>.dockerignore by itself; the build stage reaches the npm
    // registry through the host's network.
    if (engine === 'podman')
      args.push('--ignorefile', 'infra/docker/Dockerfile.dockerignore', '--network=host', '--layers');
    run(engine, [...args, '.'], { env });
    figures[`build ${tag}`] = seconds(Date.now() - t);
  }

  const project = `v3hubct${Date.now().toString(36)}`;
  const [facadePort, gatewayPort, receiverPort] = [await freePort(), await freePort(), await freePort()];
  const ctx = {
    engine,
    compose: composeCommand,
    project,
    healthyAt: {},
    facadeUrl: `http://127.0.0.1:${facadePort}`,
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    env: {
      ...env,
      FACADE_HOST_PORT: String(facadePort),
      GATEWAY_HOST_PORT: String(gatewayPort),
      RECEIVER_HOST_PORT: String(receiverPort),
      POSTGRES_IMAGE: bases.POSTGRES_IMAGE,
      REDIS_IMAGE: bases.REDIS_IMAGE,
      NODE_IMAGE: bases.NODE_IMAGE,
      NODE_RUNTIME_IMAGE: bases.NODE_RUNTIME_IMAGE,
    },
  };
  let service = null;
  let serviceLog = null;
  let failed = false;
  let clean;
  try {
    if (engine === 'podman') {
      const socket = `/tmp/${project}.sock`;
      serviceLog = `/tmp/${project}-podman-service.log`;
      service = await startPodmanService(env, socket, serviceLog);
      ctx.env.DOCKER_HOST = `unix://${socket}`;
    }
    log(
      `compose project ${project}: facade on ${facadePort}, gateway on ${gatewayPort}, hook receiver on ${receiverPort}`,
    );
    t = Date.now();
    await upAndReady(ctx);
    figures['time to ready (compose up → every /readyz)'] = seconds(Date.now() - t);
    figures['first healthy, s after compose up'] = Object.entries(ctx.healthyAt)
      .sort(([, a], [, b]) => a - b)
      .map(([service, ms]) => `${service} ${(ms / 1000).toFixed(0)}`)
      .join(', ');
    log(`ready in ${figures['time to ready (compose up → every /readyz)']}`);

    const jest = run(
      process.execPath,
      [
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        '--config',
        'test/containers/jest.config.js',
        '--runInBand',
        ...process.argv.slice(2),
      ],
      {
        allowFail: true,
        env: {
          ...ctx.env,
          CT_ENGINE: engine,
          CT_PROJECT: project,
          CT_FACADE_URL: ctx.facadeUrl,
          CT_GATEWAY_URL: ctx.gatewayUrl,
          CT_RECEIVER_URL: `http://127.0.0.1:${receiverPort}`,
          CT_ROOT_TOKEN: ROOT_TOKEN,
          CT_ROOT_PASSWORD: ROOT_PASSWORD,
        },
      },
    );
    if (jest.status !== 0) {
      failed = true;
      keepLogs(ctx);
    }
  } catch (error) {
    failed = true;
    console.error(error);
    // What the processes said, for the failure's cause.
    for (const c of projectContainers(ctx)) {
      if (c.service && (c.state !== 'running' || c.health !== 'healthy')) {
        log(`--- ${c.name} (${c.state}, restarts ${c.restarts}), last lines:`);
        run(engine, ['logs', '--tail', '30', c.id], { env: ctx.env, allowFail: true });
      }
    }
  } finally {
    // KEEP_CONTAINERS=1 leaves the system up to look into (then: compose -p <project> down -v).
    if (process.env.KEEP_CONTAINERS === '1') {
      clean = true;
      log(
        `kept: DOCKER_HOST=${ctx.env.DOCKER_HOST ?? ''} docker-compose -p ${project} -f infra/docker/compose.yaml down -v`,
      );
    } else clean = teardown(ctx);
    if (service) service.kill('SIGTERM');
    if (serviceLog) {
      if (failed) log(`podman system service's log: ${serviceLog}`);
      else rmSync(serviceLog, { force: true });
    }
  }
  figures[`image ${IMAGES.app}`] = imageSize(ctx, IMAGES.app);
  figures[`image ${IMAGES['git-worker']}`] = imageSize(ctx, IMAGES['git-worker']);
  figures['total wall time'] = seconds(Date.now() - started);
  log('figures:');
  for (const [name, value] of Object.entries(figures)) console.log(`  ${name}: ${value}`);
  if (!clean) {
    log('FAILED: compose down left objects behind (removed since)');
    failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
