import { z } from 'zod';
import { KNOWN_SKINS } from './skins.js';

/**
 * The settings this project uses, with the incumbent's defaults (settings.json). Each one changes
 * behaviour somewhere (tests/shared/settings-usage.test.ts names where). Keys the incumbent's
 * clients send that this project does not use are listed in settings-incumbent.ts: accepted and
 * not stored. Stored keys neither list knows are kept on disk untouched.
 */
export const SETTINGS_DEFAULTS = {
  default_workspace: '',
  onboarding_completed: false,
  send_key: 'enter',
  show_token_usage: false,
  show_tps: false,
  show_thinking: true,
  theme: 'dark',
  /** The skin (src/shared/skins.ts): the incumbent's key and, where they match, its names. */
  skin: 'default',
  font_size: 'default',
  bot_name: 'Hermes',
  sound_enabled: false,
  notifications_enabled: false,
  sidebar_density: 'compact',
  pinned_sessions_limit: 3,
  auto_scroll_follow: true,
  render_user_markdown: false,
  worklog_details_expanded_default: false,
  hide_empty_state_suggestions: false,
  large_text_paste_as_attachment: true,
  session_jump_buttons: false,
  rtl: false,
  /** The web app's language: "auto" (the browser's languages choose) or a locale code (src/shared/locales.ts). */
  language: 'auto',
  default_message_mode: 'steer',
  check_for_updates: true,
  /** List the Hermes Agent's own sessions (CLI, Telegram, … from $HERMES_HOME/state.db) read-only in the sidebar. */
  show_cli_sessions: false,
  /** Task runs (sessions with source `cron`) in the normal sidebar list, not only under the Tasks filter. */
  show_cron_sessions: false,
  /** Who answers turns: the builtin agent or a Hermes Agent gateway (HERMES_WEBUI_CHAT_BACKEND wins when set). */
  chat_backend: 'builtin',
  /** The gateway's API server; empty: http://127.0.0.1:8642 (HERMES_WEBUI_GATEWAY_BASE_URL wins when set). */
  gateway_base_url: '',
  /** Mask credentials (API keys, tokens, private keys, URL passwords) in what the API shows; storage keeps them. */
  api_redact_enabled: true,
  /** Read aloud: `browser` (speech synthesis) or a server engine for POST /api/tts (`openai` here). */
  tts_engine: 'browser',
  /** The voice: a browser voice's name, or an OpenAI voice (`alloy`…); empty: the default. */
  tts_voice: '',
  /** The browser voice's speed and pitch (the incumbent's ranges, 0.5–2 and 0–2). */
  tts_rate: 1.0,
  tts_pitch: 1.0,
  password_hash: null as string | null,
} as const;

export type Settings = {
  -readonly [K in keyof typeof SETTINGS_DEFAULTS]: (typeof SETTINGS_DEFAULTS)[K] extends boolean
    ? boolean
    : (typeof SETTINGS_DEFAULTS)[K] extends number
      ? number
      : (typeof SETTINGS_DEFAULTS)[K] extends string
        ? string
        : string | null;
};

/**
 * The incumbent's retired theme names: each became dark plus this skin there (solarized has a
 * skin of its own here; the incumbent, without one, gives poseidon).
 */
export const LEGACY_THEME_SKINS: Readonly<Record<string, string>> = {
  slate: 'slate',
  solarized: 'solarized',
  monokai: 'sisyphus',
  nord: 'slate',
  oled: 'default',
};
const LEGACY_THEMES = Object.keys(LEGACY_THEME_SKINS);

/** A number, or the numeric string older incumbent panels sent. */
const speechNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a number')
    .transform(Number),
]);

/** What POST /api/settings accepts: any subset of the known keys, each checked. */
export const SettingsPatchSchema = z
  .object({
    default_workspace: z.string().min(1),
    onboarding_completed: z.boolean(),
    send_key: z.enum(['enter', 'ctrl+enter', 'shift+enter']),
    show_token_usage: z.boolean(),
    show_tps: z.boolean(),
    show_thinking: z.boolean(),
    // The incumbent's older full themes arrive from its clients too; it maps them all to dark.
    theme: z.preprocess((v) => (typeof v === 'string' && LEGACY_THEMES.includes(v) ? 'dark' : v), z.enum(['light', 'dark', 'system'])),
    // As the incumbent: trimmed, lower-cased, and a name no one draws falls back to the default.
    skin: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
      z
        .string()
        .max(64)
        .transform((v) => (KNOWN_SKINS.includes(v) ? v : 'default')),
    ),
    font_size: z.enum(['small', 'default', 'large', 'xlarge']),
    bot_name: z.string().trim().min(1).max(64),
    sound_enabled: z.boolean(),
    notifications_enabled: z.boolean(),
    sidebar_density: z.enum(['compact', 'detailed']),
    pinned_sessions_limit: z.number().int().min(0).max(100),
    auto_scroll_follow: z.boolean(),
    render_user_markdown: z.boolean(),
    worklog_details_expanded_default: z.boolean(),
    hide_empty_state_suggestions: z.boolean(),
    large_text_paste_as_attachment: z.boolean(),
    session_jump_buttons: z.boolean(),
    rtl: z.boolean(),
    // Any language tag is kept (the incumbent's clients send theirs); one the app lacks falls back by the browser's, then English.
    language: z.string().regex(/^(auto|[a-zA-Z]{2,10}(-[a-zA-Z0-9]{2,8})*)$/, 'language must be "auto" or a language tag like "en" or "pt-BR"'),
    default_message_mode: z.enum(['queue', 'interrupt', 'steer']),
    check_for_updates: z.boolean(),
    show_cli_sessions: z.boolean(),
    show_cron_sessions: z.boolean(),
    chat_backend: z.enum(['builtin', 'gateway'], { error: 'chat_backend must be "builtin" or "gateway"' }),
    gateway_base_url: z.union([
      z.literal(''),
      z
        .string()
        .trim()
        .max(2048)
        .refine(
          (v) => /^https?:\/\/[^\s/?#@]+/i.test(v) && URL.canParse(v),
          'gateway_base_url must be an http(s) URL like http://127.0.0.1:8642 (no user or password in it)',
        )
        .transform((v) => v.replace(/\/+$/, '')),
    ]),
    api_redact_enabled: z.boolean(),
    tts_engine: z
      .string()
      .trim()
      .regex(/^[a-zA-Z0-9][a-zA-Z0-9_-]{0,63}$/, 'tts_engine must be an engine name like "browser" or "openai"')
      .transform((v) => v.toLowerCase()),
    tts_voice: z
      .string()
      .max(200)
      .refine((v) => !v.includes('\0'), 'tts_voice must not contain NUL'),
    // The incumbent's panel sends numbers; its older builds sent the input's string.
    tts_rate: speechNumber.pipe(z.number().min(0.5).max(2)),
    tts_pitch: speechNumber.pipe(z.number().min(0).max(2)),
  })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** Keys that are stored but never sent to a browser. */
export const SECRET_SETTINGS = ['password_hash'] as const;
