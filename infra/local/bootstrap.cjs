#!/usr/bin/env node
// Entry of `npm start`, `npm test`, `npm run backup`/`restore`, `npm run bench` and `npm run fuzz`
// on a fresh clone: needs only Node 20+ and git. Installs the workspace with the pinned pnpm (when
// the lockfile changed since the last install), builds everything (codegen, composition,
// TypeScript), then hands over.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '..', '..');
const PNPM = 'pnpm@10.34.8';

function sh(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const pnpm = (...args) => sh('npx', ['-y', PNPM, ...args], { npm_config_update_notifier: 'false' });

function install() {
  const lock = join(root, 'pnpm-lock.yaml');
  const stamp = join(root, 'node_modules', '.install-stamp');
  const want = createHash('sha256')
    .update(readFileSync(lock))
    .update(readFileSync(join(root, 'package.json')))
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  pnpm('install', '--frozen-lockfile', '--reporter=append-only');
  writeFileSync(stamp, want);
}

const jest = join(root, 'node_modules/jest/bin/jest.js');

/**
 * The whole of `npm test` in two lanes at once: the end-to-end tests wait mostly on the stack they
 * boot (about a minute) and on its answers, while the type-check, the lint and the unit and
 * subgraph tests keep a core busy; one after the other they took over 20 minutes on a 2-core
 * machine. The e2e files that boot stacks of their own follow the unit tests in their lane. Each
 * lane stops at its first failure; the run fails when either lane does.
 */
function testEverything() {
  const lanes = [
    [
      ['npx', ['-y', PNPM, 'run', 'typecheck']],
      ['npx', ['-y', PNPM, '--filter', '@hub/lint', 'run', '--silent', 'lint']],
      [process.execPath, [jest, '--selectProjects', 'unit', 'subgraph']],
      // The end-to-end files with stacks of their own (jest.config.js), so both lanes end together.
      [process.execPath, [jest, '--selectProjects', 'stacks']],
    ],
    [[process.execPath, [jest, '--selectProjects', 'e2e']]],
  ];
  const env = { ...process.env, npm_config_update_notifier: 'false' };
  const runLane = async (steps) => {
    for (const [command, args] of steps) {
      const status = await new Promise((done) =>
        spawn(command, args, { cwd: root, stdio: 'inherit', env }).on('close', (code) => done(code ?? 1)),
      );
      if (status !== 0) return status;
    }
    return 0;
  };
  Promise.all(lanes.map(runLane)).then((statuses) => process.exit(statuses.find((status) => status !== 0) ?? 0));
}

const command = process.argv[2];
install();
pnpm('run', '--silent', 'build');
switch (command) {
  case 'start':
    // npm start -- --replicas rest-facade=2,gateway=2 --shards 2
    sh(process.execPath, [join(root, 'infra/local/dist/cli.js'), 'start', ...process.argv.slice(3)]);
    break;
  case 'test':
    if (process.argv.length > 3) {
      // A chosen part (`npm test -- test/e2e/projects.test.ts`): checks, then that part.
      pnpm('run', 'typecheck');
      pnpm('--filter', '@hub/lint', 'run', '--silent', 'lint');
      sh(process.execPath, [jest, ...process.argv.slice(3)]);
    } else testEverything();
    break;
  case 'backup':
  case 'restore':
    // npm run backup -- --to DIR; npm run restore -- --from DIR (backup.md)
    sh(process.execPath, [join(root, 'infra/local/dist/cli.js'), command, ...process.argv.slice(3)]);
    break;
  case 'bench':
    sh(process.execPath, [join(root, 'test/dist/bench/bench.js'), ...process.argv.slice(3)]);
    break;
  case 'fuzz':
    sh(process.execPath, [join(root, 'test/dist/fuzz/main.js'), ...process.argv.slice(3)]);
    break;
  case 'chaos':
    sh(process.execPath, [join(root, 'test/dist/chaos/main.js'), ...process.argv.slice(3)]);
    break;
  default:
    console.error('usage: bootstrap.cjs start | test | backup | restore | bench | fuzz | chaos');
    process.exit(2);
}
