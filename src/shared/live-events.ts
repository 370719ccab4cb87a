/**
 * What the server's live channels send, shared by server and browser (the incumbent's names):
 * `GET /api/sessions/events` sends `sessions_changed`; `GET /api/session/stream?session_id=`
 * sends `initial`, `server_turn_started` and `session-updated`.
 */

/** Why the session list changed; the browser refetches `/api/sessions` on any of them. */
export const SESSIONS_CHANGED_REASONS = [
  'session_create',
  // The incumbent's name for a new session (ours: every create that is not a fork, import or task run).
  'session_new',
  'session_rename',
  'session_pin',
  'session_archive',
  'session_move',
  'session_update',
  'session_branch',
  'session_delete',
  'session_import',
  'turn_started',
  'turn_finished',
  'cron_started',
  'cron_complete',
  'attention_pending',
  'attention_resolved',
] as const;
export type SessionsChangedReason = (typeof SESSIONS_CHANGED_REASONS)[number];

/** `event: sessions_changed` on `/api/sessions/events`. */
export interface SessionsChanged {
  /** Always `sessions_changed` (the incumbent puts the event name in the payload too). */
  type: 'sessions_changed';
  reason: SessionsChangedReason;
  session_id?: string;
  /** The profile whose list changed; absent: every profile's. */
  profile?: string;
}

/** `event: server_turn_started` on `/api/session/stream`: a turn this tab did not start (another tab, a task). */
export interface ServerTurnStarted {
  session_id: string;
  stream_id: string;
  pending_started_at: number;
  /** Who started it: `webui` (a browser), `cron` (a scheduled task), `subagent`. */
  source: string;
  /** Replayed on subscribe for a turn already running. */
  recovered?: boolean;
}
