import type { LeaseStore } from '../../../ports/lease.js';

/** Leases in one process (tests, `HERMES_WEBUI_STORAGE=memory`): one server, so a map is enough. */
export class MemoryLeaseStore implements LeaseStore {
  #held = new Map<string, { owner: string; expiresAt: number }>();

  /** `now` in milliseconds (tests move it). */
  constructor(private readonly now: () => number = () => Date.now()) {}

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const held = this.#held.get(key);
    if (held && held.owner !== owner && held.expiresAt > this.now()) return false;
    this.#held.set(key, { owner, expiresAt: this.now() + ttlMs });
    return true;
  }

  async renew(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const held = this.#held.get(key);
    if (!held || held.owner !== owner) return false;
    held.expiresAt = this.now() + ttlMs;
    return true;
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.#held.get(key)?.owner === owner) this.#held.delete(key);
  }

  async holder(key: string): Promise<{ owner: string; expiresAt: number } | null> {
    const held = this.#held.get(key);
    return held && held.expiresAt > this.now() ? { ...held } : null;
  }
}
