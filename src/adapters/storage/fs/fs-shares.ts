import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ShareRecord, ShareStore } from '../../../ports/share-store.js';
import type { Logger } from '../../../ports/platform.js';
import { SHARE_TOKEN, isShareRecord } from '../../../domain/share-links.js';
import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import { pythonJson, readTextIfExists, writeFileAtomic } from './atomic-file.js';

/**
 * `<state>/shares/<token>.json`, the incumbent's files and fields, so links made by the Python
 * server keep working. Which session has a live link is learnt by reading the folder once,
 * then kept in step by put (the state dir has one server).
 */
export class FsShareStore implements ShareStore {
  readonly dir: string;
  #lock = new KeyedMutex();
  #bySession: Promise<Map<string, string>> | null = null;

  constructor(
    stateDir: string,
    readonly logger?: Logger,
  ) {
    this.dir = join(stateDir, 'shares');
  }

  async get(token: string): Promise<ShareRecord | null> {
    if (!SHARE_TOKEN.test(token)) return null;
    const text = await readTextIfExists(join(this.dir, `${token}.json`));
    if (text === null) return null;
    try {
      const value: unknown = JSON.parse(text);
      // The incumbent's revoke may leave a bare `{revoked_at}`: still a revoked link.
      return isShareRecord(value) ? { ...value, profile: value.profile ?? 'default' } : null;
    } catch (err) {
      this.logger?.error({ msg: 'share snapshot unreadable; its link answers 404', token, error: String(err) });
      return null;
    }
  }

  #index(): Promise<Map<string, string>> {
    this.#bySession ??= (async () => {
      const map = new Map<string, string>();
      const names = await readdir(this.dir).catch(() => [] as string[]);
      for (const name of names) {
        if (!name.endsWith('.json')) continue;
        const record = await this.get(name.slice(0, -5));
        if (record && !record.revoked_at) map.set(record.source_session_id, record.token);
      }
      return map;
    })();
    return this.#bySession;
  }

  async forSession(sessionId: string): Promise<ShareRecord | null> {
    const token = (await this.#index()).get(sessionId);
    const record = token ? await this.get(token) : null;
    return record && !record.revoked_at ? record : null;
  }

  async list(): Promise<ShareRecord[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const records = await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => this.get(n.slice(0, -5))));
    return records.filter((r): r is ShareRecord => r !== null);
  }

  async put(record: ShareRecord): Promise<void> {
    if (!SHARE_TOKEN.test(record.token)) throw new Error('invalid share token');
    const index = await this.#index();
    await this.#lock.run(record.token, async () => {
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(join(this.dir, `${record.token}.json`), pythonJson(record));
    });
    if (record.revoked_at) {
      if (index.get(record.source_session_id) === record.token) index.delete(record.source_session_id);
    } else index.set(record.source_session_id, record.token);
  }
}
