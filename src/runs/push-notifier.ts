import type { AppEvent, AppEvents } from './app-events.js';
import type { Logger } from '../ports/platform.js';
import type { PushMessage, PushService, PushSubscriptionRecord, PushUrgency } from '../ports/push.js';
import type { SessionStore } from '../ports/session-store.js';
import type { SettingsStore } from '../ports/settings-store.js';
import { presenter } from '../http/redaction.js';
import { messageText } from '../domain/session-rows.js';
import { cutBeforeToken } from '../shared/redact.js';
import { DEFAULT_PROFILE } from '../ports/hermes-home.js';
import { toBase64Url } from '../domain/push/vapid.js';
// One payload shape and tag scheme with the service worker and the page.
import { APPROVAL_ACTIONS, notificationTag, sessionUrl, type PushPayload } from '../shared/push-payload.js';

/** Push services take 4 KB; the JSON stays well under it (the command preview is cut first). */
export const MAX_PAYLOAD_BYTES = 3000;
const PREVIEW_CHARS = 180;
const COMMAND_CHARS = 1500;

export interface PushNotifierDeps {
  events: AppEvents;
  push: PushService;
  sessions: Pick<SessionStore, 'get'>;
  /** `api_redact_enabled`: the answer preview and titles are redacted as the API would show them. */
  settings: SettingsStore;
  logger: Logger;
}

/** Cut to `max` characters (before a word the cut would split) with an ellipsis when something was left out. */
function preview(text: string, max: number): string {
  const flat = text.trim();
  if (flat.length <= max) return flat;
  return `${cutBeforeToken(flat, max - 1)}…`;
}

/**
 * Sends Web Push for what a person may want to hear about with the app closed: an approval or a
 * question waiting, a turn finished, a task run finished — to every browser subscribed in the
 * session's profile. Pushed whether or not a tab is visible: the service worker knows, and
 * shows nothing when the session is on screen. Work starts after the emitter's turn and never
 * throws into it; a subscription the push service says is gone (404/410) is removed, other
 * failures are logged once per subscription until it works again.
 *
 * Nothing secret is sent: an approval carries the command exactly as the approval card shows it
 * (cut to fit), a question its text, a finished turn the session's title and a short preview of
 * the answer, both redacted by the API's rules; never tool output, environment or keys.
 */
export class PushNotifier {
  #pending = new Set<Promise<void>>();
  #failing = new Set<string>();
  /** Who started each running turn (turn_started's source), so task and subagent turns are not announced as chats. */
  #sources = new Map<string, string>();
  #off: () => void;

  constructor(private readonly deps: PushNotifierDeps) {
    this.#off = deps.events.on((event) => this.#hear(event));
  }

  stop(): void {
    this.#off();
  }

  /** Resolves when every send begun so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }

  #hear(event: AppEvent): void {
    // Another instance's event: that instance sends the push (once, whichever instance hears it).
    if (event.origin) return;
    if (event.type === 'turn_started') {
      this.#sources.set(event.stream_id, event.source);
      return;
    }
    if (event.type === 'turn_finished') {
      const source = this.#sources.get(event.stream_id);
      this.#sources.delete(event.stream_id);
      if (event.status !== 'completed' || (source && source !== 'webui')) return;
    }
    if (event.type !== 'approval_waiting' && event.type !== 'clarify_waiting' && event.type !== 'turn_finished' && event.type !== 'task_finished') return;
    const work = this.#announce(event).catch((err) => this.deps.logger.error({ msg: 'web push failed', event: event.type, error: String(err) }));
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  async #announce(event: AppEvent): Promise<void> {
    // Let the emitter's turn finish first: a push never holds up the run that caused it.
    await Promise.resolve();
    const built = await this.#build(event);
    if (!built) return;
    const subscriptions = await this.deps.push.store.list(built.profile);
    if (!subscriptions.length) return;
    const vapid = await this.deps.push.store.vapidKeys();
    const message = await toMessage(built.payload, built.urgency, built.ttl);
    await Promise.all(subscriptions.map((s) => this.#send(s, message, vapid)));
  }

  async #build(event: AppEvent): Promise<{ profile: string; payload: PushPayload; urgency: PushUrgency; ttl: number } | null> {
    if (event.type === 'task_finished') {
      const ok = event.status === 'ok';
      return {
        profile: event.profile,
        urgency: 'normal',
        ttl: 86_400,
        payload: {
          title: ok ? `Task finished: ${preview(event.job_name, 80)}` : `Task failed: ${preview(event.job_name, 80)}`,
          body: ok ? 'The scheduled run completed.' : 'The scheduled run ended with an error.',
          tag: notificationTag('task', event.job_id),
          data: {
            kind: 'task',
            job_id: event.job_id,
            url: event.session_id ? sessionUrl(event.session_id) : '/panel/tasks',
            ...(event.session_id ? { session_id: event.session_id } : {}),
          },
        },
      };
    }
    if (event.type !== 'approval_waiting' && event.type !== 'clarify_waiting' && event.type !== 'turn_finished') return null;
    const session = await this.deps.sessions.get(event.session_id);
    if (!session) return null;
    const profile = typeof session.profile === 'string' && session.profile ? session.profile : DEFAULT_PROFILE;
    const sid = event.session_id;
    const present = await presenter(this.deps.settings);
    if (event.type === 'approval_waiting') {
      const p = event.pending;
      return {
        profile,
        urgency: 'high',
        // An approval not answered soon has timed out; a late notification would only mislead.
        ttl: 600,
        payload: {
          title: 'Approval needed',
          // The card shows the command as it is (approval commands are not redacted there either).
          body: preview(p.command, COMMAND_CHARS),
          tag: notificationTag('approval', sid),
          data: { kind: 'approval', session_id: sid, approval_id: p.approval_id, url: sessionUrl(sid) },
          actions: APPROVAL_ACTIONS,
        },
      };
    }
    if (event.type === 'clarify_waiting') {
      return {
        profile,
        urgency: 'high',
        ttl: Math.max(60, event.pending.timeout_seconds),
        payload: {
          title: 'Hermes has a question',
          body: present(preview(event.pending.question, 500)),
          tag: notificationTag('clarify', sid),
          data: { kind: 'clarify', session_id: sid, clarify_id: event.pending.clarify_id, url: sessionUrl(sid) },
        },
      };
    }
    const answer = [...session.messages].reverse().find((m) => m.role === 'assistant' && messageText(m).trim());
    return {
      profile,
      urgency: 'normal',
      ttl: 86_400,
      payload: {
        title: present(preview(session.title || 'Untitled', 80)),
        body: answer ? present(preview(messageText(answer).replace(/\s+/g, ' '), PREVIEW_CHARS)) : 'The turn finished.',
        tag: notificationTag('turn', sid),
        data: { kind: 'turn', session_id: sid, url: sessionUrl(sid) },
      },
    };
  }

  async #send(subscription: PushSubscriptionRecord, message: PushMessage, vapid: Awaited<ReturnType<PushService['store']['vapidKeys']>>): Promise<void> {
    const result = await this.deps.push.sender.send(subscription, message, vapid);
    if (result.kind === 'status' && result.status >= 200 && result.status < 300) {
      this.#failing.delete(subscription.endpoint);
      return;
    }
    if (result.kind === 'status' && (result.status === 404 || result.status === 410)) {
      // The browser unsubscribed or the push service expired it: it will never work again.
      await this.deps.push.store.remove(subscription.endpoint);
      this.#failing.delete(subscription.endpoint);
      this.deps.logger.info({ msg: 'web push subscription expired; removed', status: result.status, browser: subscription.user_agent });
      return;
    }
    if (this.#failing.has(subscription.endpoint)) return;
    this.#failing.add(subscription.endpoint);
    const why = result.kind === 'status' ? `push service answered ${result.status}` : result.kind === 'refused' ? result.reason : result.error;
    this.deps.logger.error({ msg: 'web push not delivered', reason: why, browser: subscription.user_agent, origin: originOf(subscription.endpoint) });
  }
}

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid';
  }
}

/** The payload as JSON under the size cap, with an RFC 8030 Topic derived from its tag (≤ 32 URL-safe characters). */
async function toMessage(payload: PushPayload, urgency: PushUrgency, ttl: number): Promise<PushMessage> {
  let text = JSON.stringify(payload);
  const encoder = new TextEncoder();
  // Multi-byte text can still pass the cap after the character cut: shorten the body until it fits.
  while (encoder.encode(text).length > MAX_PAYLOAD_BYTES && payload.body.length > 1) {
    payload = { ...payload, body: `${payload.body.slice(0, Math.floor(payload.body.length * 0.75)).trimEnd()}…` };
    text = JSON.stringify(payload);
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(payload.tag)));
  return { payload: text, urgency, ttl, topic: toBase64Url(digest).slice(0, 32) };
}
