import { loadConfig, renderConfigTable } from '@hub/common';
import { backupCommand, restoreCommand } from './backup/cli';
import { startStack } from './stack';

/** `--replicas rest-facade=2,gateway=2 --shards 2`: processes per kind, and git worker shards. */
function scaleOf(args: string[]): { replicas: Record<string, number>; shards: number } {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const count = (text: string, what: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${what} must be a whole number of at least 1, got "${text}"`);
    return n;
  };
  const replicas = Object.fromEntries(
    (value('--replicas') ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [kind, n] = pair.split('=');
        return [kind, count(n ?? '', `--replicas ${kind}`)];
      }),
  );
  return { replicas, shards: count(value('--shards') ?? '1', '--shards') };
}

/** `npm start`: the whole system in the foreground, with prefixed logs; Ctrl-C stops it. */
async function start(args: string[]) {
  const { DATA_DIR } = loadConfig(['DATA_DIR'] as const);
  const log = (line: string) => process.stdout.write(`\x1b[1mstart       |\x1b[0m ${line}\n`);
  log(`data in ${DATA_DIR}`);
  let stop = async (_code: number) => {};
  const stack = await startStack({
    dataDir: DATA_DIR,
    env: { ...process.env },
    freePorts: false,
    logs: { kind: 'console' },
    log,
    durable: true,
    ...scaleOf(args),
    // A process its supervisor gave up on is broken, not unlucky: say so and stop, non-zero.
    onGiveUp: () => void stop(1),
  });
  const banner = [
    '',
    `  REST API (v3)  ${stack.env.EXTERNAL_URL}/api/v3`,
    `  GraphQL        http://localhost:${stack.env.GATEWAY_PORT}/graphql`,
    `  root token     ${stack.rootToken}`,
    stack.rootPassword
      ? `  root password  ${stack.rootPassword}`
      : '  root password  (unchanged; set ROOT_PASSWORD to change it)',
    '',
    `  try: curl -H "PRIVATE-TOKEN: ${stack.rootToken}" ${stack.env.EXTERNAL_URL}/api/v3/user`,
    '',
  ];
  process.stdout.write(banner.join('\n') + '\n');
  let stopping = false;
  stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    await stack.stop();
    log('stopped');
    process.exit(code);
  };
  // Ctrl-C, a kill, or the terminal closing. A process that dies on its own is restarted by its
  // supervisor instead.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
}

const command = process.argv[2];
if (command === 'start') {
  start(process.argv.slice(3)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
} else if (command === 'backup' || command === 'restore') {
  (command === 'backup' ? backupCommand : restoreCommand)(process.argv.slice(3)).catch((error) => {
    console.error(`${command} failed: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
} else if (command === 'config-table') {
  process.stdout.write(renderConfigTable() + '\n');
} else {
  console.error(
    'usage: cli.js start [--replicas kind=n,...] [--shards n] | backup --to DIR | restore --from DIR | config-table',
  );
  process.exit(2);
}
