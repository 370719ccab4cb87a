import type { AuthStore } from '../../../ports/auth-store.js';

/** Auth state for one process (HERMES_WEBUI_STORAGE=memory and tests): a restart signs everyone out. */
export class MemoryAuthStore implements AuthStore {
  #keys = new Map<string, Uint8Array>();
  #sessions = new Map<string, number>();
  #failures = new Map<string, number[]>();

  async key(name: 'signing' | 'pbkdf2') {
    let key = this.#keys.get(name);
    if (!key) this.#keys.set(name, (key = crypto.getRandomValues(new Uint8Array(32))));
    return key;
  }
  async sessionExpiry(token: string) {
    return this.#sessions.get(token) ?? null;
  }
  async putSession(token: string, expiresAt: number) {
    this.#sessions.set(token, expiresAt);
  }
  async deleteSession(token: string) {
    this.#sessions.delete(token);
  }
  async pruneSessions(keep: (token: string, expiresAt: number) => boolean) {
    for (const [token, exp] of this.#sessions) if (!keep(token, exp)) this.#sessions.delete(token);
  }
  async failures(client: string) {
    return [...(this.#failures.get(client) ?? [])];
  }
  async setFailures(client: string, times: number[]) {
    if (times.length) this.#failures.set(client, [...times]);
    else this.#failures.delete(client);
  }
}
