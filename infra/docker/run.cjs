#!/usr/bin/env node
// The images' entry point: `run.cjs <process>` runs one process of the system, named as the local
// launcher names it (PROCESSES in infra/local/src/processes.ts, the one list of process kinds), so
// the compose file and the Kubernetes manifests name processes, never file paths. The process
// kind's own settings (HOOKS_ROLE of hooks-worker) apply unless the environment sets them.
// Two one-shot commands stand beside the processes, for a release: `migrate` brings every service's
// schema up to date as the root `npm run migrate` does, and `seed-root` ensures the admin `root`.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..', '..');
const ONE_SHOT = { migrate, 'seed-root': seedRoot };

/** Each service's `migrate` script, one after the other; the first failure fails the release. */
function migrate() {
  const services = join(ROOT, 'services');
  for (const name of readdirSync(services).sort()) {
    const manifest = join(services, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const script = JSON.parse(readFileSync(manifest, 'utf8')).scripts?.migrate;
    if (script === undefined) continue;
    // No shell or pnpm in the image: the scripts are `node <file>`, and anything else is refused
    // rather than half understood.
    const file = /^node (\S+)$/.exec(script)?.[1];
    if (!file) throw new Error(`services/${name}: migrate script "${script}" is not "node <file>"`);
    const result = spawnSync(process.execPath, [file], { cwd: join(services, name), stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

/**
 * The admin `root` with ROOT_TOKEN and ROOT_PASSWORD, both required here: a container's log is no
 * place to print generated credentials, so the seed's output (the token) is not shown.
 */
function seedRoot() {
  const missing = ['ROOT_TOKEN', 'ROOT_PASSWORD'].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    console.error(`seed-root needs ${missing.join(' and ')} (from the secret)`);
    process.exit(2);
  }
  const result = spawnSync(process.execPath, [join(ROOT, 'services/identity/dist/seed-root.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  console.log('root is seeded');
}

/**
 * `backup --to DIR` and `restore --from DIR` (docs/backup.md), the local CLI's commands: run by the
 * CronJob `backup`, or by hand in a pod of this image. Not release steps: compose runs neither.
 */
const MAINTENANCE = ['backup', 'restore'];
function maintenance(name, args) {
  const result = spawnSync(process.execPath, [join(ROOT, 'infra/local/dist/cli.js'), name, ...args], {
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}

function main(name) {
  if (Object.hasOwn(ONE_SHOT, name)) return ONE_SHOT[name]();
  if (MAINTENANCE.includes(name)) return maintenance(name, process.argv.slice(3));
  const { PROCESSES, runtimeV8Flags } = require(join(ROOT, 'infra/local/dist/processes.js'));
  const spec = PROCESSES.find((p) => p.name === name);
  if (!spec) {
    console.error(
      `usage: run.cjs <${[...PROCESSES.map((p) => p.name), ...Object.keys(ONE_SHOT), ...MAINTENANCE].join(' | ')}>`,
    );
    process.exit(2);
  }
  for (const [key, value] of Object.entries(spec.env ?? {})) process.env[key] ??= value;
  // The flags the local launcher puts on the command line, set here before the program allocates.
  for (const flag of runtimeV8Flags(spec)) require('node:v8').setFlagsFromString(flag);
  // In this process, not a child: signals reach the program's own shutdown handling directly.
  require(join(ROOT, spec.entry));
}

if (require.main === module) main(process.argv[2]);

module.exports = { ONE_SHOT_COMMANDS: Object.keys(ONE_SHOT), MAINTENANCE_COMMANDS: MAINTENANCE };
