/**
 * Entities rendered as v3 JSON text, kept by this replica under the revision their subgraph gives
 * them (Project.revision; a folder's is its tree object's id, routes/rendered-trees.ts): a list page asks for ids and revisions, reuses what it rendered before
 * and asks for the entities only when one is missing. The revision changes with every value the
 * rendering shows, the viewer's view of it included, so a rendering is the same for every caller
 * who gets that revision, and an entity the caller may not see never reaches this.
 *
 * One entry per entity (its latest revision), least recently used evicted past the budget.
 */
export class RenderedEntities {
  private readonly entries = new Map<number | string, { revision: string; json: string }>();
  private size = 0;

  /** @param budget the most characters of JSON held: about as many bytes, as V8 stores this text. */
  constructor(private readonly budget: number) {}

  /** The rendering of `id` at `revision`, if this replica made it. */
  get(id: number | string, revision: string): string | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined || entry.revision !== revision) return undefined;
    // Maps keep insertion order: moved to the end, it is the last to be evicted.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.json;
  }

  /** The revision `id` is held at, if any (a caller that can ask for "changed since" says it). */
  revisionOf(id: number | string): string | undefined {
    return this.entries.get(id)?.revision;
  }

  /** Keeps `json` as the rendering of `id` at `revision` (replacing an older one); returns it. */
  put(id: number | string, revision: string, json: string): string {
    const old = this.entries.get(id);
    if (old !== undefined) {
      this.size -= old.json.length;
      this.entries.delete(id);
    }
    if (json.length > this.budget) return json;
    this.entries.set(id, { revision, json });
    this.size += json.length;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.budget) break;
      this.entries.delete(oldest);
      this.size -= entry.json.length;
    }
    return json;
  }

  /** Characters held, for tests and metrics. */
  get held(): number {
    return this.size;
  }
}
