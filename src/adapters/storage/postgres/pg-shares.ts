import type { ShareRecord, ShareStore } from '../../../ports/share-store.js';
import { isShareRecord } from '../../../domain/share-links.js';
import type { Sql } from './pg-client.js';

const parse = (body: string | undefined): ShareRecord | null => {
  if (body === undefined) return null;
  const value: unknown = JSON.parse(body);
  return isShareRecord(value) ? value : null;
};

/** Share links in Postgres (`hermes_shares`, migration 6): token → the snapshot's JSON. */
export class PgShareStore implements ShareStore {
  constructor(readonly sql: Sql) {}

  async get(token: string): Promise<ShareRecord | null> {
    const [row] = await this.sql<{ body: string }[]>`SELECT body FROM hermes_shares WHERE token = ${token}`;
    return parse(row?.body);
  }

  async forSession(sessionId: string): Promise<ShareRecord | null> {
    const [row] = await this.sql<{ body: string }[]>`SELECT body FROM hermes_shares WHERE session_id = ${sessionId} AND revoked_at IS NULL`;
    return parse(row?.body);
  }

  async list(): Promise<ShareRecord[]> {
    const rows = await this.sql<{ body: string }[]>`SELECT body FROM hermes_shares ORDER BY token`;
    return rows.map((r) => parse(r.body)).filter((r): r is ShareRecord => r !== null);
  }

  /** One transaction: a live link made meanwhile by another instance for the same session is revoked first, so one stays live. */
  async put(r: ShareRecord): Promise<void> {
    await this.sql.begin(async (tx) => {
      if (!r.revoked_at) {
        await tx`UPDATE hermes_shares SET revoked_at = ${r.updated_at} WHERE session_id = ${r.source_session_id} AND revoked_at IS NULL AND token <> ${r.token}`;
      }
      await tx`
        INSERT INTO hermes_shares (token, session_id, profile, revoked_at, body)
        VALUES (${r.token}, ${r.source_session_id}, ${r.profile}, ${r.revoked_at}, ${JSON.stringify(r)})
        ON CONFLICT (token) DO UPDATE SET revoked_at = excluded.revoked_at, profile = excluded.profile, body = excluded.body`;
    });
  }
}
