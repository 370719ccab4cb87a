import { connectivity } from '../api/client.js';
import { Store } from './store.js';

/** While offline, how often /health is asked whether the server is back. */
export const HEALTH_POLL_MS = 3000;

/**
 * Online or offline, as far as this app is concerned: a request that could not be made, a
 * live stream that errored, or the browser's `offline` event say offline; any answer from the
 * server says online. While offline it asks /health every few seconds (and at once on the
 * browser's `online` event); `onOnline` runs when the server is reachable again.
 */
export class ConnectionStore extends Store {
  online = true;
  onOnline: (() => void) | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #probing = false;

  constructor() {
    super();
    if (typeof navigator !== 'undefined' && navigator.onLine === false) this.setOnline(false);
    connectivity.addEventListener('unreachable', () => this.setOnline(false));
    connectivity.addEventListener('reachable', () => this.setOnline(true));
    window.addEventListener('offline', () => this.setOnline(false));
    window.addEventListener('online', () => void this.probe());
  }

  setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    if (online) {
      if (this.#timer) clearInterval(this.#timer);
      this.#timer = null;
    } else {
      this.#timer ??= setInterval(() => void this.probe(), HEALTH_POLL_MS);
    }
    this.changed();
    if (online) this.onOnline?.();
  }

  /** Asks /health once; the answer (or its absence) sets the state. */
  async probe(): Promise<boolean> {
    if (this.#probing) return this.online;
    this.#probing = true;
    try {
      const res = await fetch('/health', { cache: 'no-store', credentials: 'same-origin' });
      this.setOnline(res.ok);
    } catch {
      this.setOnline(false);
    } finally {
      this.#probing = false;
    }
    return this.online;
  }
}
