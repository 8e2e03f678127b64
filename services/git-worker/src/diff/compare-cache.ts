import type { CompareRefsResponse } from '@hub/protos';
import { createPerCommitCache } from '../git/per-commit-cache';

/**
 * About the length of `value` as JSON, without building it: strings by their length (escapes not
 * counted: a patch's newlines and quotes make its JSON some 5-10% longer), any other leaf and each
 * key or item by a few characters. Serializing a compare only to weigh it took 0.2-0.3 ms of the
 * worker's event loop per new compare (about 135 KiB of JSON on the bench's repository; this
 * walk, 0.03 ms) and left a string that size to collect.
 */
export function approximateJsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 6;
  let length = 2;
  if (Array.isArray(value)) for (const item of value) length += approximateJsonLength(item) + 1;
  else
    for (const key in value) length += key.length + 4 + approximateJsonLength((value as Record<string, unknown>)[key]);
  return length;
}

/**
 * What a kept compare answer costs in memory, from its size as JSON: measured on the bench's
 * repository, 128 answers of about 110 KB of JSON each grew the worker's RSS by some 60 MiB,
 * four to five times their JSON (objects, strings and what the heap keeps around them).
 */
const weighCompare = (answer: CompareRefsResponse) => 4 * approximateJsonLength(answer);

/**
 * Compares by commit pair: the commits between two commit ids and the diff from their merge base
 * never change, so a repeated compare (a merge request page polled, a CI job re-run) answers
 * from memory; a push moves a branch to a new commit, hence a new key. An answer cut short by
 * time is not kept (another try may finish), nor one over a quarter of `maxBytes`.
 */
export function createCompareCache(options: { maxEntries?: number; maxBytes?: number } = {}) {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const cache = createPerCommitCache<CompareRefsResponse>({
    maxEntries: options.maxEntries ?? 64,
    maxWeight: maxBytes,
    // Past a quarter of the room, one answer would push out most others: not kept.
    weigh: (answer) => {
      const bytes = weighCompare(answer);
      return bytes > maxBytes / 4 ? Infinity : bytes;
    },
    keep: (answer) => !answer.timedOut,
  });
  return {
    of: (repo: string, from: string, to: string, compute: () => Promise<CompareRefsResponse>) =>
      cache.of(repo, `${from}...${to}`, compute),
  };
}

export type CompareCache = ReturnType<typeof createCompareCache>;
