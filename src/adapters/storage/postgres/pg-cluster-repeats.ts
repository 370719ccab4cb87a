/**
 * Remembers the last `capacity` message ids heard, so a NOTIFY delivered twice (two listening
 * connections overlap while the cluster listens anew) is handled once. A repeat arrives within
 * moments of the first copy, so a short memory is enough and stays bounded.
 */
export class RepeatFilter {
  readonly #seen = new Set<string>();

  constructor(private readonly capacity = 4096) {}

  /** True the first time `id` is heard, false for a repeat. */
  firstTime(id: string): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (this.#seen.size > this.capacity) this.#seen.delete(this.#seen.values().next().value!);
    return true;
  }
}
