/**
 * Runs async work one at a time per key: writes to one session are serialised, writes to
 * different sessions run in parallel.
 *
 * @example
 * const locks = new KeyedMutex();
 * await locks.run(sessionId, () => rewriteSessionFile(sessionId));
 */
export class KeyedMutex {
  #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Resolves once every queued piece of work has finished. */
  async idle(): Promise<void> {
    while (this.#tails.size) await Promise.all([...this.#tails.values()]);
  }
}
