import { loadConfig, renderConfigTable } from '@hub/common';
import { startStack } from './stack';

/** `npm start`: the whole system in the foreground, with prefixed logs; Ctrl-C stops it. */
async function start() {
  const { DATA_DIR } = loadConfig(['DATA_DIR'] as const);
  const log = (line: string) => process.stdout.write(`\x1b[1mstart       |\x1b[0m ${line}\n`);
  log(`data in ${DATA_DIR}`);
  const stack = await startStack({ dataDir: DATA_DIR, env: { ...process.env }, freePorts: false, logs: { kind: 'console' }, log, durable: true });
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
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    await stack.stop();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // A process that dies on its own takes the whole local system down, loudly.
  for (const p of stack.processes) {
    void p.exited.then((code) => {
      if (!stopping) {
        log(`${p.name} exited with code ${code}; stopping everything`);
        void stop();
      }
    });
  }
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
