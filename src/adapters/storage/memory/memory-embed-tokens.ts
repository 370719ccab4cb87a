import type { EmbedTokenRecord, EmbedTokenStore } from '../../../ports/embed-token-store.js';

/** Embed tokens in memory (tests, `HERMES_WEBUI_STORAGE=memory`). */
export class MemoryEmbedTokenStore implements EmbedTokenStore {
  #records = new Map<string, EmbedTokenRecord>();

  async list(): Promise<EmbedTokenRecord[]> {
    return [...this.#records.values()].map((r) => ({ ...r }));
  }

  async get(id: string): Promise<EmbedTokenRecord | null> {
    const r = this.#records.get(id);
    return r ? { ...r } : null;
  }

  async put(record: EmbedTokenRecord): Promise<void> {
    this.#records.set(record.id, { ...record });
  }

  async prune(keep: (record: EmbedTokenRecord) => boolean): Promise<void> {
    for (const [id, r] of this.#records) if (!keep(r)) this.#records.delete(id);
  }
}
