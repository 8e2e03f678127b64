/**
 * The launcher's keeper: a small process that outlives a launcher killed without warning and
 * stops what it left running. Service processes stop themselves (lifeline.ts), but Postgres and
 * Redis are daemons that know nothing of the launcher. The keeper waits for end-of-file on its
 * lifeline (fd 3), then stops whatever the data folder's launcher.json still lists, and exits.
 * A launcher that stops cleanly removes launcher.json first, so then there is nothing to do.
 */
import { Socket } from 'node:net';
import { clearState, readState, stopLeftovers } from './leftovers';

const dataDir = process.argv[2];
// Ctrl-C reaches the whole process group, and a closed terminal hangs it up: the launcher handles
// those; the keeper stays until its lifeline closes, in case the launcher does not finish the job.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.on('SIGHUP', () => {});

const line = new Socket({ fd: 3, readable: true, writable: false });
let done = false;
const orphaned = async () => {
  if (done) return;
  done = true;
  const state = readState(dataDir);
  if (state) {
    const stopped = await stopLeftovers(state);
    clearState(dataDir);
    if (stopped.length) process.stderr.write(`keeper: the launcher died; stopped ${stopped.join(', ')}\n`);
  }
  process.exit(0);
};
line.on('data', () => {});
line.on('end', () => void orphaned());
line.on('close', () => void orphaned());
line.on('error', () => void orphaned());
