/// <reference lib="webworker" />
// Web Push in the service worker: show what the server pushed, answer an approval from the
// notification's buttons, lead a click to its session, and renew a subscription the browser
// replaced. Every handler works without the app being open.
import { notificationOptions, parsePushPayload, sessionOfUrl, type PushData } from '../src/shared/push-payload.js';

const CSRF_HEADER = 'X-Hermes-CSRF-Token';
const FAILED = 'Could not answer — open the app';

/**
 * A trusted event keeps the worker alive until `work` settles; a synthetic one (a test's
 * dispatchEvent) cannot call waitUntil, and the work runs all the same.
 */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>): void {
  const settled = work.catch(() => {});
  try {
    event.waitUntil(settled);
  } catch {
    /* not dispatched by the browser */
  }
}

/** A window of this app in front of the person and showing `sessionId`. */
async function watching(scope: ServiceWorkerGlobalScope, sessionId: string | undefined): Promise<boolean> {
  if (!sessionId) return false;
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.some((w) => w.focused && w.visibilityState === 'visible' && sessionOfUrl(w.url) === sessionId);
}

async function onPush(scope: ServiceWorkerGlobalScope, event: PushEvent): Promise<void> {
  let raw: unknown = null;
  try {
    raw = event.data?.json() ?? null;
  } catch {
    /* not JSON: not ours */
  }
  const payload = parsePushPayload(raw);
  if (!payload) return;
  // The person is looking at that very session (its card or answer is on screen): no popup.
  // Chrome demands a notification only when no window is visible, and one is.
  if (await watching(scope, payload.data.session_id)) return;
  await scope.registration.showNotification(payload.title, notificationOptions(payload));
}

/** The CSRF token of this browser's sign-in (null without a password), as the page's client asks for it. */
async function csrfToken(): Promise<string | null> {
  const res = await fetch('/api/auth/status', { credentials: 'include', cache: 'no-store' });
  if (!res.ok) throw new Error(`auth status ${res.status}`);
  const status = (await res.json()) as { csrf_token?: unknown };
  return typeof status.csrf_token === 'string' ? status.csrf_token : null;
}

async function post(path: string, body: unknown): Promise<Response> {
  const token = await csrfToken();
  return fetch(path, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', ...(token ? { [CSRF_HEADER]: token } : {}) },
    body: JSON.stringify(body),
  });
}

/** Answers exactly the approval the notification was sent for (never "whatever waits first"). */
async function answer(data: PushData, choice: 'once' | 'deny'): Promise<void> {
  const res = await post('/api/approval/respond', { session_id: data.session_id, approval_id: data.approval_id, choice });
  if (!res.ok) throw new Error(`respond ${res.status}`);
}

/** Focuses a window already on the session, else any window of the app (told to open it), else a new one. */
async function openSession(scope: ServiceWorkerGlobalScope, data: PushData): Promise<void> {
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const onIt = data.session_id ? windows.find((w) => sessionOfUrl(w.url) === data.session_id) : undefined;
  if (onIt) {
    await onIt.focus();
    return;
  }
  const any = windows[0];
  if (any) {
    const focused = await any.focus();
    // The page's listener (turn-alerts.ts) opens the session without a reload.
    focused.postMessage({ type: 'hermes-open-session', session_id: data.session_id ?? null, url: data.url });
    return;
  }
  await scope.clients.openWindow(data.url);
}

async function onClick(scope: ServiceWorkerGlobalScope, event: NotificationEvent): Promise<void> {
  const n = event.notification;
  const data = parsePushPayload({ title: n.title, body: n.body, tag: n.tag, data: n.data })?.data;
  n.close();
  if (!data) return;
  const choice = event.action === 'allow' ? 'once' : event.action === 'deny' ? 'deny' : null;
  if (choice && data.kind === 'approval' && data.session_id && data.approval_id) {
    try {
      await answer(data, choice);
    } catch {
      await scope.registration.showNotification(FAILED, { tag: n.tag, data });
    }
    return;
  }
  await openSession(scope, data);
}

/** The browser replaced (or dropped) the subscription: subscribe again with the same key and tell the server. */
async function onSubscriptionChange(scope: ServiceWorkerGlobalScope, event: PushSubscriptionChangeEvent): Promise<void> {
  const old = event.oldSubscription;
  let next = event.newSubscription;
  if (!next) {
    let key: BufferSource | string | null = old?.options.applicationServerKey ?? null;
    if (!key) {
      const res = await fetch('/api/push/vapid-public-key', { credentials: 'include' });
      key = ((await res.json()) as { public_key?: string }).public_key ?? null;
    }
    if (!key) return;
    next = await scope.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  await post('/api/push/subscribe', next.toJSON());
  if (old && old.endpoint !== next.endpoint) await post('/api/push/unsubscribe', { endpoint: old.endpoint }).catch(() => {});
}

export function installPush(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('push', (event) => keepAlive(event, onPush(scope, event)));
  scope.addEventListener('notificationclick', (event) => keepAlive(event, onClick(scope, event)));
  scope.addEventListener('pushsubscriptionchange', (event) => keepAlive(event, onSubscriptionChange(scope, event as PushSubscriptionChangeEvent)));
}
