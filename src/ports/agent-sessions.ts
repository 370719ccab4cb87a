import type { Message } from '../shared/session.js';

/** One of the Hermes Agent's own sessions (CLI, Telegram, …), as the sidebar lists it. */
export interface AgentSessionRow {
  session_id: string;
  title: string;
  /** Where it came from: `cli`, `telegram`, `discord`, `api_server`, `acp`, `cron`, … */
  source: string;
  /** The same for people: "CLI", "Telegram". */
  source_label: string;
  model: string | null;
  created_at: number;
  updated_at: number;
  message_count: number;
  read_only: true;
}

/** One Hermes session's token use, for Insights (state.db's `sessions` row, nothing else). */
export interface AgentUsageRow {
  session_id: string;
  source: string;
  model: string | null;
  message_count: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  /** `estimated_cost_usd`; 0 when unknown. */
  cost: number;
  /** When its usage counts: `ended_at`, else `started_at` (epoch seconds). */
  ts: number;
}

/** Sessions whose usage time is ≥ `from` and < `to` (≤ when `toInclusive`). */
export interface UsageWindow {
  from: number;
  to: number;
  toInclusive: boolean;
}

/**
 * The agent's own session store, read-only (Hermes' `$HERMES_HOME/state.db` on Node). Nothing
 * here ever writes: Hermes may be running and owns the file.
 */
export interface AgentSessionSource {
  /** Whether there is a store to read (the file exists and the driver loads). */
  available(): Promise<boolean>;
  /** Newest first. */
  list(options: { limit: number }): Promise<AgentSessionRow[]>;
  /** The session and its last `limit` messages in this project's message shape; null when unknown. */
  get(id: string, options: { limit: number }): Promise<{ row: AgentSessionRow; messages: Message[]; truncated: boolean } | null>;
  /**
   * Token use of the sessions in the window, left out: what the WebUI mirrored there itself
   * (`source = 'webui'`, the incumbent's sync_to_insights). [] when there is no store.
   */
  usage?(window: UsageWindow): Promise<AgentUsageRow[]>;
}

/** One message of a Hermes session as session_search shows it (`id` is state.db's message id). */
export interface AgentSessionMessage {
  id: number;
  role: string;
  content: string;
  timestamp: number | null;
}

/** A full-text match in state.db: the message it hit and where. */
export interface AgentSessionHit {
  session_id: string;
  message_id: number;
  role: string;
  /** The match in context, terms marked `>>>term<<<` (FTS5 `snippet()`, or a cut around a LIKE hit). */
  snippet: string;
  timestamp: number | null;
}

/** Searching Hermes' state.db (FTS5 where the index exists), read-only, for session_search. */
export interface AgentSessionSearch extends AgentSessionSource {
  /**
   * Messages matching `query` (FTS5 syntax: AND by default, OR, "phrases", NOT, prefix*), best
   * first, with `roles` only. Conversations only (no subagent/tool runs). [] when unavailable.
   */
  search(query: string, options: { roles: string[]; limit: number }): Promise<AgentSessionHit[]>;
  /** The session's row and every message (system prompts left out), in order; null when unknown. */
  messages(id: string): Promise<{ row: AgentSessionRow; messages: AgentSessionMessage[] } | null>;
}
