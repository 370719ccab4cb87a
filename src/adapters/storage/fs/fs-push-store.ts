import { chmod, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../ports/platform.js';
import type { PushStore, PushSubscriptionRecord, VapidKeys } from '../../../ports/push.js';
import { generateVapidKeys, validVapidKeys } from '../../../domain/push/vapid.js';
import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';
import { isPushSubscriptionRecord as isRecord } from '../../../domain/push/subscription.js';

const PRIVATE = 0o600;
export const VAPID_FILE = 'push_vapid.json';
export const SUBSCRIPTIONS_FILE = 'push_subscriptions.json';

/**
 * Web Push state in the state dir, private to the user (0600): `push_vapid.json` (the key pair,
 * created once with an exclusive create so two servers starting together agree on one) and
 * `push_subscriptions.json` (`{"subscriptions": […]}`, rewritten atomically). The list is read
 * afresh each time: it is small, and another server on the same state dir may have changed it.
 */
export class FsPushStore implements PushStore {
  #keys: Promise<VapidKeys> | null = null;
  #lock = new KeyedMutex();

  constructor(
    readonly stateDir: string,
    readonly logger?: Logger,
  ) {}

  vapidKeys(): Promise<VapidKeys> {
    if (!this.#keys) {
      this.#keys = this.#loadKeys();
      this.#keys.catch(() => {
        this.#keys = null;
      });
    }
    return this.#keys;
  }

  async #loadKeys(): Promise<VapidKeys> {
    const path = join(this.stateDir, VAPID_FILE);
    const existing = await this.#readKeys(path);
    if (existing) return existing;
    await mkdir(this.stateDir, { recursive: true });
    const keys = await generateVapidKeys();
    const text = `${JSON.stringify({ ...keys, created_at: Math.floor(Date.now() / 1000) }, null, 2)}\n`;
    try {
      const handle = await open(path, 'wx', PRIVATE);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await chmod(path, PRIVATE);
      return keys;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // Another server wrote first; a file it is still writing reads as unusable for a moment.
      for (let i = 0; i < 20; i++) {
        const theirs = await this.#readKeys(path);
        if (theirs) return theirs;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`${path} exists but holds no usable VAPID key pair; move it away to make a new one (every browser must subscribe again)`);
    }
  }

  async #readKeys(path: string): Promise<VapidKeys | null> {
    const text = await readTextIfExists(path);
    if (text === null) return null;
    try {
      const value = JSON.parse(text) as unknown;
      if (validVapidKeys(value)) return { public_key: value.public_key, private_key: value.private_key };
    } catch {
      /* judged below */
    }
    return null;
  }

  async list(profile?: string): Promise<PushSubscriptionRecord[]> {
    const all = await this.#read();
    return profile === undefined ? all : all.filter((s) => s.profile === profile);
  }

  put(subscription: PushSubscriptionRecord): Promise<void> {
    return this.#lock.run('subscriptions', async () => {
      const rest = (await this.#read()).filter((s) => s.endpoint !== subscription.endpoint);
      await this.#write([...rest, subscription]);
    });
  }

  remove(endpoint: string): Promise<boolean> {
    return this.#lock.run('subscriptions', async () => {
      const all = await this.#read();
      const rest = all.filter((s) => s.endpoint !== endpoint);
      if (rest.length === all.length) return false;
      await this.#write(rest);
      return true;
    });
  }

  async #read(): Promise<PushSubscriptionRecord[]> {
    const path = join(this.stateDir, SUBSCRIPTIONS_FILE);
    const text = await readTextIfExists(path);
    if (!text?.trim()) return [];
    try {
      const value = JSON.parse(text) as { subscriptions?: unknown };
      if (Array.isArray(value?.subscriptions)) return value.subscriptions.filter(isRecord);
    } catch {
      /* logged below */
    }
    this.logger?.error({ msg: 'push subscriptions file unreadable; treating it as empty until the next subscribe', path });
    return [];
  }

  async #write(subscriptions: PushSubscriptionRecord[]): Promise<void> {
    await mkdir(this.stateDir, { recursive: true });
    await writeFileAtomic(join(this.stateDir, SUBSCRIPTIONS_FILE), `${JSON.stringify({ subscriptions }, null, 2)}\n`, { mode: PRIVATE });
  }
}
