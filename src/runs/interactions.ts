import type { ApprovalChoice, ApprovalRequest } from '../agent/tools/types.js';
import { Conflict, NotFound } from '../ports/errors.js';
import type { AppEvents } from './app-events.js';

export interface PendingApproval extends ApprovalRequest {
  approval_id: string;
  run_id: string;
  session_id: string;
  choices: ApprovalChoice[];
  allow_permanent: boolean;
  requested_at: number;
}

export interface PendingClarify {
  clarify_id: string;
  session_id: string;
  question: string;
  choices_offered: string[];
  kind: 'clarify';
  requested_at: number;
  timeout_seconds: number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
}

const CHOICES: ApprovalChoice[] = ['once', 'session', 'always', 'deny'];

/** What a run hears back: a person's choice, or `timeout` when nobody answered (never taken as consent). */
export type ApprovalAnswer = ApprovalChoice | 'timeout';

/**
 * Questions a run is waiting on a person for (approvals, clarifications), per session and in
 * order, plus what the person granted for the session (approved pattern keys, "yolo").
 * Kept in memory on purpose: a restart forgets every grant, so nothing stays approved by accident.
 */
export class InteractionHub {
  #approvals = new Map<string, Array<Waiting<PendingApproval, ApprovalAnswer>>>();
  #clarifies = new Map<string, Array<Waiting<PendingClarify, string | null>>>();
  #sessionApproved = new Map<string, Set<string>>();
  #yolo = new Set<string>();

  /** `events` hears each question as it starts waiting and when it stops (answered, timed out, aborted). */
  constructor(
    private readonly now: () => number,
    private readonly events?: AppEvents,
  ) {}

  /**
   * Queues an approval and waits for the answer. Resolves `timeout` when the timeout passes and
   * rejects when the run is aborted (the queue entry is removed either way).
   */
  requestApproval(
    sessionId: string,
    runId: string,
    request: ApprovalRequest,
    timeoutMs: number,
    signal: AbortSignal,
    /** What the card offers (a file edit has no "always": that would be a config change). */
    choices: ApprovalChoice[] = CHOICES,
  ): { pending: PendingApproval; answer: Promise<ApprovalAnswer> } {
    const pending: PendingApproval = {
      ...request,
      approval_id: crypto.randomUUID().replace(/-/g, '').slice(0, 16),
      run_id: runId,
      session_id: sessionId,
      choices,
      allow_permanent: choices.includes('always'),
      requested_at: this.now(),
    };
    const answer = this.#wait<PendingApproval, ApprovalAnswer>(this.#approvals, sessionId, pending, timeoutMs, signal, 'timeout', () =>
      this.events?.emit({ type: 'attention_resolved', session_id: sessionId, kind: 'approval', id: pending.approval_id }),
    );
    this.events?.emit({ type: 'approval_waiting', session_id: sessionId, pending });
    return { pending, answer };
  }

  requestClarify(
    sessionId: string,
    question: string,
    choices: string[],
    timeoutMs: number,
    signal: AbortSignal,
  ): { pending: PendingClarify; answer: Promise<string | null> } {
    const pending: PendingClarify = {
      clarify_id: crypto.randomUUID().replace(/-/g, '').slice(0, 16),
      session_id: sessionId,
      question,
      choices_offered: choices,
      kind: 'clarify',
      requested_at: this.now(),
      timeout_seconds: Math.round(timeoutMs / 1000),
    };
    const answer = this.#wait(this.#clarifies, sessionId, pending, timeoutMs, signal, null, () =>
      this.events?.emit({ type: 'attention_resolved', session_id: sessionId, kind: 'clarify', id: pending.clarify_id }),
    );
    this.events?.emit({ type: 'clarify_waiting', session_id: sessionId, pending });
    return { pending, answer };
  }

  pendingApproval(sessionId: string): { pending: PendingApproval | null; pending_count: number } {
    const queue = this.#approvals.get(sessionId) ?? [];
    return { pending: queue[0]?.item ?? null, pending_count: queue.length };
  }

  pendingClarify(sessionId: string): PendingClarify | null {
    return this.#clarifies.get(sessionId)?.[0]?.item ?? null;
  }

  /** Answers the approval with `approvalId`, or the oldest one when no id is given. */
  respondApproval(sessionId: string, choice: ApprovalChoice, approvalId?: string): PendingApproval {
    const queue = this.#approvals.get(sessionId) ?? [];
    const at = approvalId ? queue.findIndex((w) => w.item.approval_id === approvalId) : 0;
    const waiting = queue[at];
    if (!waiting) throw new NotFound(approvalId ? 'Approval request not found (it may have expired)' : 'No pending approval');
    queue.splice(at, 1);
    if (choice === 'session' || choice === 'always') {
      const granted = this.#sessionApproved.get(sessionId) ?? new Set<string>();
      for (const key of waiting.item.pattern_keys) granted.add(key);
      this.#sessionApproved.set(sessionId, granted);
    }
    waiting.resolve(choice);
    return waiting.item;
  }

  respondClarify(sessionId: string, answer: string, clarifyId?: string): PendingClarify {
    const queue = this.#clarifies.get(sessionId) ?? [];
    const at = clarifyId ? queue.findIndex((w) => w.item.clarify_id === clarifyId) : 0;
    const waiting = queue[at];
    if (!waiting) throw new Conflict('Clarification prompt expired or was already answered', { ok: false, stale: true });
    queue.splice(at, 1);
    waiting.resolve(answer);
    return waiting.item;
  }

  sessionApproved(sessionId: string): ReadonlySet<string> {
    return this.#sessionApproved.get(sessionId) ?? new Set();
  }

  isYolo(sessionId: string): boolean {
    return this.#yolo.has(sessionId);
  }

  /** Turning yolo on also lets every approval now waiting in that session run once. */
  setYolo(sessionId: string, enabled: boolean): void {
    if (!enabled) {
      this.#yolo.delete(sessionId);
      return;
    }
    this.#yolo.add(sessionId);
    const queue = this.#approvals.get(sessionId) ?? [];
    this.#approvals.delete(sessionId);
    for (const w of queue) w.resolve('once');
  }

  /** Forgets a session (deleted). */
  forget(sessionId: string): void {
    this.#sessionApproved.delete(sessionId);
    this.#yolo.delete(sessionId);
  }

  #wait<T, R>(
    map: Map<string, Array<Waiting<T, R>>>,
    sessionId: string,
    item: T,
    timeoutMs: number,
    signal: AbortSignal,
    onTimeout: R,
    onSettled: () => void,
  ): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = map.get(sessionId) ?? [];
      map.set(sessionId, queue);
      const remove = () => {
        const at = queue.indexOf(waiting);
        if (at >= 0) queue.splice(at, 1);
        if (!queue.length) map.delete(sessionId);
      };
      const timer = setTimeout(() => {
        remove();
        resolve(onTimeout);
        onSettled();
      }, timeoutMs);
      const onAbort = () => {
        clearTimeout(timer);
        remove();
        reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
        onSettled();
      };
      const waiting: Waiting<T, R> = {
        item,
        resolve: (value) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(value);
          onSettled();
        },
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(waiting);
    });
  }
}
