import { api, type PendingApproval, type PendingClarify } from '../api/client.js';

/** What answering a pending approval or clarify needs of the chat store. */
export interface AnswerHost {
  readonly sessionId: string | null;
  approval: (PendingApproval & { pending_count: number }) | null;
  clarify: PendingClarify | null;
  error: string | null;
  /** Tells the view (the store's `changed`). */
  notify(): void;
}

/** The approval card's choice: the card goes at once; the next pending approval, if any, comes up. */
export async function answerApproval(host: AnswerHost, choice: 'once' | 'session' | 'always' | 'deny'): Promise<void> {
  const a = host.approval;
  const sid = host.sessionId;
  if (!a || !sid) return;
  host.approval = null;
  host.notify();
  try {
    await api.respondApproval(sid, choice, a.approval_id);
    const next = await api.pendingApproval(sid);
    host.approval = next.pending ? { ...next.pending, pending_count: next.pending_count } : null;
  } catch (err) {
    host.error = (err as Error).message;
  }
  host.notify();
}

/** The clarify card's answer: the card goes at once; a failure shows as the chat's error. */
export async function answerClarify(host: AnswerHost, answer: string): Promise<void> {
  const c = host.clarify;
  const sid = host.sessionId;
  if (!c || !sid) return;
  host.clarify = null;
  host.notify();
  try {
    await api.respondClarify(sid, answer, c.clarify_id);
  } catch (err) {
    host.error = (err as Error).message;
    host.notify();
  }
}
