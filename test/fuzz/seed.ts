import { randomInt } from 'node:crypto';

const MAX_SEED = 2 ** 30;

/**
 * The seed of a run: FUZZ_SEED when set, to replay a run, else a new one every run, so that each
 * run tries inputs the last one did not. Callers print it before the run and in any failure.
 */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.FUZZ_SEED;
  if (given === undefined || given === '') return randomInt(1, MAX_SEED);
  const seed = Number(given);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_SEED)
    throw new Error(`FUZZ_SEED wants an integer from 0 to ${MAX_SEED}, got ${given}`);
  return seed;
}
