/**
 * A small TTL cache of credential lookups. Entries remember the user ids they involve so an
 * identity event about a user (token reset, block, delete, admin change) drops them at once;
 * entries that matched nobody are dropped on any such event, since a block may have been lifted.
 */
export class PrincipalCache<V> {
  private readonly entries = new Map<string, { value: V; userIds: number[]; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, userIds: number[], now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { value, userIds, expires: now + this.ttlMs });
  }

  invalidateUser(userId: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.userIds.length === 0 || entry.userIds.includes(userId)) this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
