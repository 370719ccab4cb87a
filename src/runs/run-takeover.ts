import { CLOSING_EVENTS } from './events.js';
import type { Logger } from '../ports/platform.js';
import type { RunRegistry } from './registry.js';
import type { RunOwnership } from './run-ownership.js';

/**
 * Carries on (or closes) one interrupted turn, with this instance holding its lease: the resumer
 * (src/runs/resume-turn.ts) where the turn can be resumed, else recovery's interruption notice.
 */
export type TakeOver = (sessionId: string, streamId: string) => Promise<'resumed' | 'closed' | 'skipped'>;

export interface RunTakeoverOptions {
  registry: RunRegistry;
  ownership: RunOwnership;
  takeOver: TakeOver;
  logger: Logger;
  /** How often the journals are looked at (the owner's TTL plus this bounds a takeover). */
  periodMs?: number;
}

/**
 * Every instance looks every ~2 s for journals still open whose run lease nobody holds (their
 * owner died, or stopped renewing), takes the lease and carries the turn on. A turn another live
 * instance holds is never touched, so this is also what runs at start instead of closing them all.
 */
export class RunTakeover {
  #options: RunTakeoverOptions;
  #timer: ReturnType<typeof setInterval> | null = null;
  #sweeping: Promise<string[]> | null = null;

  constructor(options: RunTakeoverOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.sweep(), this.#options.periodMs ?? 2_000);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One look (one at a time): returns the sessions taken over. */
  sweep(): Promise<string[]> {
    this.#sweeping ??= this.#sweep().finally(() => {
      this.#sweeping = null;
    });
    return this.#sweeping;
  }

  async #sweep(): Promise<string[]> {
    const { registry, ownership, takeOver, logger } = this.#options;
    const open = await registry.journal.unclosed().catch((err) => {
      logger.error({ msg: 'could not list open run journals', error: String(err) });
      return [];
    });
    const taken: string[] = [];
    for (const { sessionId, streamId } of open) {
      if (registry.get(streamId) || registry.activeFor(sessionId)) continue;
      try {
        if ((await ownership.ownerOf(sessionId)) !== null || !(await ownership.take(sessionId))) continue;
        // Read again with the lease held: the owner may have closed it just before its lease ran out.
        const last = (await registry.journal.read(streamId, sessionId))?.events.at(-1);
        if (last && CLOSING_EVENTS.has(last.event)) continue;
        logger.info({ msg: 'taking over a turn whose server stopped', session_id: sessionId, stream_id: streamId, instance: ownership.owner });
        if ((await takeOver(sessionId, streamId)) !== 'skipped') taken.push(sessionId);
      } catch (err) {
        logger.error({ msg: 'taking over a turn failed', session_id: sessionId, stream_id: streamId, error: String(err) });
      } finally {
        // A resumed turn holds the lease as its own run now; anything else lets it go.
        if (!registry.activeFor(sessionId)) await ownership.release(sessionId).catch(() => {});
      }
    }
    return taken;
  }
}
