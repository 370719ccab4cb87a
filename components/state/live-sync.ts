import { apiLinkUrl } from '../api/client.js';
import { emit } from '../events.js';
import type { SessionsChanged } from '../../src/shared/live-events.js';

const MIN_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/**
 * The app's one connection to `GET /api/sessions/events`: each `sessions_changed` frame becomes
 * the window event `hermes-sessions-changed` (the sidebar refetches; tasks and notifications
 * listen). EventSource resumes a dropped stream itself (Last-Event-ID); when it gives up, this
 * reconnects with backoff. Offline it waits for `online`; a tab coming back into view reconnects
 * at once. After any reconnect one change with no session is announced: changes may have been
 * missed, so the list is fetched again.
 */
export class LiveSync {
  #source: EventSource | null = null;
  #retryMs = MIN_RETRY_MS;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #dropped = false;
  #running = false;

  start(): void {
    if (this.#running || typeof EventSource === 'undefined') return;
    this.#running = true;
    window.addEventListener('online', this.#wake);
    window.addEventListener('offline', this.#pause);
    document.addEventListener('visibilitychange', this.#onVisibility);
    if (navigator.onLine !== false) this.#connect();
  }

  stop(): void {
    this.#running = false;
    window.removeEventListener('online', this.#wake);
    window.removeEventListener('offline', this.#pause);
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#close();
  }

  /** True while the stream is open or connecting. */
  get connected(): boolean {
    return this.#source !== null;
  }

  #connect(): void {
    if (!this.#running || this.#source) return;
    this.#clearTimer();
    const source = new EventSource(apiLinkUrl('/api/sessions/events'));
    this.#source = source;
    source.onopen = () => {
      this.#retryMs = MIN_RETRY_MS;
      if (!this.#dropped) return;
      this.#dropped = false;
      this.#announce({ type: 'sessions_changed', reason: 'session_update' });
    };
    source.addEventListener('sessions_changed', (e) => {
      if (this.#source !== source) return;
      try {
        const change = JSON.parse((e as MessageEvent<string>).data) as SessionsChanged;
        if (change && typeof change.reason === 'string') this.#announce(change);
      } catch {
        /* a malformed frame says nothing */
      }
    });
    source.onerror = () => {
      if (this.#source !== source) return;
      this.#dropped = true;
      // CONNECTING: the browser is already retrying (and resumes with Last-Event-ID).
      if (source.readyState !== EventSource.CLOSED) return;
      this.#close();
      this.#schedule();
    };
  }

  #announce(change: SessionsChanged): void {
    emit(window, 'hermes-sessions-changed', change);
  }

  #schedule(): void {
    if (!this.#running || this.#timer || navigator.onLine === false) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs * 2);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#connect();
    }, wait);
  }

  #close(): void {
    this.#source?.close();
    this.#source = null;
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #wake = () => {
    this.#retryMs = MIN_RETRY_MS;
    this.#connect();
  };

  #pause = () => {
    if (this.#source) this.#dropped = true;
    this.#clearTimer();
    this.#close();
  };

  #onVisibility = () => {
    if (document.visibilityState === 'visible' && !this.#source && navigator.onLine !== false) this.#wake();
  };
}
