/**
 * Preloaded (`node --require`) into every process the launcher starts. The launcher holds the
 * other end of a pipe on fd 3; the kernel closes it however the launcher ends, SIGKILL included,
 * so end-of-file here means nobody will stop this process any more: it stops itself, as if sent
 * SIGTERM (its own shutdown lets in-flight work finish), and exits for good after a grace period.
 * Node has no parent-death signal (prctl PR_SET_PDEATHSIG) without a native addon.
 */
import { Socket } from 'node:net';

const GRACE_MS = 10_000;
const fd = Number(process.env.HUB_LIFELINE);

if (Number.isInteger(fd) && fd > 2) {
  // Not passed on: a process this one starts is not the launcher's to watch.
  delete process.env.HUB_LIFELINE;
  const line = new Socket({ fd, readable: true, writable: false });
  let gone = false;
  const orphaned = () => {
    if (gone) return;
    gone = true;
    setTimeout(() => process.exit(1), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  };
  line.on('data', () => {});
  line.on('end', orphaned);
  line.on('close', orphaned);
  line.on('error', orphaned);
  // The pipe alone must not keep a process alive that has finished its work.
  line.unref();
}
