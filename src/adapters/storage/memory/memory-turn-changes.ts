import type { TurnChangeRecord, TurnChangeStore } from '../../../ports/turn-changes.js';

/** Turn change records in memory (tests, throwaway storage). */
export class MemoryTurnChangeStore implements TurnChangeStore {
  readonly #records = new Map<string, Map<string, TurnChangeRecord>>();

  async put(record: TurnChangeRecord): Promise<void> {
    let bySession = this.#records.get(record.session_id);
    if (!bySession) this.#records.set(record.session_id, (bySession = new Map()));
    bySession.set(record.stream_id, structuredClone(record));
  }

  async get(sessionId: string, streamId: string): Promise<TurnChangeRecord | null> {
    const r = this.#records.get(sessionId)?.get(streamId);
    return r ? structuredClone(r) : null;
  }

  async markUndone(sessionId: string, streamId: string, at: number): Promise<boolean> {
    const r = this.#records.get(sessionId)?.get(streamId);
    if (!r || r.undone_at !== null) return false;
    r.undone_at = at;
    return true;
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.#records.delete(sessionId);
  }
}
