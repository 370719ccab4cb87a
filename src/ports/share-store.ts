/**
 * Public read-only share links (`/share/<token>`): an immutable, sanitised snapshot of a
 * conversation taken when the link is made (or refreshed). The token is the incumbent's
 * (`secrets.token_urlsafe(18)`, 144 bits) and, as there, stored as the record's key: the
 * session's owner must be able to copy the link again, so it cannot be kept as a hash only.
 */
export interface ShareMessage {
  role: 'user' | 'assistant';
  /** Markdown, credentials masked, local paths scrubbed, small images as data: URLs. */
  content: string;
  timestamp?: number;
}

/** The incumbent's `shares/<token>.json` fields, plus the profile the session belongs to. */
export interface ShareRecord {
  token: string;
  source_session_id: string;
  profile: string;
  title: string;
  messages: ShareMessage[];
  message_count: number;
  created_at: number;
  updated_at: number;
  /** Set when the link was stopped; a revoked record is never served. */
  revoked_at: number | null;
}

export interface ShareStore {
  /** The record with this token, revoked or not; null when there is none. */
  get(token: string): Promise<ShareRecord | null>;
  /** The session's live (unrevoked) link, if it has one. */
  forSession(sessionId: string): Promise<ShareRecord | null>;
  /** Every record, revoked ones too (`hermes-webui migrate` copies them all). */
  list(): Promise<ShareRecord[]>;
  /** Inserts or replaces by token (and keeps the session's live link in step with `revoked_at`). */
  put(record: ShareRecord): Promise<void>;
}
