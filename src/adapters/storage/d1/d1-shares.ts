import type { Logger } from '../../../ports/platform.js';
import type { ShareRecord, ShareStore } from '../../../ports/share-store.js';
import { isShareRecord } from '../../../domain/share-links.js';
import { parseJson, type D1Database } from './d1-types.js';

interface Row {
  body: string;
  revoked_at: number | null;
}

/**
 * Share links in D1 (`shares`, migration 0002): token → the snapshot's JSON. The `revoked_at`
 * column is the truth for whether a link is live (it is what the one-live-link index sees), so
 * a read takes it over the body's copy.
 */
export class D1ShareStore implements ShareStore {
  constructor(
    readonly db: D1Database,
    readonly logger?: Logger,
  ) {}

  #parse(row: Row | null): ShareRecord | null {
    if (!row) return null;
    const value = parseJson(row.body);
    if (!isShareRecord(value)) {
      this.logger?.error({ msg: 'unreadable share row ignored' });
      return null;
    }
    return { ...value, revoked_at: row.revoked_at ?? null };
  }

  async get(token: string): Promise<ShareRecord | null> {
    return this.#parse(await this.db.prepare('SELECT body, revoked_at FROM shares WHERE token = ?1').bind(token).first<Row>());
  }

  async forSession(sessionId: string): Promise<ShareRecord | null> {
    return this.#parse(await this.db.prepare('SELECT body, revoked_at FROM shares WHERE session_id = ?1 AND revoked_at IS NULL').bind(sessionId).first<Row>());
  }

  async list(): Promise<ShareRecord[]> {
    const { results } = await this.db.prepare('SELECT body, revoked_at FROM shares ORDER BY token').all<Row>();
    return results.map((r) => this.#parse(r)).filter((r): r is ShareRecord => r !== null);
  }

  /**
   * One batch (one transaction): a live link another isolate made meanwhile for the same session
   * is stopped first (its transcript emptied, as a revoke does), so exactly one stays live.
   */
  async put(r: ShareRecord): Promise<void> {
    const statements = [];
    if (!r.revoked_at) {
      statements.push(
        this.db
          .prepare(
            "UPDATE shares SET revoked_at = ?1, body = json_set(body, '$.revoked_at', ?1, '$.messages', json('[]'), '$.message_count', 0) WHERE session_id = ?2 AND revoked_at IS NULL AND token <> ?3",
          )
          .bind(r.updated_at, r.source_session_id, r.token),
      );
    }
    statements.push(
      this.db
        .prepare(
          `INSERT INTO shares (token, session_id, profile, revoked_at, body) VALUES (?1, ?2, ?3, ?4, ?5)
           ON CONFLICT (token) DO UPDATE SET session_id = excluded.session_id, profile = excluded.profile, revoked_at = excluded.revoked_at, body = excluded.body`,
        )
        .bind(r.token, r.source_session_id, r.profile, r.revoked_at ?? null, JSON.stringify(r)),
    );
    await this.db.batch(statements);
  }
}
