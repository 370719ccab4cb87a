import type { PushStore, PushSubscriptionRecord, VapidKeys } from '../../../ports/push.js';
import { generateVapidKeys, validVapidKeys } from '../../../domain/push/vapid.js';
import type { Sql } from './pg-client.js';
import { isPushSubscriptionRecord as isRecord } from '../../../domain/push/subscription.js';

const UNUSABLE = 'push_vapid holds no usable VAPID key pair; delete the row to make a new one (every browser must subscribe again)';

/**
 * Web Push state in Postgres: `push_vapid` holds at most one key pair (every instance inserts
 * its own only if none is there, then reads back the one that won, so instances starting
 * together end with one pair) and `push_subscriptions` one row per browser endpoint.
 */
export class PgPushStore implements PushStore {
  #keys: Promise<VapidKeys> | null = null;

  constructor(readonly sql: Sql) {}

  vapidKeys(): Promise<VapidKeys> {
    if (!this.#keys) {
      this.#keys = this.#loadKeys();
      this.#keys.catch(() => {
        this.#keys = null;
      });
    }
    return this.#keys;
  }

  /**
   * The import (`npm run migrate`): stores the state dir's key pair unless the database has one,
   * so its browsers' subscriptions keep working. `kept`: the database's own pair differs and stays.
   */
  async importVapidKeys(keys: VapidKeys): Promise<'copied' | 'unchanged' | 'kept'> {
    const inserted = await this.sql`
      INSERT INTO push_vapid (public_key, private_key) VALUES (${keys.public_key}, ${keys.private_key})
      ON CONFLICT (id) DO NOTHING RETURNING id`;
    this.#keys = null;
    if (inserted.length) return 'copied';
    const stored = await this.vapidKeys();
    return stored.public_key === keys.public_key && stored.private_key === keys.private_key ? 'unchanged' : 'kept';
  }

  async #loadKeys(): Promise<VapidKeys> {
    const stored = await this.#readKeys();
    if (stored) return stored;
    const fresh = await generateVapidKeys();
    await this.sql`
      INSERT INTO push_vapid (public_key, private_key) VALUES (${fresh.public_key}, ${fresh.private_key})
      ON CONFLICT (id) DO NOTHING`;
    const kept = await this.#readKeys();
    if (!kept) throw new Error(UNUSABLE);
    return kept;
  }

  async #readKeys(): Promise<VapidKeys | null> {
    const [row] = await this.sql<VapidKeys[]>`SELECT public_key, private_key FROM push_vapid`;
    if (!row) return null;
    if (!validVapidKeys(row)) throw new Error(UNUSABLE);
    return { public_key: row.public_key, private_key: row.private_key };
  }

  async list(profile?: string): Promise<PushSubscriptionRecord[]> {
    const rows =
      profile === undefined
        ? await this.sql<{ body: unknown }[]>`SELECT body FROM push_subscriptions ORDER BY position`
        : await this.sql<{ body: unknown }[]>`SELECT body FROM push_subscriptions WHERE profile = ${profile} ORDER BY position`;
    return rows.map((r) => r.body).filter(isRecord);
  }

  async put(subscription: PushSubscriptionRecord): Promise<void> {
    await this.sql`
      INSERT INTO push_subscriptions (endpoint, profile, body)
      VALUES (${subscription.endpoint}, ${subscription.profile}, ${JSON.stringify(subscription)}::text::json)
      ON CONFLICT (endpoint) DO UPDATE SET profile = excluded.profile, body = excluded.body`;
  }

  async remove(endpoint: string): Promise<boolean> {
    const rows = await this.sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint} RETURNING 1`;
    return rows.length > 0;
  }
}
