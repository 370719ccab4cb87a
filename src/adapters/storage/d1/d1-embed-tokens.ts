import type { EmbedTokenRecord, EmbedTokenStore } from '../../../ports/embed-token-store.js';
import { isEmbedTokenRecord as isRecord } from '../../../embed/tokens.js';
import type { Logger } from '../../../ports/platform.js';
import { jsonChunks, parseJson, type D1Database } from './d1-types.js';

/** Embed tokens in D1 (`embed_tokens`: id → the record's JSON, secrets hashed), oldest first. */
export class D1EmbedTokenStore implements EmbedTokenStore {
  constructor(
    readonly db: D1Database,
    readonly logger?: Logger,
  ) {}

  #parse(body: string): EmbedTokenRecord | null {
    const value = parseJson(body);
    if (isRecord(value)) return value;
    this.logger?.error({ msg: 'unreadable embed token row ignored' });
    return null;
  }

  async list(): Promise<EmbedTokenRecord[]> {
    const { results } = await this.db.prepare('SELECT body FROM embed_tokens ORDER BY rowid').all<{ body: string }>();
    return results.map((r) => this.#parse(r.body)).filter((r): r is EmbedTokenRecord => r !== null);
  }

  async get(id: string): Promise<EmbedTokenRecord | null> {
    const row = await this.db.prepare('SELECT body FROM embed_tokens WHERE id = ?1').bind(id).first<{ body: string }>();
    return row ? this.#parse(row.body) : null;
  }

  async put(record: EmbedTokenRecord): Promise<void> {
    await this.db
      .prepare('INSERT INTO embed_tokens (id, body) VALUES (?1, ?2) ON CONFLICT (id) DO UPDATE SET body = excluded.body')
      .bind(record.id, JSON.stringify(record))
      .run();
  }

  /** Each deletion is conditional on the record `keep` saw, so one replaced meanwhile stays. */
  async prune(keep: (record: EmbedTokenRecord) => boolean): Promise<void> {
    const { results } = await this.db.prepare('SELECT id, body FROM embed_tokens').all<{ id: string; body: string }>();
    const drop = results
      .filter((r) => {
        const record = parseJson(r.body);
        return isRecord(record) && !keep(record);
      })
      .map((r) => [r.id, r.body]);
    for (const chunk of jsonChunks(drop)) {
      await this.db
        .prepare(
          "DELETE FROM embed_tokens WHERE rowid IN (SELECT e.rowid FROM json_each(?1) j JOIN embed_tokens e ON e.id = json_extract(j.value, '$[0]') AND e.body = json_extract(j.value, '$[1]'))",
        )
        .bind(chunk)
        .run();
    }
  }
}
