import { z } from 'zod';

/**
 * The session as the incumbent stores it in `sessions/<id>.json`. Known keys are typed; any
 * other key is kept as-is (`catchall`) so a rewrite never drops what another version wrote.
 */

/** Ids of sessions that already exist on disk; new ones are 12 lowercase hex. */
export const SESSION_ID_RE = /^[A-Za-z0-9_.-]+$/;
export const NEW_SESSION_ID_RE = /^[0-9a-f]{12}$/;

export function isSafeSessionId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= 128 && SESSION_ID_RE.test(id) && id !== '.' && id !== '..';
}

export const MessageSchema = z
  .object({
    role: z.string().min(1),
    content: z.unknown().optional(),
    timestamp: z.number().optional(),
  })
  .catchall(z.unknown());
export type Message = z.infer<typeof MessageSchema>;

export const SessionMetaSchema = z
  .object({
    session_id: z.string().regex(SESSION_ID_RE),
    title: z.string(),
    workspace: z.string().nullable().optional(),
    model: z.string().nullable().optional(),
    model_provider: z.string().nullable().optional(),
    created_at: z.number(),
    updated_at: z.number(),
    pinned: z.boolean().optional(),
    archived: z.boolean().optional(),
    project_id: z.string().nullable().optional(),
    profile: z.string().nullable().optional(),
    input_tokens: z.number().optional(),
    output_tokens: z.number().optional(),
    estimated_cost: z.number().nullable().optional(),
    parent_session_id: z.string().nullable().optional(),
    active_stream_id: z.string().nullable().optional(),
  })
  .catchall(z.unknown());
export type SessionMeta = z.infer<typeof SessionMetaSchema>;

export const SessionSchema = SessionMetaSchema.extend({
  messages: z.array(MessageSchema),
  tool_calls: z.array(z.unknown()).optional(),
});
export type Session = z.infer<typeof SessionSchema>;

/**
 * One row of the session list: a bounded allowlist of metadata, never the transcript.
 * The same keys are what `sessions/_index.json` keeps per session.
 */
export const SESSION_ROW_KEYS = [
  'session_id',
  'title',
  'workspace',
  'model',
  'model_provider',
  'message_count',
  'created_at',
  'updated_at',
  'last_message_at',
  'pinned',
  'archived',
  'project_id',
  'profile',
  'input_tokens',
  'output_tokens',
  'estimated_cost',
  'cache_read_tokens',
  'parent_session_id',
  'pre_compression_snapshot',
  'session_source',
  'user_message_count',
  'active_stream_id',
  'source_tag',
  'source_label',
  'is_cli_session',
  '_lineage_root_id',
] as const;

export type SessionRow = {
  session_id: string;
  title: string;
  workspace?: string | null;
  model?: string | null;
  model_provider?: string | null;
  message_count: number;
  user_message_count?: number;
  created_at: number;
  updated_at: number;
  last_message_at?: number | null;
  pinned: boolean;
  archived: boolean;
  project_id: string | null;
  profile?: string | null;
  input_tokens?: number;
  output_tokens?: number;
  estimated_cost?: number | null;
  /** Prompt-cache reads (Insights' cache hit rate); present when the session has a count. */
  cache_read_tokens?: number;
  parent_session_id?: string | null;
  /** Set (true) on a compression snapshot parent: the list hides it behind its live continuation. */
  pre_compression_snapshot?: boolean;
  /** `subagent` for a delegate_task child (the sidebar folds it under its parent). */
  session_source?: string | null;
  active_stream_id?: string | null;
  /** Hermes' own conversations (listed from state.db, or imported): where it came from, `telegram`. */
  source_tag?: string;
  /** The same for people: `Telegram`, `CLI`. */
  source_label?: string;
  /** From Hermes' CLI (the incumbent's flag); imported or not. */
  is_cli_session?: boolean;
  /** A compression chain's first segment, for a conversation Hermes continued under new ids. */
  _lineage_root_id?: string;
  /** Listed from state.db and not stored here: POST /api/session/import_cli makes it writable. */
  read_only?: boolean;
};
