/**
 * Work on one key (a repository's ref) done one at a time, in arrival order, within this process.
 * A project's repository lives on one worker, so this orders every API write to a ref; pushes
 * from git itself still race, which callers settle with update-ref's old value.
 */
export function createTurns() {
  const tails = new Map<string, Promise<unknown>>();
  return async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const mine = previous.then(work, work);
    // The next one waits for this one however it ends; the entry goes with the last in line.
    const tail = mine.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await mine;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
