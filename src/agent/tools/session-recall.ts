import { messageText } from '../../domain/session-rows.js';
import type { AgentSessionSearch } from '../../ports/agent-sessions.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { Message } from '../../shared/session.js';
import { markedSnippet, matchesGroup, parseQuery } from './recall-query.js';

/** A message as session_search returns it; `id` is the index in our transcript, or state.db's id. */
export interface RecallMessage {
  id: number;
  role: string;
  content: string;
  timestamp: number | null;
}

export interface RecallSession {
  session_id: string;
  title: string;
  /** `webui` for this server's sessions, else Hermes' source (`cli`, `telegram`, …). */
  source: string;
  started_at: number | null;
  updated_at: number | null;
  messages: RecallMessage[];
}

export interface RecallHit {
  session: RecallSession;
  message_id: number;
  snippet: string;
}

/** State.db rows scanned before deduplicating by session (Hermes scans 300). */
const STATE_DB_ROWS = 300;

function ownMessages(messages: Message[]): RecallMessage[] {
  const out: RecallMessage[] = [];
  messages.forEach((m, i) => {
    // Notices this server adds (errors, interruptions) are not part of what was said.
    if (m.role === 'system' || m._error || m._interrupted) return;
    out.push({ id: i, role: m.role, content: messageText(m), timestamp: typeof m.timestamp === 'number' ? m.timestamp : null });
  });
  return out;
}

/**
 * Reads sessions for session_search from this server's store and Hermes' state.db (FTS5).
 * Our sessions have no index: they are read newest first until enough match.
 */
export class SessionRecall {
  constructor(
    private readonly store: SessionStore | null,
    private readonly agent: AgentSessionSearch | null,
    /** The session asking: already in context, so never a result. */
    private readonly currentId: string,
  ) {}

  async #own(id: string): Promise<RecallSession | null> {
    if (!this.store || id === this.currentId) return null;
    const s = await this.store.get(id).catch(() => null);
    if (!s) return null;
    return { session_id: s.session_id, title: s.title, source: 'webui', started_at: s.created_at, updated_at: s.updated_at, messages: ownMessages(s.messages) };
  }

  async #agent(id: string): Promise<RecallSession | null> {
    if (!this.agent || id === this.currentId) return null;
    const found = await this.agent.messages(id);
    if (!found) return null;
    const { row } = found;
    return {
      session_id: row.session_id,
      title: row.title,
      source: row.source,
      started_at: row.created_at,
      updated_at: row.updated_at,
      messages: found.messages,
    };
  }

  /** One session by id, from whichever store has it. */
  async session(id: string): Promise<RecallSession | null> {
    return (await this.#own(id)) ?? (await this.#agent(id));
  }

  async #ownHits(query: string, roles: string[], wanted: number): Promise<RecallHit[]> {
    if (!this.store) return [];
    const groups = parseQuery(query);
    const hits: RecallHit[] = [];
    // Newest first, each session read once and matched against every group, stopping at the
    // `wanted`-th match. The store's own search would read each session too (it has no index)
    // and cannot stop early for a multi-word query, so this is never slower.
    for (const row of (await this.store.list()).rows) {
      if (hits.length >= wanted) break;
      if (row.session_id === this.currentId || row.message_count === 0) continue;
      const session = await this.#own(row.session_id);
      if (!session) continue;
      for (const group of groups) {
        const match = session.messages.find((m) => roles.includes(m.role) && matchesGroup(m.content, group));
        if (!match) continue;
        hits.push({
          session,
          message_id: match.id,
          snippet: markedSnippet(
            match.content,
            group.must.map((t) => t.text),
          ),
        });
        break;
      }
    }
    return hits;
  }

  async #agentHits(query: string, roles: string[], wanted: number): Promise<RecallHit[]> {
    if (!this.agent) return [];
    const rows = await this.agent.search(query, { roles, limit: STATE_DB_ROWS });
    const hits: RecallHit[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      if (hits.length >= wanted) break;
      if (seen.has(row.session_id) || row.session_id === this.currentId) continue;
      seen.add(row.session_id);
      const session = await this.#agent(row.session_id);
      if (session) hits.push({ session, message_id: row.message_id, snippet: row.snippet });
    }
    return hits;
  }

  /**
   * Sessions matching `query`, one hit each. Neither store ranks against the other, so their
   * best hits alternate (ours first); `sort` then orders the kept ones by time.
   */
  async discover(query: string, options: { roles: string[]; limit: number; sort: 'newest' | 'oldest' | null }): Promise<RecallHit[]> {
    const [own, agent] = await Promise.all([this.#ownHits(query, options.roles, options.limit), this.#agentHits(query, options.roles, options.limit)]);
    const merged: RecallHit[] = [];
    for (let i = 0; merged.length < options.limit && (i < own.length || i < agent.length); i++) {
      for (const hit of [own[i], agent[i]]) if (hit && merged.length < options.limit) merged.push(hit);
    }
    if (options.sort) {
      const at = (h: RecallHit) => h.session.messages.find((m) => m.id === h.message_id)?.timestamp ?? h.session.updated_at ?? 0;
      merged.sort((a, b) => (options.sort === 'newest' ? at(b) - at(a) : at(a) - at(b)));
    }
    return merged;
  }

  /** The newest sessions of both stores (rows only: title, source, times, size). */
  async recent(limit: number): Promise<Array<{ session_id: string; title: string; source: string; updated_at: number; message_count: number }>> {
    const own = this.store
      ? (await this.store.list({ limit: limit + 1 })).rows
          .filter((r) => r.session_id !== this.currentId && r.message_count > 0)
          .map((r) => ({ session_id: r.session_id, title: r.title, source: 'webui', updated_at: r.updated_at, message_count: r.message_count }))
      : [];
    const agent = this.agent
      ? (await this.agent.list({ limit: limit + 1 }))
          .filter((r) => r.session_id !== this.currentId)
          .map((r) => ({ session_id: r.session_id, title: r.title, source: r.source, updated_at: r.updated_at, message_count: r.message_count }))
      : [];
    return [...own, ...agent].sort((a, b) => b.updated_at - a.updated_at).slice(0, limit);
  }
}
