import { z } from 'zod';

/**
 * Settings the incumbent's clients send (its settings panel posts them all on every save) that
 * this project has no use for: no voice mode or Edge voices, translations, quota chip, composer-control
 * hiding, transcript virtualisation, update channels… POST /api/settings accepts them so those
 * clients and scripts keep working, checks each in the type those clients send (a wrong type is
 * still a 400), and does not store them: storing would keep a value nothing here reads. A value
 * already in settings.json (the incumbent wrote it) is left alone.
 *
 * The list is the incumbent's settings defaults (api/config.py) minus what SETTINGS_DEFAULTS
 * holds, plus the two legacy names it still translates (activity_feed_expanded_default,
 * busy_input_mode) and the model fields its panel carries.
 */
const bool = z.boolean();
/** Whole numbers: its panel sends parseInt() results; hand-written scripts sometimes strings. */
const int = z.union([z.number().int(), z.string().regex(/^\d+$/, 'must be a whole number')]);
const num = z.union([z.number(), z.string().regex(/^\d+(\.\d+)?$/, 'must be a number')]);
const names = z.array(z.string().max(64)).max(64);

const INCUMBENT_BOOLEANS = [
  'show_quota_chip',
  'show_conversation_outline',
  'show_busy_placeholder_hint',
  'hide_empty_state_panel',
  'new_chat_on_workspace_switch',
  'virtualize_transcript',
  'virtualize_transcript_optin',
  'fade_text_effect',
  'show_claude_code_sessions',
  'show_webhook_sessions',
  'show_kanban_sessions',
  'show_previous_messaging_sessions',
  'sync_to_insights',
  'ignore_agent_updates',
  'whats_new_summary_enabled',
  'tts_enabled',
  'tts_auto_read',
  'voice_mode_button',
  'voice_continuous',
  'raw_audio_mode',
  'project_quick_create_buttons',
  'session_endless_scroll',
  'transparent_stream_event_timestamps',
  'simplified_tool_calling',
  'terminal_auto_expand_on_output',
  'workspace_todos_tab',
  'auth_disabled_acknowledged',
  'show_titlebar_profile',
  'hide_composer_attach',
  'hide_composer_saved_prompts',
  'hide_composer_mic',
  'hide_composer_voice_mode',
  'hide_composer_yolo',
  'hide_composer_profile',
  'hide_composer_workspace',
  'hide_composer_mobile_config',
  'hide_composer_model',
  'hide_composer_quota_chip',
  'hide_composer_reasoning',
  'hide_composer_toolsets',
  'hide_composer_status',
  'hide_composer_context',
  'hide_composer_bg_badge',
] as const;

export const IncumbentSettingsSchema = z
  .object({
    ...Object.fromEntries(INCUMBENT_BOOLEANS.map((k) => [k, bool])),
    // Its settings panel sends the select's string; its autosave sends parseInt() of it.
    auto_title_refresh_every: z.union([z.enum(['0', '5', '10', '20']), z.literal(0), z.literal(5), z.literal(10), z.literal(20)]),
    update_channel: z.enum(['stable', 'experimental']),
    chat_activity_display_mode: z.enum(['compact_worklog', 'transparent_stream', 'hide_all_activity']),
    structured_code_default_view: z.enum(['auto', 'on', 'off']),
    structured_code_auto_tree_lines: int,
    inflight_state_max_sessions: int,
    inflight_state_max_messages: int,
    inflight_state_max_tool_calls: int,
    inflight_state_max_string_chars: int,
    inflight_state_max_json_chars: int,
    voice_silence_ms: int,
    hidden_tabs: names,
    tab_order: names,
    composer_control_order: names,
    dashboard_plugins: z.record(z.string(), z.unknown()),
    provider_cost_budget: z.union([num, z.literal(''), z.null()]),
    // Its panel's max-tokens field (config.yaml there); the default model has its own route here.
    max_tokens: z.union([int, z.literal(''), z.null()]),
    default_model: z.string().max(512).nullable(),
    default_model_provider: z.string().max(128).nullable(),
    activity_feed_expanded_default: bool,
    busy_input_mode: z.enum(['queue', 'interrupt', 'steer']),
  })
  .partial();

/** Every key IncumbentSettingsSchema accepts. */
export const INCUMBENT_SETTING_KEYS: readonly string[] = Object.keys(IncumbentSettingsSchema.shape);
