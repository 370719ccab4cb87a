import type { PushStore, PushSubscriptionRecord, VapidKeys } from '../../../ports/push.js';
import { generateVapidKeys } from '../../../domain/push/vapid.js';

/** PushStore in memory: a key pair per process, subscriptions until it stops. */
export class MemoryPushStore implements PushStore {
  #keys: Promise<VapidKeys> | null = null;
  #subscriptions = new Map<string, PushSubscriptionRecord>();

  vapidKeys(): Promise<VapidKeys> {
    this.#keys ??= generateVapidKeys();
    return this.#keys;
  }

  async list(profile?: string): Promise<PushSubscriptionRecord[]> {
    const all = [...this.#subscriptions.values()];
    return profile === undefined ? all : all.filter((s) => s.profile === profile);
  }

  async put(subscription: PushSubscriptionRecord): Promise<void> {
    this.#subscriptions.set(subscription.endpoint, { ...subscription, keys: { ...subscription.keys } });
  }

  async remove(endpoint: string): Promise<boolean> {
    return this.#subscriptions.delete(endpoint);
  }
}
