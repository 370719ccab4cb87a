import type { Message, Session, SessionMeta, SessionRow } from '../shared/session.js';

/** Metadata fields a caller may change; `messages` only change through the message methods. */
export type SessionPatch = Partial<Omit<SessionMeta, 'session_id' | 'created_at' | 'updated_at'>> & {
  tool_calls?: unknown[];
};

export interface ListOptions {
  /** Include archived sessions (default false). */
  includeArchived?: boolean;
  /** Page size; omitted means every row. */
  limit?: number;
  /** Rows to skip, in list order. */
  offset?: number;
}

export interface SessionPage {
  /** Newest `updated_at` first; ties broken by `session_id`. Shared and read-only. */
  rows: readonly Readonly<SessionRow>[];
  /** Rows matching the filter, before paging. */
  total: number;
  /** Archived sessions (counted whether or not they are included). */
  archivedCount: number;
  /**
   * Changes whenever any row changes (opaque). Equal revisions mean an identical list, so a
   * caller may reuse what it built from the last page (the list route caches its JSON on it).
   */
  revision: string;
}

export interface WriteOptions {
  /**
   * Optimistic concurrency: the `updated_at` the caller last read. A mismatch throws
   * VersionConflict and writes nothing.
   */
  ifUpdatedAt?: number;
  /**
   * False: keep `updated_at` as it was. A composer draft is not conversation activity, so saving
   * one must not move the session up the list (the incumbent saves drafts the same way).
   */
  touch?: boolean;
}

/** A stored session that could not be read (corrupt or truncated JSON). It is never overwritten. */
export interface StoreProblem {
  session_id: string;
  error: string;
}

export interface SearchHit extends SessionRow {
  match_type: 'title' | 'content';
  match_preview: string;
}

/**
 * Sessions and their transcripts. Each method that must be atomic is one call: an adapter
 * serialises writes to one session and never leaves a half-written session behind.
 */
export interface SessionStore {
  readonly kind: string;
  init(): Promise<void>;
  /** Flushes pending writes and releases handles. */
  dispose(): Promise<void>;

  /** Stores a new session; Conflict when the id exists. */
  create(session: Session): Promise<Session>;
  /** The whole session, or null when unknown. Throws when the stored copy is unreadable. */
  get(id: string): Promise<Session | null>;
  list(options?: ListOptions): Promise<SessionPage>;
  /** Changes metadata and bumps `updated_at`. NotFound when unknown. */
  update(id: string, patch: SessionPatch, options?: WriteOptions): Promise<Session>;
  /** Appends messages (and applies `patch`) atomically, bumping `updated_at`. */
  appendMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session>;
  /** Replaces the transcript (clear, truncate); a shrinking write keeps a backup where the adapter can. */
  replaceMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session>;
  /** True when something was deleted. */
  delete(id: string): Promise<boolean>;
  /** Unassigns every session from a project (used when the project is deleted); returns how many. */
  clearProject(projectId: string): Promise<number>;
  /** Case-insensitive title search, plus message text when `content` is set. */
  search(query: string, options: { content: boolean; limit?: number }): Promise<SearchHit[]>;
  /** Sessions that exist but could not be read. */
  problems(): Promise<StoreProblem[]>;
}
