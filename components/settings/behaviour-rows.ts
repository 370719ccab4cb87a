import { html } from 'lit';
import { msg } from '@lit/localize';
import type { Settings } from '../api/client.js';
import { askNotificationPermission } from '../chat/turn-alert-outputs.js';
import type { Row, SettingsRowsContext } from './settings-rows.js';
import './hermes-push-setting.js';
import { emit } from '../events.js';

type BoolKey =
  | 'auto_scroll_follow'
  | 'render_user_markdown'
  | 'session_jump_buttons'
  | 'worklog_details_expanded_default'
  | 'hide_empty_state_suggestions'
  | 'large_text_paste_as_attachment'
  | 'rtl'
  | 'sound_enabled'
  | 'notifications_enabled'
  | 'check_for_updates'
  | 'show_cron_sessions';

/** A switch saving one boolean setting; `fallback` is the default the server uses when unset. */
function toggle(c: SettingsRowsContext, key: BoolKey, fallback: boolean, before?: (on: boolean) => Promise<boolean>, after?: () => void) {
  const value = (c.settings?.[key] as boolean | undefined) ?? fallback;
  return html`<input
    id=${key}
    data-role="setting-${key}"
    type="checkbox"
    role="switch"
    class="switch"
    .checked=${value}
    @change=${async (e: Event) => {
      const input = e.target as HTMLInputElement;
      const on = input.checked;
      if (before && !(await before(on))) {
        input.checked = !on;
        return;
      }
      await c.save({ [key]: on } as Partial<Settings>);
      after?.();
    }}
  />`;
}

/**
 * The rows for settings that change how the chat, the sidebar and the app behave (the
 * incumbent's preferences), each with a `data-role="setting-<key>"` control.
 */
export function behaviourRows(c: SettingsRowsContext): Row[] {
  const s = c.settings;
  return [
    {
      id: 'sidebar_density',
      section: 'Appearance',
      label: msg('Sidebar rows'),
      hint: msg('Detailed rows add a line with the message count and model.'),
      keywords: 'sidebar density compact detailed comfortable rows list height',
      control: () => html`<select
        id="sidebar_density"
        data-role="setting-sidebar_density"
        @change=${(e: Event) => c.save({ sidebar_density: (e.target as HTMLSelectElement).value as 'compact' | 'detailed' })}
      >
        <option value="compact" ?selected=${s?.sidebar_density !== 'detailed'}>${msg('Compact')}</option>
        <option value="detailed" ?selected=${s?.sidebar_density === 'detailed'}>${msg('Detailed')}</option>
      </select>`,
    },
    {
      id: 'rtl',
      section: 'Appearance',
      label: msg('Right-to-left chat'),
      hint: msg('Messages and the composer read right to left.'),
      keywords: 'rtl right to left arabic hebrew persian direction',
      control: () => toggle(c, 'rtl', false),
    },
    {
      id: 'bot_name',
      section: 'Appearance',
      label: msg('Assistant name'),
      hint: msg('Shown on the new-chat screen and the sign-in page.'),
      keywords: 'bot name assistant title hermes',
      control: () => html`<input
        id="bot_name"
        data-role="setting-bot_name"
        maxlength="64"
        .value=${s?.bot_name ?? 'Hermes'}
        @change=${(e: Event) => {
          const v = (e.target as HTMLInputElement).value.trim();
          if (v && v !== s?.bot_name) void c.save({ bot_name: v });
        }}
      />`,
    },
    {
      id: 'auto_scroll_follow',
      section: 'Chat',
      label: msg('Follow the answer'),
      hint: msg('Keep the newest text in view while an answer streams, until you scroll up.'),
      keywords: 'auto scroll follow stream bottom sticky',
      control: () => toggle(c, 'auto_scroll_follow', true),
    },
    {
      id: 'render_user_markdown',
      section: 'Chat',
      label: msg('Markdown in your messages'),
      hint: msg('Show your messages formatted (lists, code, links) instead of as typed.'),
      keywords: 'markdown user messages format render plain',
      control: () => toggle(c, 'render_user_markdown', false),
    },
    {
      id: 'session_jump_buttons',
      section: 'Chat',
      label: msg('Jump buttons'),
      hint: msg('Buttons beside the conversation that jump to your previous or next message.'),
      keywords: 'jump navigation previous next message buttons session',
      control: () => toggle(c, 'session_jump_buttons', false),
    },
    {
      id: 'worklog_details_expanded_default',
      section: 'Chat',
      label: msg('Open activity'),
      hint: msg('Show each answer’s tools and reasoning unfolded.'),
      keywords: 'worklog activity tools expanded details open fold',
      control: () => toggle(c, 'worklog_details_expanded_default', false),
    },
    {
      id: 'hide_empty_state_suggestions',
      section: 'Chat',
      label: msg('Hide suggestions'),
      hint: msg('No starter questions on a new chat.'),
      keywords: 'suggestions empty new chat starters hide',
      control: () => toggle(c, 'hide_empty_state_suggestions', false),
    },
    {
      id: 'large_text_paste_as_attachment',
      section: 'Chat',
      label: msg('Long pastes as files'),
      hint: msg('A very long paste is attached as a text file instead of filling the composer.'),
      keywords: 'paste large text attachment file',
      control: () => toggle(c, 'large_text_paste_as_attachment', true),
    },
    {
      id: 'tts_engine',
      section: 'Chat',
      label: msg('Read aloud with'),
      hint: msg("The browser's own voice, or the server's OpenAI-compatible speech endpoint (config.yaml tts.openai)."),
      keywords: 'read aloud tts text to speech voice speak engine openai browser',
      control: () => html`<select
        id="tts_engine"
        data-role="setting-tts_engine"
        @change=${(e: Event) => c.save({ tts_engine: (e.target as HTMLSelectElement).value })}
      >
        <option value="browser" ?selected=${(s?.tts_engine ?? 'browser') !== 'openai'}>${msg('This browser')}</option>
        <option value="openai" ?selected=${s?.tts_engine === 'openai'}>${msg('Server (OpenAI-compatible)')}</option>
      </select>`,
    },
    {
      id: 'tts_voice',
      section: 'Chat',
      label: msg('Read-aloud voice'),
      hint: msg('A browser voice name, or an OpenAI voice (alloy, nova…). Empty: the default.'),
      keywords: 'voice tts read aloud speaker name',
      control: () => html`<input
        id="tts_voice"
        data-role="setting-tts_voice"
        maxlength="200"
        .value=${String(s?.tts_voice ?? '')}
        @change=${(e: Event) => void c.save({ tts_voice: (e.target as HTMLInputElement).value.trim() })}
      />`,
    },
    {
      id: 'sound_enabled',
      section: 'Notifications',
      label: msg('Sound'),
      hint: msg('A short chime when an answer is complete.'),
      keywords: 'sound chime audio beep done notify',
      control: () => toggle(c, 'sound_enabled', false),
    },
    {
      id: 'notifications_enabled',
      section: 'Notifications',
      label: msg('System notifications'),
      hint: msg('Tell me when an answer is complete while Hermes is in another tab or window.'),
      keywords: 'notifications browser system alert background tab',
      // Permission is asked from the click that turns it on (browsers require a gesture).
      control: () =>
        toggle(c, 'notifications_enabled', false, async (on) => {
          if (!on || (await askNotificationPermission())) return true;
          c.notify(msg('The browser blocks notifications for this site; allow them in its site settings.'));
          return false;
        }),
    },
    {
      id: 'show_cron_sessions',
      section: 'Appearance',
      label: msg('Task runs among chats'),
      hint: msg('Show the sessions scheduled tasks start in the chat list too (they are always under the Tasks chip).'),
      keywords: 'tasks cron scheduled runs sessions sidebar list hide show',
      // The server's list now holds other rows: the sidebar fetches it again.
      control: () =>
        toggle(c, 'show_cron_sessions', false, undefined, () =>
          emit(window, 'hermes-sessions-changed', { type: 'sessions_changed', reason: 'session_update' }),
        ),
    },
    {
      id: 'push_device',
      section: 'Notifications',
      label: msg('Notifications on this device'),
      hint: msg('Web Push: a waiting approval (with Allow once and Deny), a finished answer or a task run reaches this browser even with the app closed.'),
      keywords: 'push web push phone mobile device closed background approval pwa',
      detail: () => html`<hermes-push-setting view="status"></hermes-push-setting>`,
      control: () => html`<hermes-push-setting view="toggle"></hermes-push-setting>`,
    },
    {
      id: 'check_for_updates',
      section: 'Notifications',
      label: msg('Update notice'),
      hint: msg('Say when a new version of this web app is ready to load.'),
      keywords: 'updates check version new build reload service worker',
      control: () => toggle(c, 'check_for_updates', true),
    },
  ];
}
