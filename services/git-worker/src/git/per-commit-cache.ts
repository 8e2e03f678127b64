/**
 * Answers that never change under a commit id (a history's length, its contributors), kept per
 * repository and commit: the least recently used goes first past `maxEntries` answers or
 * `maxWeight` in all (an answer heavier than that alone is not kept), a failure is not kept, nor
 * an answer `keep` refuses (one cut short by time), and one computation serves everyone asking
 * for the same key at once (single flight).
 */
export function createPerCommitCache<T>(options: {
  maxEntries: number;
  maxWeight?: number;
  weigh?: (value: T) => number;
  keep?: (value: T) => boolean;
}) {
  const { maxEntries, maxWeight = Infinity, weigh = () => 0, keep = () => true } = options;
  // Each answer with its weight, weighed once: a compare's weight walks the whole answer.
  const kept = new Map<string, { value: T; weight: number }>();
  const flights = new Map<string, Promise<T>>();
  let weight = 0;

  const remember = (key: string, value: T) => {
    if (!keep(value)) return;
    const entry = { value, weight: weigh(value) };
    if (entry.weight > maxWeight) return;
    kept.set(key, entry);
    weight += entry.weight;
    for (const [oldest, old] of kept) {
      if (kept.size <= maxEntries && weight <= maxWeight) break;
      kept.delete(oldest);
      weight -= old.weight;
    }
  };

  return {
    of(repo: string, commit: string, compute: () => Promise<T>): Promise<T> {
      const key = `${repo}\0${commit}`;
      const entry = kept.get(key);
      if (entry) {
        // Most recently used goes last.
        kept.delete(key);
        kept.set(key, entry);
        return Promise.resolve(entry.value);
      }
      let flight = flights.get(key);
      if (!flight) {
        flight = compute()
          .then((value) => {
            remember(key, value);
            return value;
          })
          .finally(() => flights.delete(key));
        flights.set(key, flight);
      }
      return flight;
    },
  };
}
