import type { ShareRecord, ShareStore } from '../../../ports/share-store.js';
import { isShareRecord } from '../../../domain/share-links.js';
import type { Sql } from './pg-client.js';

type Row = { body: string; revoked_at: number | null };

/**
 * The record with the table's `revoked_at`, which wins over the JSON's: a link another instance
 * replaced is stopped in the column only (put's first UPDATE), and must not be served.
 */
const parse = (row: Row | undefined): ShareRecord | null => {
  if (row === undefined) return null;
  const value: unknown = JSON.parse(row.body);
  if (!isShareRecord(value)) return null;
  return row.revoked_at !== null && !value.revoked_at ? { ...value, revoked_at: Number(row.revoked_at) } : value;
};

/** Share links in Postgres (`hermes_shares`, migration 6): token → the snapshot's JSON. */
export class PgShareStore implements ShareStore {
  constructor(readonly sql: Sql) {}

  async get(token: string): Promise<ShareRecord | null> {
    const [row] = await this.sql<Row[]>`SELECT body, revoked_at FROM hermes_shares WHERE token = ${token}`;
    return parse(row);
  }

  async forSession(sessionId: string): Promise<ShareRecord | null> {
    const [row] = await this.sql<Row[]>`SELECT body, revoked_at FROM hermes_shares WHERE session_id = ${sessionId} AND revoked_at IS NULL`;
    return parse(row);
  }

  async list(): Promise<ShareRecord[]> {
    const rows = await this.sql<Row[]>`SELECT body, revoked_at FROM hermes_shares ORDER BY token`;
    return rows.map(parse).filter((r): r is ShareRecord => r !== null);
  }

  /** One transaction: a live link made meanwhile by another instance for the same session is revoked first, so one stays live. */
  async put(r: ShareRecord): Promise<void> {
    await this.sql.begin(async (tx) => {
      if (!r.revoked_at) {
        // Stopped as a revoke stops one: in the column and the JSON, its transcript dropped.
        await tx`UPDATE hermes_shares SET revoked_at = ${r.updated_at},
            body = (body::jsonb || jsonb_build_object('revoked_at', ${r.updated_at}::float8, 'messages', '[]'::jsonb, 'message_count', 0))::text
          WHERE session_id = ${r.source_session_id} AND revoked_at IS NULL AND token <> ${r.token}`;
      }
      await tx`
        INSERT INTO hermes_shares (token, session_id, profile, revoked_at, body)
        VALUES (${r.token}, ${r.source_session_id}, ${r.profile}, ${r.revoked_at}, ${JSON.stringify(r)})
        ON CONFLICT (token) DO UPDATE SET revoked_at = excluded.revoked_at, profile = excluded.profile, body = excluded.body`;
    });
  }
}
