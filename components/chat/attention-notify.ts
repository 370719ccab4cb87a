/**
 * In-page notifications for what waits or finishes while the tab is out of sight: an approval
 * or a clarifying question (this tab's chat or any other session), a task run that completed.
 * Loaded on first need by turn-alerts.ts. Each notification uses the tag a Web Push for the same
 * thing carries (src/shared/push-payload.ts), so the two replace each other instead of both
 * showing; through the service worker when there is one, so Allow once / Deny work here too.
 */
import { msg, str } from '@lit/localize';
import { api, request, type PendingApproval, type PendingClarify } from '../api/client.js';
import { APPROVAL_ACTIONS, notificationOptions, notificationTag, sessionUrl, type PushPayload } from '../../src/shared/push-payload.js';

/** What was already shown, so a re-render or a second event for the same request stays quiet. */
const shown = new Set<string>();
/** Task runs completed after this (epoch seconds) are news; the page's start to begin with. */
let taskSince = Date.now() / 1000;

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

export function approvalPayload(sessionId: string, p: PendingApproval, bot: string): PushPayload {
  return {
    title: msg(str`${bot}: approval needed`),
    body: clip(p.description ? `${p.description}: ${p.command}` : p.command, 180),
    tag: notificationTag('approval', sessionId),
    data: { kind: 'approval', session_id: sessionId, approval_id: p.approval_id, url: sessionUrl(sessionId) },
    actions: APPROVAL_ACTIONS,
  };
}

export function clarifyPayload(sessionId: string, p: PendingClarify, bot: string): PushPayload {
  return {
    title: msg(str`${bot} has a question`),
    body: clip(p.question, 180),
    tag: notificationTag('clarify', sessionId),
    data: { kind: 'clarify', session_id: sessionId, url: sessionUrl(sessionId) },
  };
}

/** One entry of GET /api/crons/recent (the incumbent's shape). */
export interface TaskCompletion {
  job_id: string;
  name: string;
  status: string;
  completed_at: number;
  session_id?: string;
  toast_notifications?: boolean;
}

export function taskPayload(c: TaskCompletion): PushPayload {
  const ok = c.status === 'ok' || c.status === 'success';
  const name = clip(c.name || msg('Scheduled task'), 80);
  return {
    title: ok ? msg(str`Task finished: ${name}`) : msg(str`Task failed: ${name}`),
    body: ok ? msg('Open it to read the output.') : msg(str`Last status: ${c.status}`),
    tag: notificationTag('task', c.job_id),
    data: { kind: 'task', ...(c.session_id ? { session_id: c.session_id } : {}), url: c.session_id ? sessionUrl(c.session_id) : '/panel/tasks' },
  };
}

/**
 * Shows `p` once per `key`: through the service worker (the same notification a push would
 * be, buttons included), else as a page notification whose click focuses the tab and calls `open`.
 */
export async function show(key: string, p: PushPayload, open: (sessionId: string | null) => void): Promise<void> {
  if (shown.has(key) || !('Notification' in window) || Notification.permission !== 'granted') return;
  shown.add(key);
  const reg = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/').catch(() => undefined) : undefined;
  if (reg?.active) {
    await reg.showNotification(p.title, notificationOptions(p));
    return;
  }
  try {
    const n = new Notification(p.title, { body: p.body, tag: p.tag, data: p.data });
    n.onclick = () => {
      window.focus();
      open(p.data.session_id ?? null);
      n.close();
    };
  } catch {
    /* some browsers only allow notifications from a service worker: none then */
  }
}

/** The open chat's approval or question (the chat store has it already). */
export function notifyPending(
  sessionId: string,
  pending: { approval?: PendingApproval | null; clarify?: PendingClarify | null },
  bot: string,
  open: (sid: string | null) => void,
) {
  if (pending.approval) return show(`a:${pending.approval.approval_id}`, approvalPayload(sessionId, pending.approval, bot), open);
  if (pending.clarify) return show(`c:${pending.clarify.clarify_id}`, clarifyPayload(sessionId, pending.clarify, bot), open);
  return Promise.resolve();
}

/** Another session waits on a person (live sync's `attention_pending`): ask what it waits on. */
export async function notifyAttention(sessionId: string, bot: string, open: (sid: string | null) => void): Promise<void> {
  const { pending } = await api.pendingApproval(sessionId);
  if (pending) return show(`a:${pending.approval_id}`, approvalPayload(sessionId, pending, bot), open);
  const clarify = (await api.pendingClarify(sessionId)).pending;
  if (clarify) await show(`c:${clarify.clarify_id}`, clarifyPayload(sessionId, clarify, bot), open);
}

/** A task run completed (live sync's `cron_complete`): each completion since the last look, once. */
export async function notifyTasks(open: (sid: string | null) => void): Promise<void> {
  const { completions } = await request<{ completions: TaskCompletion[] }>('GET', `/api/crons/recent?since=${taskSince}`);
  for (const c of completions) {
    taskSince = Math.max(taskSince, c.completed_at);
    if (c.toast_notifications === false) continue;
    await show(`t:${c.job_id}:${c.completed_at}`, taskPayload(c), open);
  }
}
