#!/usr/bin/env node
// Entry of `npm start`, `npm test`, `npm run bench` and `npm run fuzz` on a fresh clone: needs
// only Node 20+ and git. Installs the workspace with the pinned pnpm (when the lockfile changed
// since the last install), builds everything (codegen, composition, TypeScript), then hands over.
'use strict';
const { spawnSync } = require('node:child_process');
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

const command = process.argv[2];
install();
pnpm('run', '--silent', 'build');
switch (command) {
  case 'start':
    // npm start -- --replicas rest-facade=2,gateway=2 --shards 2
    sh(process.execPath, [join(root, 'infra/local/dist/cli.js'), 'start', ...process.argv.slice(3)]);
    break;
  case 'test':
    pnpm('run', 'typecheck');
    pnpm('--filter', '@hub/lint', 'run', '--silent', 'lint');
    sh(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(3)]);
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
    console.error('usage: bootstrap.cjs start | test | bench | fuzz | chaos');
    process.exit(2);
}
