import { Store } from '../state/store.js';

/**
 * The service worker's update state: `waiting` is set when a new version has installed and
 * waits to take over. Nothing reloads by itself: `apply()` (the user's click) tells the waiting
 * worker to activate and reloads once it controls the page.
 */
export class UpdateStore extends Store {
  waiting: ServiceWorker | null = null;
  /** The `check_for_updates` setting: off, an open tab stops asking for new builds (the browser's own check on load remains). */
  checking = true;
  #registration: ServiceWorkerRegistration | null = null;

  setWaiting(worker: ServiceWorker | null): void {
    if (worker === this.waiting) return;
    this.waiting = worker;
    this.changed();
  }

  /** Registers /sw.js and watches for new versions. Safe to call where workers are unsupported. */
  async register(): Promise<void> {
    if (!('serviceWorker' in navigator)) return;
    try {
      const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      this.#registration = reg;
      const track = (w: ServiceWorker | null) => {
        if (!w) return;
        const check = () => {
          // Installed while another version controls the page: an update, waiting for consent.
          if (w.state === 'installed' && navigator.serviceWorker.controller) this.setWaiting(reg.waiting ?? w);
        };
        check();
        w.addEventListener('statechange', check);
      };
      if (reg.waiting && navigator.serviceWorker.controller) this.setWaiting(reg.waiting);
      track(reg.installing);
      reg.addEventListener('updatefound', () => track(reg.installing));
      // A tab left open for days still learns about new builds.
      document.addEventListener('visibilitychange', () => this.checking && document.visibilityState === 'visible' && void reg.update().catch(() => {}));
    } catch {
      /* no worker (private mode, insecure origin): the app works online only */
    }
  }

  /** Asks the registration to look for a new /sw.js now. */
  async check(): Promise<void> {
    await this.#registration?.update().catch(() => {});
  }

  /**
   * Activates the waiting worker, then reloads when it has taken control — or when it reports
   * itself active, or after a few seconds at the latest: a person who clicked Reload gets one,
   * even if the browser never tells this page about the change.
   */
  apply(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    let reloaded = false;
    const reload = () => {
      if (reloaded) return;
      reloaded = true;
      location.reload();
    };
    navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
    waiting.addEventListener('statechange', () => waiting.state === 'activated' && reload());
    setTimeout(reload, RELOAD_FALLBACK_MS);
    waiting.postMessage({ type: 'SKIP_WAITING' });
  }
}

/** The longest a Reload waits for the new worker to take over. */
const RELOAD_FALLBACK_MS = 3000;

export const updates = new UpdateStore();
