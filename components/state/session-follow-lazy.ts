import type { FollowedChat, SessionFollow } from './session-follow.js';

/**
 * The open session's live channel, loaded on first use (out of the shell): `watch` and `close`
 * as SessionFollow's, remembered until the module is there.
 */
export class LazySessionFollow {
  #follow: SessionFollow | null = null;
  #wanted: string | null = null;
  #loading: Promise<void> | null = null;

  constructor(private readonly chat: FollowedChat) {}

  watch(sessionId: string | null): void {
    this.#wanted = sessionId;
    if (this.#follow) {
      this.#follow.watch(sessionId);
      return;
    }
    if (!sessionId) return;
    this.#loading ??= import('./session-follow.js')
      .then(({ SessionFollow }) => {
        this.#follow = new SessionFollow(this.chat);
        this.#follow.watch(this.#wanted);
      })
      .catch(() => {
        this.#loading = null;
      });
  }

  close(): void {
    this.#wanted = null;
    this.#follow?.close();
  }
}
