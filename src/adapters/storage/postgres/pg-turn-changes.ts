import { isTurnChangeRecord, type TurnChangeRecord, type TurnChangeStore } from '../../../ports/turn-changes.js';
import type { Sql } from './pg-client.js';

/** Turn change records in Postgres (`hermes_turn_changes`); `undone_at` is a column, so marking it is one conditional update. */
export class PgTurnChangeStore implements TurnChangeStore {
  constructor(readonly sql: Sql) {}

  async put(record: TurnChangeRecord): Promise<void> {
    await this.sql`
      INSERT INTO hermes_turn_changes (session_id, stream_id, undone_at, body)
      VALUES (${record.session_id}, ${record.stream_id}, ${record.undone_at}, ${JSON.stringify(record)})
      ON CONFLICT (session_id, stream_id) DO UPDATE SET undone_at = excluded.undone_at, body = excluded.body`;
  }

  async get(sessionId: string, streamId: string): Promise<TurnChangeRecord | null> {
    const [row] = await this.sql<{ body: string; undone_at: number | null }[]>`
      SELECT body, undone_at FROM hermes_turn_changes WHERE session_id = ${sessionId} AND stream_id = ${streamId}`;
    if (!row) return null;
    const value: unknown = JSON.parse(row.body);
    return isTurnChangeRecord(value) ? { ...value, undone_at: row.undone_at === null ? null : Number(row.undone_at) } : null;
  }

  async markUndone(sessionId: string, streamId: string, at: number): Promise<boolean> {
    const rows = await this.sql`
      UPDATE hermes_turn_changes SET undone_at = ${at}
      WHERE session_id = ${sessionId} AND stream_id = ${streamId} AND undone_at IS NULL
      RETURNING stream_id`;
    return rows.length === 1;
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.sql`DELETE FROM hermes_turn_changes WHERE session_id = ${sessionId}`;
  }
}
