import type { EmbedTokenRecord, EmbedTokenStore } from '../../../ports/embed-token-store.js';
import { isEmbedTokenRecord as isRecord } from '../../../embed/tokens.js';
import type { Sql } from './pg-client.js';

/** Embed tokens in Postgres (`embed_tokens`: id → the record's JSON, secrets hashed), oldest first. */
export class PgEmbedTokenStore implements EmbedTokenStore {
  constructor(readonly sql: Sql) {}

  async list(): Promise<EmbedTokenRecord[]> {
    const rows = await this.sql<{ body: unknown }[]>`SELECT body FROM embed_tokens ORDER BY position`;
    return rows.map((r) => r.body).filter(isRecord);
  }

  async get(id: string): Promise<EmbedTokenRecord | null> {
    const [row] = await this.sql<{ body: unknown }[]>`SELECT body FROM embed_tokens WHERE id = ${id}`;
    return isRecord(row?.body) ? row.body : null;
  }

  /** Inserts, or replaces the record with this id in its place. */
  async put(record: EmbedTokenRecord): Promise<void> {
    await this.sql`
      INSERT INTO embed_tokens (id, body) VALUES (${record.id}, ${JSON.stringify(record)}::text::json)
      ON CONFLICT (id) DO UPDATE SET body = excluded.body`;
  }

  /** Each deletion is conditional on the record `keep` saw (its JSON text), so one replaced meanwhile stays. */
  async prune(keep: (record: EmbedTokenRecord) => boolean): Promise<void> {
    const rows = await this.sql<{ id: string; text: string }[]>`SELECT id, body::text AS text FROM embed_tokens`;
    const drop = rows.filter((r) => {
      const record: unknown = JSON.parse(r.text);
      return isRecord(record) && !keep(record);
    });
    if (!drop.length) return;
    await this.sql`
      DELETE FROM embed_tokens e
      USING json_to_recordset(${JSON.stringify(drop)}::text::json) AS d(id text, text text)
      WHERE e.id = d.id AND e.body::text = d.text`;
  }
}
