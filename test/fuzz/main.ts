// npm run fuzz [-- --runs 100000 --seed n --workers 8 --timeout 10000 --graphql-share 0.2 --authorised-per-route 100
//                  --minutes m --attach stack.json]:
// the hostile-input fuzz of issue 15 at full size, on a stack of its own (or an already running
// one described by a stack.json like the e2e setup's). The seed is new every run unless --seed or
// FUZZ_SEED gives one (to replay a run); it is printed first. Prints, per oracle, how many inputs
// it judged and how many failed it; exits 1 when any failed.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_TABLE } from '@hub/common';
import { REPO_ROOT, startStack, type Stack } from '@hub/local';
import { closeHttp } from './http';
import { routeKey } from './routes';
import { runFuzz } from './runner';
import { fuzzSeed } from './seed';
import { createWorld } from './world';

const log = (line: string) => process.stdout.write(`${line}\n`);

function parseOptions(argv: string[]) {
  const options = {
    runs: 100_000,
    seed: fuzzSeed(),
    workers: 8,
    timeout: 10_000,
    graphqlShare: 0.2,
    authorisedPerRoute: 100,
    minutes: null as number | null,
    attach: null as string | null,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const number = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} wants a number, got ${value}`);
      i++;
      return n;
    };
    if (flag === '--runs') options.runs = number();
    else if (flag === '--seed') options.seed = number();
    else if (flag === '--workers') options.workers = Math.max(1, number());
    else if (flag === '--timeout') options.timeout = number();
    else if (flag === '--graphql-share') options.graphqlShare = Math.min(1, number());
    else if (flag === '--authorised-per-route') options.authorisedPerRoute = number();
    else if (flag === '--minutes') options.minutes = number();
    else if (flag === '--attach') {
      options.attach = value;
      i++;
    } else
      throw new Error(
        `unknown option ${flag} (options: --runs --seed --workers --timeout --graphql-share --authorised-per-route --minutes --attach)`,
      );
  }
  return options;
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  log(`fuzz seed ${options.seed} (replay with FUZZ_SEED=${options.seed} or --seed ${options.seed})`);
  let stack: Stack | null = null;
  let target: { restUrl: string; graphqlUrl: string; rootToken: string; principalSecret: string; dir: string };
  if (options.attach) {
    target = JSON.parse(readFileSync(options.attach, 'utf8'));
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'hub-fuzz-'));
    chmodSync(dir, 0o755);
    const env = { ...process.env };
    for (const name of Object.keys(CONFIG_TABLE)) delete env[name];
    env.LOG_LEVEL = 'warn';
    // The fuzz is one client sending bad tokens by the thousand: limits would answer most of it 429.
    Object.assign(env, {
      RATE_LIMIT_PER_USER: '0',
      RATE_LIMIT_PER_IP: '0',
      AUTH_FAILURES_PER_IP: '0',
      AUTH_FAILURES_PER_LOGIN: '0',
    });
    log(`starting a stack in ${dir} ...`);
    stack = await startStack({ dataDir: dir, env, freePorts: true, logs: { kind: 'files', dir }, log: () => {} });
    const started = stack;
    const stop = () => {
      void started.stop().finally(() => {
        rmSync(dir, { recursive: true, force: true });
        process.exit(130);
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    target = {
      restUrl: stack.restUrl,
      graphqlUrl: stack.graphqlUrl,
      rootToken: stack.rootToken,
      principalSecret: stack.env.PRINCIPAL_SECRET!,
      dir,
    };
  }
  const origin = new URL(target.restUrl).origin;
  const world = await createWorld({
    origin,
    graphqlUrl: target.graphqlUrl,
    rootToken: target.rootToken,
    principalSecret: target.principalSecret,
    dataDir: target.dir,
    repoRoot: REPO_ROOT,
  });
  log(
    `fuzzing: ${options.runs} inputs and ${options.authorisedPerRoute} authorised per write route, seed ${options.seed}, ${options.workers} workers, ${options.timeout} ms per request`,
  );
  const began = Date.now();
  const { rest, graphql, routes, authorisedReached, authorisedRoutes } = await runFuzz({
    world,
    runs: options.runs,
    seed: options.seed,
    workers: options.workers,
    timeoutMs: options.timeout,
    graphqlShare: options.graphqlShare,
    authorisedPerRoute: options.authorisedPerRoute,
    changeSettings: stack !== null,
    timeLimitMs: options.minutes === null ? undefined : options.minutes * 60_000,
    progress: log,
  });
  const seconds = (Date.now() - began) / 1000;
  log(`\n/api/v3 (${routes.length} operations)\n${rest.table()}`);
  log(`\nGraphQL gateway\n${graphql.table()}`);
  const unreached = authorisedRoutes.map(routeKey).filter((key) => !authorisedReached.has(key));
  log(
    `\nauthorised writes reached ${authorisedRoutes.length - unreached.length} of ${authorisedRoutes.length} write routes${unreached.length ? ` (not: ${unreached.join(', ')})` : ''}`,
  );
  log(
    `\n${rest.inputs + graphql.inputs} inputs in ${seconds.toFixed(0)} s; ${rest.failed + graphql.failed} oracle failures (seed ${options.seed})`,
  );
  await closeHttp();
  if (stack) {
    await stack.stop();
    rmSync(target.dir, { recursive: true, force: true });
  }
  process.exit(rest.failed + graphql.failed > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
