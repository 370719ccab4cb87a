import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS_DEFAULTS, SettingsPatchSchema } from '../../src/shared/settings.js';
import { INCUMBENT_SETTING_KEYS } from '../../src/shared/settings-incumbent.js';

/**
 * Every key POST /api/settings stores must change behaviour somewhere: here is the module that
 * reads it, and the test checks that module's code (comments removed) really reads the key as a
 * property (`settings.key`, `settings?.key`, `stored.key`). The settings files themselves (the
 * schema, the route, the dialog's rows) do not count. A new key without a reader fails here.
 */
const READERS: Record<string, string> = {
  default_workspace: 'src/routes/workspaces.ts',
  onboarding_completed: 'src/routes/onboarding.ts',
  send_key: 'components/composer/hermes-composer.ts',
  show_token_usage: 'components/chat/hermes-turn-usage.ts',
  show_tps: 'components/chat/hermes-turn-usage.ts',
  show_thinking: 'components/chat/hermes-assistant-turn.ts',
  theme: 'components/state/ui-store.ts',
  skin: 'components/state/ui-store.ts',
  font_size: 'components/state/ui-store.ts',
  bot_name: 'components/chat/hermes-chat-view.ts',
  sound_enabled: 'components/chat/turn-alerts.ts',
  notifications_enabled: 'components/chat/turn-alerts.ts',
  sidebar_density: 'components/sidebar/hermes-sidebar.ts',
  pinned_sessions_limit: 'src/routes/session-ops.ts',
  auto_scroll_follow: 'components/chat/hermes-transcript.ts',
  render_user_markdown: 'components/chat/hermes-user-message.ts',
  worklog_details_expanded_default: 'components/chat/hermes-activity.ts',
  hide_empty_state_suggestions: 'components/chat/hermes-chat-view.ts',
  large_text_paste_as_attachment: 'components/composer/hermes-composer.ts',
  session_jump_buttons: 'components/chat/hermes-transcript.ts',
  rtl: 'components/chat/hermes-chat-view.ts',
  language: 'components/state/ui-store.ts',
  default_message_mode: 'components/composer/busy-input.ts',
  check_for_updates: 'components/app/hermes-update-prompt.ts',
  show_cli_sessions: 'src/routes/agent.ts',
  show_cron_sessions: 'src/routes/session-list.ts',
  chat_backend: 'src/agent/backend-choice.ts',
  gateway_base_url: 'src/agent/backend-choice.ts',
  api_redact_enabled: 'src/http/redaction.ts',
  tts_engine: 'components/chat/read-aloud.ts',
  tts_voice: 'components/chat/read-aloud.ts',
  tts_rate: 'components/chat/read-aloud.ts',
  tts_pitch: 'components/chat/read-aloud.ts',
};

const SETTINGS_FILES = ['src/shared/settings.ts', 'src/shared/settings-incumbent.ts', 'src/routes/settings.ts', 'components/settings/'];

/** The code without comments (a key named only in a comment is not read). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('every stored setting is read outside the settings files', () => {
  it('names a reader for exactly the keys the schema accepts (and the defaults list)', () => {
    expect(Object.keys(READERS).sort()).toEqual(Object.keys(SettingsPatchSchema.shape).sort());
    const defaults = Object.keys(SETTINGS_DEFAULTS).filter((k) => k !== 'password_hash');
    expect(defaults.sort()).toEqual(Object.keys(READERS).sort());
  });

  it.each(Object.entries(READERS))('%s is read by %s', async (key, file) => {
    expect(
      SETTINGS_FILES.some((f) => file.startsWith(f)),
      `${file} is a settings file`,
    ).toBe(false);
    const source = code(await readFile(join(process.cwd(), file), 'utf8'));
    expect(source, `${file} does not read .${key}`).toMatch(new RegExp(`\\??\\.${key}\\b`));
  });

  it('no key is both ours and one of the incumbent’s ignored keys', () => {
    for (const key of INCUMBENT_SETTING_KEYS) expect(Object.keys(READERS), key).not.toContain(key);
  });
});
