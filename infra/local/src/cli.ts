import { loadConfig, renderConfigTable } from '@hub/common';
import { startStack } from './stack';

/** `npm start`: the whole system in the foreground, with prefixed logs; Ctrl-C stops it. */
async function start() {
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
    // A process its supervisor gave up on is broken, not unlucky: say so and stop, non-zero.
    onGiveUp: () => void stop(1),
  });
  const banner = [
    '',
    `  REST API (v3)  ${stack.env.EXTERNAL_URL}/api/v3`,
    `  GraphQL        http://localhost:${stack.env.GATEWAY_PORT}/graphql`,
    `  root token     ${stack.rootToken}`,
    stack.rootPassword ? `  root password  ${stack.rootPassword}` : '  root password  (unchanged; set ROOT_PASSWORD to change it)',
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
  start().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
} else if (command === 'config-table') {
  process.stdout.write(renderConfigTable() + '\n');
} else {
  console.error('usage: cli.js start | config-table');
  process.exit(2);
}
