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
}
