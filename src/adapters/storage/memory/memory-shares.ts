import type { ShareRecord, ShareStore } from '../../../ports/share-store.js';

/** Share links in memory (tests, `HERMES_WEBUI_STORAGE=memory`). */
export class MemoryShareStore implements ShareStore {
  #records = new Map<string, ShareRecord>();

  async get(token: string): Promise<ShareRecord | null> {
    const r = this.#records.get(token);
    return r ? structuredClone(r) : null;
  }

  async forSession(sessionId: string): Promise<ShareRecord | null> {
    for (const r of this.#records.values()) if (r.source_session_id === sessionId && !r.revoked_at) return structuredClone(r);
    return null;
  }

  async list(): Promise<ShareRecord[]> {
    return [...this.#records.values()].map((r) => structuredClone(r));
  }

  async put(record: ShareRecord): Promise<void> {
    this.#records.set(record.token, structuredClone(record));
  }
}
