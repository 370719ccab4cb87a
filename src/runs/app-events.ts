import type { PendingApproval, PendingClarify } from './interactions.js';
import type { SessionsChangedReason } from '../shared/live-events.js';

/**
 * What happened in this server that someone outside the request may want to hear about: the
 * live channels (sidebar sync, a session's stream), notifications (Web Push) and the scheduler.
 * Emitted where it happens; listeners look up what else they need (a session's profile).
 */
export type AppEvent = (
  | { type: 'sessions_changed'; reason: SessionsChangedReason; session_id?: string; profile?: string }
  | { type: 'turn_started'; session_id: string; stream_id: string; pending_started_at: number; source: string }
  | { type: 'turn_finished'; session_id: string; stream_id: string; status: 'running' | 'completed' | 'cancelled' | 'errored' }
  | { type: 'approval_waiting'; session_id: string; pending: PendingApproval }
  | { type: 'clarify_waiting'; session_id: string; pending: PendingClarify }
  | { type: 'attention_resolved'; session_id: string; kind: 'approval' | 'clarify'; id: string }
  | {
      type: 'task_finished';
      profile: string;
      job_id: string;
      job_name: string;
      session_id: string | null;
      status: 'ok' | 'error';
      /** The run's output file under `cron/output/<job_id>/`. */
      output_file: string | null;
      finished_at: number;
    }
) & {
  /**
   * The instance it happened on, when that is another one (Postgres: the cluster re-emits it
   * here). Absent: it happened in this process. Remote events are not published again, and
   * only the instance where it happened sends Web Push for it.
   */
  origin?: string;
};

export type AppEventListener = (event: AppEvent) => void;

/**
 * One in-process bus. Listeners run synchronously in the emitter's turn and must not block;
 * one that throws is reported and the others still hear the event.
 */
export class AppEvents {
  #listeners = new Set<AppEventListener>();

  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  /** Adds a listener; the returned function removes it. */
  on(listener: AppEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: AppEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }
}
