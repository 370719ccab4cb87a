import type { ServerTurnStarted, SessionsChanged } from '../shared/live-events.js';
import type { AppEvent, AppEvents } from './app-events.js';

const utf8 = new TextEncoder();
const KEEPALIVE = utf8.encode(': keepalive\n\n');

/** A connected SSE client: bytes go to `send`; `profile` filters `sessions_changed`. */
export interface LiveClient {
  send(bytes: Uint8Array): void;
}

export interface LiveHubOptions {
  events: AppEvents;
  /** A session's stored message count (null: unknown session), for `session-updated` after a turn. */
  messageCount: (sessionId: string) => Promise<number | null>;
  /** One window per reason + session: the first change goes at once, more inside it once at its end. */
  coalesceMs?: number;
  heartbeatMs?: number;
  /** Frames kept for a reconnect's Last-Event-ID. */
  ringSize?: number;
  onError?: (err: unknown) => void;
}

interface Sent {
  seq: number;
  profile: string | undefined;
  bytes: Uint8Array;
}

interface Pending {
  change: SessionsChanged;
  timer: ReturnType<typeof setTimeout> | null;
  /** A change arrived inside the window: send the newest when it closes. */
  again: boolean;
}

function unref(timer: unknown) {
  (timer as { unref?: () => void }).unref?.();
}

function frame(event: string, data: unknown, id?: string): Uint8Array {
  return utf8.encode(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The live channels' one listener on the bus. `sessions_changed` is coalesced, numbered
 * (`<boot>:<seq>`, so an id from before a restart is recognised), kept in a small ring for
 * Last-Event-ID and sent, encoded once, to every list client of its profile. A session's
 * clients hear turns starting and ending there. One heartbeat timer serves every client and
 * runs only while there are any: an idle client costs its socket and one set entry.
 */
export class LiveHub {
  readonly boot = Math.floor(Date.now()).toString(36);
  #seq = 0;
  #ring: Sent[] = [];
  #lists = new Map<LiveClient, string>();
  #sessions = new Map<string, Set<LiveClient>>();
  #pending = new Map<string, Pending>();
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #coalesceMs: number;
  #heartbeatMs: number;
  #ringSize: number;

  constructor(private readonly options: LiveHubOptions) {
    this.#coalesceMs = options.coalesceMs ?? 100;
    this.#heartbeatMs = options.heartbeatMs ?? 25_000;
    this.#ringSize = options.ringSize ?? 256;
    options.events.on((event) => this.#hear(event));
  }

  /** List and session clients connected now. */
  get clientCount(): number {
    let n = this.#lists.size;
    for (const set of this.#sessions.values()) n += set.size;
    return n;
  }

  /**
   * Adds a session-list client for `profile`; frames after `lastEventId` (one of ours, still in
   * the ring) are replayed first. Returns the function that removes it.
   */
  addListClient(client: LiveClient, profile: string, lastEventId: string | undefined): () => void {
    for (const sent of this.#replayAfter(lastEventId)) if (this.#matches(sent.profile, profile)) client.send(sent.bytes);
    this.#lists.set(client, profile);
    this.#startHeartbeat();
    return () => {
      this.#lists.delete(client);
      this.#stopHeartbeatIfIdle();
    };
  }

  /** Adds a client of one session's channel; returns the function that removes it. */
  addSessionClient(sessionId: string, client: LiveClient): () => void {
    let set = this.#sessions.get(sessionId);
    if (!set) this.#sessions.set(sessionId, (set = new Set()));
    set.add(client);
    this.#startHeartbeat();
    return () => {
      const clients = this.#sessions.get(sessionId);
      clients?.delete(client);
      if (clients && !clients.size) this.#sessions.delete(sessionId);
      this.#stopHeartbeatIfIdle();
    };
  }

  /** Frames for a session channel (`initial`, `server_turn_started`, `session-updated`). */
  static frame(event: 'initial' | 'server_turn_started' | 'session-updated', data: object): Uint8Array {
    return frame(event, data);
  }

  #replayAfter(lastEventId: string | undefined): Sent[] {
    if (!lastEventId) return [];
    const at = lastEventId.lastIndexOf(':');
    const seq = Number(lastEventId.slice(at + 1));
    // Another boot's id, a malformed one, or one older than the ring: nothing to replay (the client refetches).
    if (at < 0 || lastEventId.slice(0, at) !== this.boot || !Number.isInteger(seq) || seq > this.#seq) return [];
    const oldest = this.#ring[0]?.seq ?? this.#seq + 1;
    if (seq < oldest - 1) return [];
    return this.#ring.filter((s) => s.seq > seq);
  }

  #matches(changeProfile: string | undefined, clientProfile: string): boolean {
    return changeProfile === undefined || changeProfile === clientProfile;
  }

  #hear(event: AppEvent) {
    if (event.type === 'sessions_changed') {
      // Where it happened is the servers' business, not the browser's.
      const { type: _t, origin: _o, ...rest } = event;
      this.#coalesce({ type: 'sessions_changed', ...rest });
    } else if (event.type === 'turn_started') {
      const clients = this.#sessions.get(event.session_id);
      if (!clients) return;
      const data: ServerTurnStarted = {
        session_id: event.session_id,
        stream_id: event.stream_id,
        pending_started_at: event.pending_started_at,
        source: event.source,
      };
      const bytes = frame('server_turn_started', data);
      for (const c of clients) c.send(bytes);
    } else if (event.type === 'turn_finished') {
      if (!this.#sessions.has(event.session_id)) return;
      void this.#tellUpdated(event.session_id);
    }
  }

  /** After a turn: the stored count, so a tab that missed the stream reloads the session. */
  async #tellUpdated(sessionId: string) {
    try {
      const count = await this.options.messageCount(sessionId);
      const clients = this.#sessions.get(sessionId);
      if (count === null || !clients) return;
      const bytes = frame('session-updated', { session_id: sessionId, message_count: count });
      for (const c of clients) c.send(bytes);
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  #coalesce(change: SessionsChanged) {
    const key = `${change.reason}\n${change.session_id ?? ''}\n${change.profile ?? ''}`;
    const pending = this.#pending.get(key);
    if (pending) {
      pending.change = change;
      pending.again = true;
      return;
    }
    this.#publish(change);
    const entry: Pending = { change, timer: null, again: false };
    entry.timer = setTimeout(() => {
      this.#pending.delete(key);
      if (entry.again) this.#publish(entry.change);
    }, this.#coalesceMs);
    unref(entry.timer);
    this.#pending.set(key, entry);
  }

  #publish(change: SessionsChanged) {
    const seq = ++this.#seq;
    const bytes = frame('sessions_changed', change, `${this.boot}:${seq}`);
    this.#ring.push({ seq, profile: change.profile, bytes });
    if (this.#ring.length > this.#ringSize) this.#ring.shift();
    for (const [client, profile] of this.#lists) if (this.#matches(change.profile, profile)) client.send(bytes);
  }

  #startHeartbeat() {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => {
      for (const client of this.#lists.keys()) client.send(KEEPALIVE);
      for (const set of this.#sessions.values()) for (const client of set) client.send(KEEPALIVE);
    }, this.#heartbeatMs);
    unref(this.#heartbeat);
  }

  #stopHeartbeatIfIdle() {
    if (this.clientCount || !this.#heartbeat) return;
    clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}
