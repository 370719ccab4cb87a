import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmbedTokenRecord, EmbedTokenStore } from '../../../ports/embed-token-store.js';
import { isEmbedTokenRecord as isRecord } from '../../../embed/tokens.js';
import type { Logger } from '../../../ports/platform.js';
import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import { pythonJson, readTextIfExists, writeFileAtomic } from './atomic-file.js';

/** `<state>/embed_tokens.json`: `{"tokens": [...]}`, secrets hashed, replaced atomically. */
export class FsEmbedTokenStore implements EmbedTokenStore {
  readonly path: string;
  #lock = new KeyedMutex();

  constructor(
    stateDir: string,
    readonly logger?: Logger,
  ) {
    this.path = join(stateDir, 'embed_tokens.json');
  }

  async #read(): Promise<EmbedTokenRecord[]> {
    const text = await readTextIfExists(this.path);
    if (text === null || !text.trim()) return [];
    try {
      const value = JSON.parse(text) as { tokens?: unknown };
      return Array.isArray(value?.tokens) ? value.tokens.filter(isRecord) : [];
    } catch (err) {
      this.logger?.error({ msg: 'embed_tokens.json unreadable; no embed token is valid', path: this.path, error: String(err) });
      return [];
    }
  }

  #update(change: (records: EmbedTokenRecord[]) => EmbedTokenRecord[]): Promise<void> {
    return this.#lock.run('file', async () => {
      const next = change(await this.#read());
      await mkdir(join(this.path, '..'), { recursive: true });
      await writeFileAtomic(this.path, pythonJson({ tokens: next }));
    });
  }

  list(): Promise<EmbedTokenRecord[]> {
    return this.#read();
  }

  async get(id: string): Promise<EmbedTokenRecord | null> {
    return (await this.#read()).find((r) => r.id === id) ?? null;
  }

  /** Inserts, or replaces the record with this id in its place (as the database adapters do). */
  put(record: EmbedTokenRecord): Promise<void> {
    return this.#update((records) => {
      const at = records.findIndex((r) => r.id === record.id);
      return at < 0 ? [...records, record] : records.map((r, i) => (i === at ? record : r));
    });
  }

  prune(keep: (record: EmbedTokenRecord) => boolean): Promise<void> {
    return this.#update((records) => records.filter(keep));
  }
}
