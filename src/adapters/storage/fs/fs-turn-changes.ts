import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTurnChangeRecord, type TurnChangeRecord, type TurnChangeStore } from '../../../ports/turn-changes.js';
import { isSafeSessionId } from '../../../shared/session.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';

const SAFE_STREAM_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Turn change records in the state dir: `turn_changes/<sid>/<stream_id>.json`, one JSON file per
 * turn holding the file list and the before/after contents (base64) its diffs and undo need.
 * The session's folder goes with the session.
 */
export class FsTurnChangeStore implements TurnChangeStore {
  readonly root: string;
  /** One write at a time per record (markUndone reads, then writes). */
  readonly #locks = new Map<string, Promise<unknown>>();
  constructor(stateDir: string) {
    this.root = join(stateDir, 'turn_changes');
  }

  #path(sessionId: string, streamId: string): string | null {
    if (!isSafeSessionId(sessionId) || !SAFE_STREAM_ID.test(streamId)) return null;
    return join(this.root, sessionId, `${streamId}.json`);
  }

  #serial<T>(key: string, work: () => Promise<T>): Promise<T> {
    const next = (this.#locks.get(key) ?? Promise.resolve()).catch(() => {}).then(work);
    this.#locks.set(key, next);
    void next.finally(() => this.#locks.get(key) === next && this.#locks.delete(key)).catch(() => {});
    return next;
  }

  async put(record: TurnChangeRecord): Promise<void> {
    const path = this.#path(record.session_id, record.stream_id);
    if (!path) throw new Error('unsafe turn change id');
    await this.#serial(path, async () => {
      await mkdir(join(this.root, record.session_id), { recursive: true });
      await writeFileAtomic(path, JSON.stringify(record));
    });
  }

  async get(sessionId: string, streamId: string): Promise<TurnChangeRecord | null> {
    const path = this.#path(sessionId, streamId);
    if (!path) return null;
    const text = await readTextIfExists(path);
    if (text === null) return null;
    const value: unknown = JSON.parse(text);
    return isTurnChangeRecord(value) ? value : null;
  }

  async markUndone(sessionId: string, streamId: string, at: number): Promise<boolean> {
    const path = this.#path(sessionId, streamId);
    if (!path) return false;
    return this.#serial(path, async () => {
      const record = await this.get(sessionId, streamId);
      if (!record || record.undone_at !== null) return false;
      await writeFileAtomic(path, JSON.stringify({ ...record, undone_at: at }));
      return true;
    });
  }

  async deleteSession(sessionId: string): Promise<void> {
    if (!isSafeSessionId(sessionId)) return;
    await rm(join(this.root, sessionId), { recursive: true, force: true });
  }
}
