import type { AuthStore } from '../../../ports/auth-store.js';
import type { Logger } from '../../../ports/platform.js';
import { fromHex, jsonChunks, parseJson, toHex, type D1Database } from './d1-types.js';

/**
 * Auth state in D1: `auth_keys` (each key written once: the first isolate to insert wins and
 * every other reads that one back), `auth_sessions` (token → expiry) and `auth_failures`
 * (client → JSON list of times). Nothing is cached but the keys, which never change.
 */
export class D1AuthStore implements AuthStore {
  #keys = new Map<string, Promise<Uint8Array>>();

  constructor(
    readonly db: D1Database,
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
    const select = () => this.db.prepare('SELECT key_hex FROM auth_keys WHERE name = ?1').bind(name);
    let row = await select().first<{ key_hex: string }>();
    if (!row) {
      // Insert-if-absent and read back in one transaction: concurrent first uses agree on one key.
      const fresh = toHex(crypto.getRandomValues(new Uint8Array(32)));
      const [, read] = await this.db.batch([
        this.db.prepare('INSERT INTO auth_keys (name, key_hex) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING').bind(name, fresh),
        select(),
      ]);
      row = (read?.results[0] as { key_hex: string } | undefined) ?? null;
    }
    const key = row ? fromHex(row.key_hex) : null;
    // A damaged key is never replaced silently: that would sign everyone out and break hashes.
    if (key?.length !== 32) throw new Error(`auth_keys row "${name}" is not a 32-byte hex key`);
    return key;
  }

  async sessionExpiry(token: string): Promise<number | null> {
    const row = await this.db.prepare('SELECT expires_at FROM auth_sessions WHERE token = ?1').bind(token).first<{ expires_at: number }>();
    return typeof row?.expires_at === 'number' ? row.expires_at : null;
  }

  async putSession(token: string, expiresAt: number): Promise<void> {
    await this.db
      .prepare('INSERT INTO auth_sessions (token, expires_at) VALUES (?1, ?2) ON CONFLICT (token) DO UPDATE SET expires_at = excluded.expires_at')
      .bind(token, expiresAt)
      .run();
  }

  async deleteSession(token: string): Promise<void> {
    await this.db.prepare('DELETE FROM auth_sessions WHERE token = ?1').bind(token).run();
  }

  /** Each deletion is conditional on the expiry `keep` saw, so a session renewed meanwhile stays. */
  async pruneSessions(keep: (token: string, expiresAt: number) => boolean): Promise<void> {
    const { results } = await this.db.prepare('SELECT token, expires_at FROM auth_sessions').all<{ token: string; expires_at: number }>();
    const drop = results.filter((r) => !keep(r.token, r.expires_at)).map((r) => [r.token, r.expires_at]);
    for (const chunk of jsonChunks(drop)) {
      await this.db
        .prepare(
          "DELETE FROM auth_sessions WHERE rowid IN (SELECT a.rowid FROM json_each(?1) j JOIN auth_sessions a ON a.token = json_extract(j.value, '$[0]') AND a.expires_at = json_extract(j.value, '$[1]'))",
        )
        .bind(chunk)
        .run();
    }
  }

  async failures(client: string): Promise<number[]> {
    const row = await this.db.prepare('SELECT times FROM auth_failures WHERE client = ?1').bind(client).first<{ times: string }>();
    const times = row ? parseJson(row.times) : [];
    if (!Array.isArray(times)) {
      this.logger?.error({ msg: 'auth_failures row unreadable; treated as empty', client });
      return [];
    }
    return times.filter((t): t is number => typeof t === 'number');
  }

  async setFailures(client: string, times: number[]): Promise<void> {
    if (!times.length) {
      await this.db.prepare('DELETE FROM auth_failures WHERE client = ?1').bind(client).run();
      return;
    }
    await this.db
      .prepare('INSERT INTO auth_failures (client, times) VALUES (?1, ?2) ON CONFLICT (client) DO UPDATE SET times = excluded.times')
      .bind(client, JSON.stringify(times))
      .run();
  }
}
