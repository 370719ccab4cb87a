import type { Session } from '../../../shared/session.js';

/**
 * How the incumbent lays out `sessions/<id>.json`: its metadata fields in this order, then
 * `message_count`, `anchor_scene_index`, the big arrays, then anything else. Keeping the order
 * lets both programs read the metadata prefix without parsing the transcript.
 */
const METADATA_ORDER = [
  'session_id',
  'title',
  'workspace',
  'created_workspace',
  'model',
  'model_provider',
  'model_explicit_pick_signature',
  'created_at',
  'updated_at',
  'pinned',
  'archived',
  'project_id',
  'profile',
  'input_tokens',
  'output_tokens',
  'estimated_cost',
  'cache_read_tokens',
  'cache_write_tokens',
  'personality',
  'active_stream_id',
  'pending_user_message',
  'pending_attachments',
  'pending_started_at',
  'pending_user_source',
  'compression_anchor_visible_idx',
  'compression_anchor_message_key',
  'compression_anchor_summary',
  'pre_compression_snapshot',
  'context_engine',
  'compression_anchor_engine',
  'compression_anchor_mode',
  'compression_anchor_details',
  'context_engine_state',
  'context_length',
  'threshold_tokens',
  'last_prompt_tokens',
  'post_compression_context_tokens_estimate',
  'compression_recovery',
  'recommended_recovery_action',
  'compression_recovery_source_session_id',
  'compression_recovery_action',
  'truncation_watermark',
  'truncation_boundary',
  'clear_generation',
  'intentional_shrink_generation',
  'gateway_routing',
  'gateway_routing_history',
  'llm_title_generated',
  'manual_title',
  'parent_session_id',
  'worktree_path',
  'worktree_branch',
  'worktree_repo_root',
  'worktree_created_at',
  'is_cli_session',
  'source_tag',
  'raw_source',
  'session_source',
  'source_label',
  'read_only',
  'enabled_toolsets',
  'composer_draft',
  'process_wakeup_pause',
  'share_token',
  'share_created_at',
];
const AFTER_METADATA = ['message_count', 'anchor_scene_index', 'messages', 'tool_calls', 'anchor_activity_scenes'];
const ORDERED = new Set([...METADATA_ORDER, ...AFTER_METADATA]);

/** The session as the incumbent would write it: `indent=2`, no trailing newline. */
export function serializeSession(session: Session): string {
  const out: Record<string, unknown> = {};
  for (const key of METADATA_ORDER) if (key in session) out[key] = session[key];
  out.message_count = session.messages.length;
  if ('anchor_scene_index' in session) out.anchor_scene_index = session.anchor_scene_index;
  out.messages = session.messages;
  out.tool_calls = session.tool_calls ?? [];
  if ('anchor_activity_scenes' in session) out.anchor_activity_scenes = session.anchor_activity_scenes;
  for (const key of Object.keys(session)) if (!ORDERED.has(key)) out[key] = session[key];
  return JSON.stringify(out, null, 2);
}

export class CorruptSessionFile extends Error {}

/**
 * Parses a session file. Fields older versions left out get the incumbent's defaults;
 * anything that is not a JSON object with a `messages` list is corrupt.
 */
export function parseSession(id: string, text: string, fileMtime: number): Session {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CorruptSessionFile(`invalid JSON (${text.length} bytes): ${(err as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new CorruptSessionFile('not a JSON object');
  const s = raw as Record<string, unknown>;
  if (s.messages !== undefined && !Array.isArray(s.messages)) throw new CorruptSessionFile('"messages" is not a list');
  const messages = ((s.messages as unknown[]) ?? []).filter((m) => m && typeof m === 'object' && !Array.isArray(m));
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
  const session = {
    ...s,
    session_id: id,
    title: typeof s.title === 'string' && s.title ? s.title : 'Untitled',
    created_at: num(s.created_at) ?? num(s.updated_at) ?? fileMtime,
    updated_at: num(s.updated_at) ?? num(s.created_at) ?? fileMtime,
    messages,
    tool_calls: Array.isArray(s.tool_calls) ? s.tool_calls : [],
  } as Session;
  delete (session as Record<string, unknown>).message_count;
  return session;
}
