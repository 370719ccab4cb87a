import type { AuthStore } from '../../../ports/auth-store.js';
import type { Logger } from '../../../ports/platform.js';
import type { Sql } from './pg-client.js';

/**
 * Auth state in Postgres: `auth_keys` (each key written once: the first instance to insert wins
 * and every other reads that one back), `auth_sessions` (token → expiry) and `auth_failures`
 * (client → JSON list of times). Nothing is cached but the keys, which never change.
 */
export class PgAuthStore implements AuthStore {
  #keys = new Map<string, Promise<Uint8Array>>();

  constructor(
    readonly sql: Sql,
    readonly logger?: Logger,
  ) {}

  key(name: 'signing' | 'pbkdf2'): Promise<Uint8Array> {
    let key = this.#keys.get(name);
    if (!key) {
      key = this.#loadKey(name);
      this.#keys.set(name, key);
      key.catch(() => this.#keys.delete(name));
    }
    return key;
  }

  async #loadKey(name: string): Promise<Uint8Array> {
    const select = async () => (await this.sql<{ key: Uint8Array }[]>`SELECT key FROM auth_keys WHERE name = ${name}`)[0]?.key;
    let key = await select();
    if (!key) {
      // Insert-if-absent, then read in a new statement (whose snapshot sees a winner that committed meanwhile).
      const fresh = crypto.getRandomValues(new Uint8Array(32));
      await this.sql`INSERT INTO auth_keys (name, key) VALUES (${name}, ${fresh}) ON CONFLICT (name) DO NOTHING`;
      key = await select();
    }
    if (key?.length !== 32) throw new Error(`auth_keys row "${name}" is missing or not 32 bytes`);
    return new Uint8Array(key);
  }

  /**
   * The import (`npm run migrate`): stores `key` unless the database already has one, so signed-in
   * browsers keep working after the move. `kept`: the database's own differs and stays (sign-ins
   * made on it stay valid; the copied ones then need a new sign-in).
   */
  async importKey(name: 'signing' | 'pbkdf2', key: Uint8Array): Promise<'copied' | 'unchanged' | 'kept'> {
    if (key.length !== 32) throw new Error(`the ${name} key to import is not 32 bytes`);
    const inserted = await this.sql`INSERT INTO auth_keys (name, key) VALUES (${name}, ${key}) ON CONFLICT (name) DO NOTHING RETURNING name`;
    this.#keys.delete(name);
    if (inserted.length) return 'copied';
    const stored = await this.key(name);
    return stored.length === key.length && stored.every((b, i) => b === key[i]) ? 'unchanged' : 'kept';
  }

  async sessionExpiry(token: string): Promise<number | null> {
    const [row] = await this.sql<{ expires_at: number }[]>`SELECT expires_at FROM auth_sessions WHERE token = ${token}`;
    return row ? row.expires_at : null;
  }

  async putSession(token: string, expiresAt: number): Promise<void> {
    await this.sql`
      INSERT INTO auth_sessions (token, expires_at) VALUES (${token}, ${expiresAt}::float8)
      ON CONFLICT (token) DO UPDATE SET expires_at = excluded.expires_at`;
  }

  async deleteSession(token: string): Promise<void> {
    await this.sql`DELETE FROM auth_sessions WHERE token = ${token}`;
  }

  /** Each deletion is conditional on the expiry `keep` saw, so a session renewed meanwhile stays. */
  async pruneSessions(keep: (token: string, expiresAt: number) => boolean): Promise<void> {
    const rows = await this.sql<{ token: string; expires_at: number }[]>`SELECT token, expires_at FROM auth_sessions`;
    const drop = rows.filter((r) => !keep(r.token, r.expires_at));
    if (!drop.length) return;
    await this.sql`
      DELETE FROM auth_sessions a
      USING json_to_recordset(${JSON.stringify(drop)}::text::json) AS d(token text, expires_at float8)
      WHERE a.token = d.token AND a.expires_at = d.expires_at`;
  }

  async failures(client: string): Promise<number[]> {
    const [row] = await this.sql<{ times: unknown }[]>`SELECT times FROM auth_failures WHERE client = ${client}`;
    if (!row) return [];
    if (!Array.isArray(row.times)) {
      this.logger?.error({ msg: 'auth_failures row unreadable; treated as empty', client });
      return [];
    }
    return row.times.filter((t): t is number => typeof t === 'number');
  }

  async setFailures(client: string, times: number[]): Promise<void> {
    if (!times.length) {
      await this.sql`DELETE FROM auth_failures WHERE client = ${client}`;
      return;
    }
    await this.sql`
      INSERT INTO auth_failures (client, times) VALUES (${client}, ${JSON.stringify(times)}::text::json)
      ON CONFLICT (client) DO UPDATE SET times = excluded.times`;
  }
}
