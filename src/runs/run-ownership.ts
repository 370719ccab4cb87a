import type { LeaseStore } from '../ports/lease.js';
import type { JournalWriter } from './journal.js';

/** The lease that says which instance runs a session's turn. */
export const runLeaseKey = (sessionId: string) => `run:${sessionId}`;

export interface RunOwnershipOptions {
  leases: LeaseStore;
  /** This instance (the cluster's instanceId). */
  owner: string;
  /** How long a lease lasts without a renewal: an owner that died is taken over after this. */
  ttlMs?: number;
  /** Renewal period (well under the TTL, so one slow renewal does not lose the lease). */
  renewMs?: number;
  /** Told when a renewal failed with an error (a database blip); the lease is retried next period. */
  onError?: (err: unknown, sessionId: string) => void;
}

/**
 * One owner per session's turn across instances: a lease `run:<session_id>` taken when a turn
 * begins, renewed by a heartbeat and released at its end. When a renewal answers false another
 * instance has taken the turn over (this one was too slow or cut off), and `onLost` stops it:
 * from then on it must not write a single event. Runtime-free (setInterval only).
 */
export class RunOwnership {
  readonly owner: string;
  readonly ttlMs: number;
  readonly renewMs: number;
  #leases: LeaseStore;
  #held = new Map<string, { onLost: () => void; lost: boolean }>();
  #timer: ReturnType<typeof setInterval> | null = null;
  #onError: (err: unknown, sessionId: string) => void;

  constructor(options: RunOwnershipOptions) {
    this.#leases = options.leases;
    this.owner = options.owner;
    this.ttlMs = options.ttlMs ?? 6_000;
    this.renewMs = options.renewMs ?? Math.max(50, Math.floor(this.ttlMs / 3));
    this.#onError = options.onError ?? (() => {});
  }

  /** Takes the session's lease for this instance; false when another live instance holds it. */
  take(sessionId: string): Promise<boolean> {
    return this.#leases.acquire(runLeaseKey(sessionId), this.owner, this.ttlMs);
  }

  /** Keeps a taken lease renewed until `release`; `onLost` runs once if it is lost meanwhile. */
  hold(sessionId: string, onLost: () => void): void {
    this.#held.set(sessionId, { onLost, lost: false });
    this.#timer ??= setInterval(() => void this.#renewAll(), this.renewMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Gives the session's lease up (after its journal is closed, so a takeover finds it closed). */
  async release(sessionId: string): Promise<void> {
    const held = this.#held.get(sessionId);
    this.#held.delete(sessionId);
    if (!this.#held.size) this.#stopTimer();
    // A lost lease is someone else's now: releasing it would be a no-op at best.
    if (!held?.lost) await this.#leases.release(runLeaseKey(sessionId), this.owner);
  }

  /** The instance running the session's turn now (an expired lease: nobody). */
  async ownerOf(sessionId: string): Promise<string | null> {
    return (await this.#leases.holder(runLeaseKey(sessionId)))?.owner ?? null;
  }

  /** Whether this instance holds the session's lease and keeps it renewed. */
  holds(sessionId: string): boolean {
    const held = this.#held.get(sessionId);
    return !!held && !held.lost;
  }

  /** Stops renewing (shutdown): the leases expire and another instance takes the turns over. */
  stop(): void {
    this.#held.clear();
    this.#stopTimer();
  }

  async #renewAll(): Promise<void> {
    await Promise.all(
      [...this.#held].map(async ([sessionId, held]) => {
        if (held.lost) return;
        let kept: boolean;
        try {
          kept = await this.#leases.renew(runLeaseKey(sessionId), this.owner, this.ttlMs);
        } catch (err) {
          this.#onError(err, sessionId);
          return;
        }
        if (kept || held.lost || this.#held.get(sessionId) !== held) return;
        held.lost = true;
        held.onLost();
      }),
    );
  }

  #stopTimer(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

/**
 * A journal writer that goes silent once `fenced()` says so: a run whose lease was lost keeps
 * running for a moment (its model call is being aborted) and must not add a line to a journal
 * the new owner now writes.
 */
export function fencedWriter(writer: JournalWriter, fenced: () => boolean): JournalWriter {
  return {
    append: (event, json) => {
      if (!fenced()) writer.append(event, json);
    },
    commit: () => (fenced() ? undefined : writer.commit()),
    checkpoint: async (state) => {
      if (!fenced()) await writer.checkpoint(state);
    },
    flush: async () => {
      if (!fenced()) await writer.flush();
    },
    close: async () => {
      if (!fenced()) await writer.close();
    },
  };
}
