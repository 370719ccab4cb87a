/**
 * What a Web Push message carries (the server's notifier sends it, the service worker shows it)
 * and the notification tags the page uses too, so a push and an in-page notification for the
 * same thing replace each other instead of both showing. No zod: the worker bundle takes it.
 */

export type PushKind = 'approval' | 'clarify' | 'turn' | 'task';

export interface PushData {
  kind: PushKind;
  session_id?: string;
  /** Only for `approval`: the one request the notification's actions may answer. */
  approval_id?: string;
  clarify_id?: string;
  job_id?: string;
  /** Where a click leads (same origin). */
  url: string;
}

export interface PushAction {
  action: string;
  title: string;
}

export interface PushPayload {
  title: string;
  body: string;
  tag: string;
  data: PushData;
  actions?: PushAction[];
}

/** An approval notification's buttons: the action names the worker answers. */
export const APPROVAL_ACTIONS: PushAction[] = [
  { action: 'allow', title: 'Allow once' },
  { action: 'deny', title: 'Deny' },
];

/** One tag per thing that can wait or finish: a session's approval, clarify, turn; a task's job. */
export function notificationTag(kind: PushKind, id: string): string {
  return `hermes-${kind}-${id}`;
}

/** The page's address for a session (the app's router reads `/session/<id>`). */
export function sessionUrl(sessionId: string): string {
  return `/session/${encodeURIComponent(sessionId)}`;
}

const KINDS: readonly string[] = ['approval', 'clarify', 'turn', 'task'];
const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined);

/**
 * A push message's JSON, checked field by field (it comes over the network): null when it is
 * not one of ours. A `url` that is not a same-origin path becomes the session's or `/`; the
 * actions are ours (Allow once, Deny) on an approval with its id, none on anything else.
 */
export function parsePushPayload(raw: unknown): PushPayload | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const d = (r.data && typeof r.data === 'object' ? r.data : {}) as Record<string, unknown>;
  const title = str(r.title, 200);
  const kind = str(d.kind, 20);
  if (!title || !kind || !KINDS.includes(kind)) return null;
  const session_id = str(d.session_id, 128);
  const approval_id = str(d.approval_id, 64);
  const path = str(d.url, 2000);
  const url = path?.startsWith('/') && !path.startsWith('//') ? path : session_id ? sessionUrl(session_id) : '/';
  const data: PushData = { kind: kind as PushKind, url, ...(session_id ? { session_id } : {}), ...(approval_id ? { approval_id } : {}) };
  // Only the buttons this worker answers, and only where there is one approval to answer.
  const actions = data.kind === 'approval' && approval_id ? APPROVAL_ACTIONS : undefined;
  return {
    title,
    // A long command preview is cut here rather than refused.
    body: typeof r.body === 'string' ? r.body.slice(0, 2000) : '',
    tag: str(r.tag, 200) ?? notificationTag(data.kind, session_id ?? 'app'),
    data,
    ...(actions ? { actions } : {}),
  };
}

/** A notification's options for a payload: the same from a push and from the page. */
export function notificationOptions(p: PushPayload): NotificationOptions & { actions?: PushAction[] } {
  return { body: p.body, tag: p.tag, data: p.data, icon: '/icons/icon-192.png', ...(p.actions ? { actions: p.actions } : {}) };
}

/** The session a client's URL shows (`/session/<id>`), or null. */
export function sessionOfUrl(url: string): string | null {
  const m = /^\/session\/([^/?#]+)/.exec(new URL(url, 'http://x').pathname);
  return m ? decodeURIComponent(m[1] as string) : null;
}
