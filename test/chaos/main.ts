/**
 * `npm run chaos`: every service process killed in turn with SIGKILL under a steady mixed load,
 * then Postgres crashed and recovered, Redis killed and started again, and the git worker killed
 * in the middle of pushes; prints what it tried and what went wrong. Exits 1 when a request failed
 * outside the killed process's routes, a killed route failed other than with a 502/503 JSON
 * message within a second, an event was lost, or a push left a repository inconsistent.
 */
import { PROCESSES } from '@hub/local';
import { formatFigures, runChaos, type Fault } from './chaos';

const ALL = [...PROCESSES.map((p) => p.name), 'postgres', 'redis', 'push:150', 'push:600', 'push:1500'];

/** `--faults identity,postgres,redis,push:600` (default: every process, both servers, three pushes). */
function parseFault(token: string): Fault {
  if (token === 'postgres' || token === 'redis') return { kind: token };
  if (token.startsWith('push:')) return { kind: 'push-kill', afterMs: Number(token.slice(5)) };
  if (PROCESSES.some((p) => p.name === token)) return { kind: 'kill', process: token };
  throw new Error(`unknown fault ${token}: one of ${ALL.join(', ')}`);
}

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

async function main() {
  const started = Date.now();
  const faults = option('faults', ALL.join(',')).split(',').map(parseFault);
  const figures = await runChaos({
    faults,
    workers: Number(option('workers', '8')),
    calmMs: Number(option('calm', '5000')),
    log: (line) => console.log(line),
  });
  console.log(`\nchaos: ${Math.round((Date.now() - started) / 1000)} s\n` + formatFigures(figures));
  const bad =
    figures.failedOutside +
    figures.failedBadly +
    figures.failedSlowly +
    figures.eventsLost +
    figures.crashed.length +
    figures.pushKills.filter((p) => !p.fsckClean || p.outcome === 'other' || !p.retryOk).length +
    figures.recoveries.filter((r) => r.ms === null).length;
  process.exit(bad ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
