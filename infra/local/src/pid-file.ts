import { readFileSync } from 'node:fs';

/**
 * The pid a daemon's pid file names, or null while the file is missing, empty or half-written.
 * A daemon creates its pid file a moment before it writes the number, and `Number('')` is 0:
 * `process.kill(0, …)` signals the caller's whole process group, so a 0 must never come out.
 */
export function readPidFile(file: string): number | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const first = text.split('\n')[0].trim();
  if (!/^[1-9][0-9]*$/.test(first)) return null;
  const pid = Number(first);
  return Number.isSafeInteger(pid) ? pid : null;
}
