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

/** One conversation of Hermes' own, with the incumbent's row fields (`/api/sessions`). */
export interface AgentSidebarRow {
  session_id: string;
  title: string;
  workspace: string | null;
  model: string | null;
  message_count: number;
  created_at: number;
  updated_at: number;
  last_message_at: number;
  pinned: false;
  archived: false;
  project_id: null;
  profile: string;
  /** state.db's own `source` (`cli`, `telegram`, …). */
  source_tag: string;
  raw_source: string | null;
  /** The incumbent's families: `cli`, `messaging`, `cron`, `webhook`, `kanban`, `api`, `webui`, `other`. */
  session_source: string;
  source_label: string;
  user_id: string | null;
  chat_id: string | null;
  chat_type: string | null;
  thread_id: string | null;
  session_key: string | null;
  platform: string | null;
  parent_session_id: string | null;
  end_reason: string | null;
  actual_message_count: number;
  user_message_count: number;
  _lineage_root_id?: string;
  _lineage_tip_id?: string;
  _compression_segment_count?: number;
  is_cli_session: boolean;
  /** Not stored here: it is read from state.db until imported (POST /api/session/import_cli). */
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
  /**
   * Every conversation the sidebar may list (compression chains collapsed to their tip, throwaway
   * CLI rows left out), newest first, for `profile`. `signature` changes whenever state.db does
   * (so a caller may keep what it built from the rows); the same signature gives the same array.
   */
  sidebar?(profile: string): Promise<{ signature: string; rows: readonly AgentSidebarRow[] }>;
  /**
   * A window of a conversation's transcript (every compression segment, oldest first; system
   * prompts left out): `limit` messages ending before index `before`, like GET /api/session.
   * Any segment's id finds its conversation. Null when unknown or hidden.
   */
  transcript?(id: string, window: { limit?: number; before?: number }, profile: string): Promise<AgentTranscript | null>;
  /**
   * The sidebar search (`/api/sessions/search`) over the conversations `sidebar` lists: titles
   * holding `needle` (lowercase substring), then, with `content`, those with a user or assistant
   * message holding it among their first `depth` messages (0: anywhere). At most `limit`.
   */
  find?(needle: string, options: { content: boolean; depth: number; limit: number }, profile: string): Promise<AgentFindHit[]>;
}

/** A conversation the sidebar search found, and the text it matched (its title, or a message). */
export interface AgentFindHit {
  row: AgentSidebarRow;
  match_type: 'title' | 'content';
  text: string;
}

/** A window of one of Hermes' conversations: `messages` start at index `offset` of `total`. */
export interface AgentTranscript {
  row: AgentSidebarRow;
  messages: Message[];
  total: number;
  offset: number;
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
