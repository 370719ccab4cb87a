import type { LeaseStore } from '../../../ports/lease.js';
import type { Sql } from './pg-client.js';

/**
 * Leases as rows of `leases`, each change one statement, so two instances never both hold a
 * key: `acquire` is an upsert that overwrites only an expired row or the caller's own, and the
 * row lock an upsert takes makes a concurrent taker re-check the winner's row.
 *
 * Time is the database's clock (`clock_timestamp()`, epoch ms) unless `now` is given: every
 * instance then judges expiry by one clock, so a server whose clock runs ahead cannot take a
 * lease early nor one running behind keep it too long. `now` (epoch ms) is for tests that move time.
 */
export class PgLeaseStore implements LeaseStore {
  constructor(
    readonly sql: Sql,
    private readonly now?: () => number,
  ) {}

  /** The time parameter: null makes each statement read the database's clock. */
  #at(): number | null {
    return this.now ? this.now() : null;
  }

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const rows = await this.sql`
      WITH t AS (SELECT coalesce(${this.#at()}::float8, extract(epoch FROM clock_timestamp())::float8 * 1000) AS now)
      INSERT INTO leases AS l (key, owner, expires_at)
      SELECT ${key}, ${owner}, t.now + ${ttlMs}::float8 FROM t
      ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE l.owner = excluded.owner OR l.expires_at <= (SELECT now FROM t)
      RETURNING 1`;
    return rows.length > 0;
  }

  /** Extends the lease while `owner` still holds the row (as the other adapters, an expired lease nobody took can be renewed). */
  async renew(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const rows = await this.sql`
      UPDATE leases SET expires_at = coalesce(${this.#at()}::float8, extract(epoch FROM clock_timestamp())::float8 * 1000) + ${ttlMs}::float8
      WHERE key = ${key} AND owner = ${owner}
      RETURNING 1`;
    return rows.length > 0;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.sql`DELETE FROM leases WHERE key = ${key} AND owner = ${owner}`;
  }

  async holder(key: string): Promise<{ owner: string; expiresAt: number } | null> {
    const [row] = await this.sql<{ owner: string; expires_at: number }[]>`
      SELECT owner, expires_at FROM leases
      WHERE key = ${key} AND expires_at > coalesce(${this.#at()}::float8, extract(epoch FROM clock_timestamp())::float8 * 1000)`;
    return row ? { owner: row.owner, expiresAt: row.expires_at } : null;
  }
}
