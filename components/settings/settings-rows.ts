import { html, nothing, type TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import { currentLocale, PSEUDO_LOCALE } from '../i18n/localization.js';
import { LOCALES } from '../i18n/locales.js';
import { api, type ModelCatalog, type ProviderRow, type Settings } from '../api/client.js';
import { icons } from '../shared/icons.js';
import './hermes-session-import.js';
import './hermes-password-settings.js';
import './hermes-provider-row.js';
import './hermes-endpoint-form.js';
import './hermes-gateway-settings.js';
import './hermes-mcp-settings.js';
import './hermes-workspaces-settings.js';
import './hermes-skin-picker.js';
import type { HermesSkinPicker } from './hermes-skin-picker.js';
import { HOSTED } from './hermes-provider-add.js';
import { behaviourRows } from './behaviour-rows.js';
import { modelCount } from './model-count.js';
import { providerLabel } from './provider-labels.js';

/** One setting: its text (which the search matches) and its control. */
export interface Row {
  id: string;
  section: string;
  label: string;
  hint?: string;
  /** A line under the hint (a provider's state), for what plain text cannot say. */
  detail?: () => TemplateResult;
  /** Extra words the search matches. */
  keywords: string;
  control: () => TemplateResult | typeof nothing;
}

type Option<T> = { value: T; label: string };
/** The sections, in the order the dialog shows them. */
export const SECTIONS = ['Appearance', 'Chat', 'Notifications', 'Agent', 'Providers', 'MCP', 'Workspace', 'Conversation', 'Security'];
export type Providers = { active_provider: string | null; providers: ProviderRow[] };
export type Models = (Pick<ModelCatalog, 'default_model' | 'models'> & Partial<ModelCatalog>) | null;
export type Backend = NonNullable<Settings['chat_backend']>;
/** A section's name as the dialog shows it (SECTIONS stay the rows' keys). */
export function sectionLabel(section: string): string {
  const labels: Record<string, string> = {
    Appearance: msg('Appearance'),
    Chat: msg('Chat'),
    Notifications: msg('Notifications'),
    Agent: msg('Agent'),
    Providers: msg('Providers'),
    MCP: 'MCP',
    Workspace: msg('Workspace'),
    Conversation: msg('Conversation'),
    Security: msg('Security'),
  };
  return labels[section] ?? section;
}
// Functions, so each render reads the current language.
const THEMES = (): Option<Settings['theme']>[] => [
  { value: 'dark', label: msg('Dark') },
  { value: 'light', label: msg('Light') },
  { value: 'system', label: msg('System') },
];
const FONT_SIZES = (): Option<Settings['font_size']>[] => [
  { value: 'small', label: msg('Small') },
  { value: 'default', label: msg('Default') },
  { value: 'large', label: msg('Large') },
  { value: 'xlarge', label: msg('Extra large') },
];
const BACKENDS = (): Option<Backend>[] => [
  { value: 'builtin', label: msg('Built-in agent') },
  { value: 'gateway', label: 'Hermes Agent' },
];
const SEND_KEYS: Option<Settings['send_key']>[] = [
  { value: 'enter', label: 'Enter' },
  { value: 'ctrl+enter', label: 'Ctrl+Enter' },
];

const MESSAGE_MODES = (): Option<NonNullable<Settings['default_message_mode']>>[] => [
  { value: 'steer', label: msg('Steer') },
  { value: 'queue', label: msg('Queue') },
  { value: 'interrupt', label: msg('Interrupt') },
];

/** What the rows show (the dialog's state as it renders) and the dialog's actions their controls call. */
export interface SettingsRowsContext {
  settings: Settings | null | undefined;
  sessionId: string | null | undefined;
  models: Models;
  providers: Providers | null;
  providersError: string;
  /** What the user typed for a refused workspace, kept so it can be corrected. */
  workspaceDraft: string | null;
  workspaceError: string;
  signingOut: boolean;
  signOutError: string;
  /** Saves one change; resolves true when the server kept it. */
  save(patch: Partial<Settings>): Promise<boolean>;
  saveBackend(chat_backend: Backend): Promise<void>;
  saveModel(id: string): Promise<void>;
  saveWorkspace(input: HTMLInputElement): Promise<void>;
  signOut(): Promise<void>;
  /** A key or endpoint changed (the providers' rows fire hermes-provider-changed). */
  onProviderChanged: () => void;
  /** A nested control saved a setting on its own. */
  flashSaved: () => void;
  /** A line in the app's toast (what a control could not do). */
  notify(message: string): void;
}

/** Every row of the dialog, in order; the dialog groups them by section and filters them by the search. */
export function settingsRows(c: SettingsRowsContext): Row[] {
  const s = c.settings;
  const sid = c.sessionId;
  const models = c.models;
  const model = models?.models.find((m) => m.id === models.default_model);
  return [
    {
      id: 'theme',
      section: 'Appearance',
      label: msg('Theme'),
      keywords: 'dark light system color mode',
      control: () => segmented('theme', msg('Theme'), THEMES(), s?.theme, (theme) => c.save({ theme })),
    },
    {
      id: 'skin',
      section: 'Appearance',
      label: msg('Skin'),
      hint: msg('Colours for the whole app. Each follows the theme above and passes WCAG AA contrast.'),
      keywords: 'skin palette colours colors high contrast paper solarized catppuccin colour-blind colorblind accessibility',
      control: () =>
        html`<hermes-skin-picker
          .value=${s?.skin ?? 'default'}
          .theme=${s?.theme ?? 'dark'}
          @change=${(e: Event) => c.save({ skin: (e.target as HermesSkinPicker).value })}
        ></hermes-skin-picker>`,
    },
    {
      id: 'font_size',
      section: 'Appearance',
      label: msg('Font size'),
      keywords: 'text scale zoom small large',
      control: () => html`<select id="font_size" @change=${(e: Event) => c.save({ font_size: (e.target as HTMLSelectElement).value as Settings['font_size'] })}>
        ${FONT_SIZES().map((o) => html`<option value=${o.value} ?selected=${o.value === s?.font_size}>${o.label}</option>`)}
      </select>`,
    },
    {
      id: 'language',
      section: 'Appearance',
      label: msg('Language'),
      hint: msg('Automatic follows the browser’s languages.'),
      keywords: 'language locale translation idioma langue sprache',
      control: () => html`<select id="language" data-role="language" @change=${(e: Event) => c.save({ language: (e.target as HTMLSelectElement).value })}>
        <option value="auto" ?selected=${!s?.language || s.language === 'auto'}>${msg('Automatic')}</option>
        ${LOCALES.map((l) => html`<option value=${l.code} lang=${l.code} ?selected=${l.code === s?.language}>${l.name}</option>`)}
      </select>`,
    },
    {
      id: 'send_key',
      section: 'Chat',
      label: msg('Send with'),
      hint: msg('The other combination adds a new line.'),
      keywords: 'send key enter ctrl keyboard shortcut newline',
      control: () => segmented('send_key', msg('Send with'), SEND_KEYS, s?.send_key, (send_key) => c.save({ send_key })),
    },
    {
      id: 'default_message_mode',
      section: 'Chat',
      label: msg('While the agent works'),
      hint: msg('What Send does during a turn: steer it at its next step, queue for after it, or interrupt it. The send menu changes it for one message.'),
      keywords: 'busy steer queue interrupt message mode send running',
      control: () =>
        segmented('default_message_mode', msg('While the agent works'), MESSAGE_MODES(), s?.default_message_mode ?? 'steer', (default_message_mode) =>
          c.save({ default_message_mode }),
        ),
    },
    {
      id: 'show_thinking',
      section: 'Chat',
      label: msg('Show thinking'),
      hint: msg('Show the model’s reasoning in each reply’s activity.'),
      keywords: 'reasoning thoughts',
      control: () =>
        html`<input id="show_thinking" type="checkbox" role="switch" class="switch" .checked=${s?.show_thinking ?? true} @change=${(e: Event) => c.save({ show_thinking: (e.target as HTMLInputElement).checked })} />`,
    },
    {
      id: 'show_token_usage',
      section: 'Chat',
      label: msg('Show token usage'),
      hint: msg('Tokens in and out, cached, cost, duration and model under each answer.'),
      keywords: 'usage tokens cost price context metering',
      control: () =>
        html`<input id="show_token_usage" type="checkbox" role="switch" class="switch" .checked=${s?.show_token_usage === true} @change=${(e: Event) => c.save({ show_token_usage: (e.target as HTMLInputElement).checked })} />`,
    },
    {
      id: 'show_tps',
      section: 'Chat',
      label: msg('Show tokens per second'),
      hint: msg('How fast each answer was written, under the answer.'),
      keywords: 'tps speed throughput tokens per second',
      control: () =>
        html`<input id="show_tps" data-role="setting-show_tps" type="checkbox" role="switch" class="switch" .checked=${s?.show_tps === true} @change=${(e: Event) => c.save({ show_tps: (e.target as HTMLInputElement).checked })} />`,
    },
    {
      id: 'default_model',
      section: 'Chat',
      label: msg('Default model'),
      hint:
        models && !models.models.length
          ? msg('No model is configured yet: set model.default in $HERMES_HOME/config.yaml.')
          : msg('Used by new conversations (saved as model.default in config.yaml).'),
      keywords: 'model llm provider config',
      control: () =>
        models?.models.length
          ? html`<select id="default_model" @change=${(e: Event) => c.saveModel((e.target as HTMLSelectElement).value)}>
              ${
                models.default_model && !models.models.some((m) => m.id === models.default_model)
                  ? html`<option value=${models.default_model} selected>${models.default_model}</option>`
                  : nothing
              }
              ${
                models.groups?.length
                  ? models.groups.map(
                      (g) => html`<optgroup label=${g.label ?? g.provider}>
                      ${g.models.map((m) => html`<option value=${m.id} ?selected=${m.id === models.default_model}>${m.label}</option>`)}
                    </optgroup>`,
                    )
                  : models.models.map((m) => html`<option value=${m.id} ?selected=${m.id === models.default_model}>${m.label}</option>`)
              }
            </select>`
          : html`<span class="readonly mono" title=${models?.default_model ?? ''}>${models ? (model?.label ?? models.default_model ?? msg('Not configured')) : '…'}</span>`,
    },
    ...behaviourRows(c),
    ...agentRow(c),
    ...providerRows(c),
    {
      id: 'default_workspace',
      section: 'Workspace',
      label: msg('Default workspace'),
      hint: msg('The folder new conversations work in.'),
      keywords: 'folder directory path files',
      control: () => html`<input
          id="default_workspace"
          class="mono path"
          spellcheck="false"
          autocomplete="off"
          .value=${c.workspaceDraft ?? s?.default_workspace ?? ''}
          aria-invalid=${c.workspaceError ? 'true' : 'false'}
          @change=${(e: Event) => c.saveWorkspace(e.target as HTMLInputElement)}
        />
        ${c.workspaceError ? html`<p class="field-error" role="alert">${c.workspaceError}</p>` : nothing}`,
    },
    {
      id: 'workspaces',
      section: 'Workspace',
      label: msg('Workspaces'),
      hint: msg('The folders the workspace chip offers, in its order.'),
      keywords: 'workspaces folders projects rename remove reorder order list',
      control: () => html`<hermes-workspaces-settings @hermes-setting-saved=${c.flashSaved}></hermes-workspaces-settings>`,
    },
    // The built-in agent's MCP servers (a Hermes Agent reads the same config.yaml entries).
    {
      id: 'mcp_servers',
      section: 'MCP',
      label: msg('MCP servers'),
      hint: msg('Tools from Model Context Protocol servers (config.yaml mcp_servers). The agent starts them with the next message.'),
      keywords: 'mcp model context protocol server servers tools stdio http command url plugins mcp_servers',
      control: () => html`<hermes-mcp-settings @hermes-setting-saved=${c.flashSaved}></hermes-mcp-settings>`,
    },
    {
      id: 'export',
      section: 'Conversation',
      label: msg('Export conversation'),
      hint: sid ? msg('Download the open conversation.') : msg('Open a conversation to export it.'),
      keywords: 'download save markdown json backup',
      control: () =>
        sid
          ? html`<span class="links">
              <a class="button" data-format="md" href=${api.exportUrl(sid, 'md')} download>${icons.download()} Markdown</a>
              <a class="button" data-format="json" href=${api.exportUrl(sid, 'json')} download>${icons.download()} JSON</a>
            </span>`
          : nothing,
    },
    {
      id: 'import',
      section: 'Conversation',
      label: msg('Import conversation'),
      hint: msg('From a JSON export.'),
      keywords: 'upload load json restore',
      control: () => html`<hermes-session-import></hermes-session-import>`,
    },
    {
      id: 'password',
      section: 'Security',
      label: msg('Password'),
      hint: passwordHint(s),
      keywords: 'password login sign in lock protect auth set change remove clear HERMES_WEBUI_PASSWORD',
      control: () => html`<hermes-password-settings></hermes-password-settings>`,
    },
    {
      id: 'api_redact_enabled',
      section: 'Security',
      label: msg('Mask secrets'),
      hint: msg('Hide API keys, tokens and passwords in conversations, tool output and exports. Stored data is unchanged.'),
      keywords: 'redact redaction hide api key token secret mask privacy',
      control: () =>
        html`<input id="api_redact_enabled" type="checkbox" role="switch" class="switch" .checked=${s?.api_redact_enabled !== false} @change=${(e: Event) => c.save({ api_redact_enabled: (e.target as HTMLInputElement).checked })} />`,
    },
    ...(s?.auth_enabled
      ? [
          {
            id: 'sign_out',
            section: 'Security',
            label: msg('Sign out'),
            hint: msg('End this browser’s sign-in and forget its offline copy of your conversations.'),
            keywords: 'logout log out sign off session',
            control: () => html`<button class="outline" data-action="sign-out" ?disabled=${c.signingOut} @click=${() => c.signOut()}>
                ${c.signingOut ? msg('Signing out…') : msg('Sign out')}
              </button>
              ${c.signOutError ? html`<p class="field-error" role="alert">${c.signOutError}</p>` : nothing}`,
          },
        ]
      : []),
  ];
}

/** Settings → Agent: the built-in agent or a Hermes Agent gateway (read-only where the environment decides). */
function agentRow(c: SettingsRowsContext): Row[] {
  const s = c.settings;
  // An older server without the choice: no row.
  if (!s?.chat_backend) return [];
  const gateway = s.chat_backend === 'gateway';
  const fixed = !!s.chat_backend_fixed;
  return [
    {
      id: 'chat_backend',
      section: 'Agent',
      label: msg('Answers come from'),
      hint: fixed
        ? msg('Set by HERMES_WEBUI_CHAT_BACKEND on the server; change it there (then restart Hermes).')
        : gateway
          ? msg('Your Hermes Agent, through its API server: its model, tools, memory and approval rules. From the next message on.')
          : msg('Hermes’ own agent, with the providers below. Or a Hermes Agent you already run.'),
      keywords: 'agent backend gateway hermes api server built-in builtin answers chat_backend HERMES_WEBUI_CHAT_BACKEND API_SERVER_KEY url runs',
      control: () =>
        fixed
          ? html`<span class="readonly" data-role="backend-fixed" title=${gateway ? (s.gateway_base_url ?? '') : ''}>
              ${gateway ? html`Hermes Agent${s.gateway_base_url ? html` · <span class="mono">${s.gateway_base_url}</span>` : nothing}` : msg('Built-in agent')}
            </span>`
          : html`${segmented('chat_backend', msg('Answers come from'), BACKENDS(), s.chat_backend, (v) => c.saveBackend(v))}
            ${gateway ? html`<hermes-gateway-settings @hermes-setting-saved=${c.flashSaved}></hermes-gateway-settings>` : nothing}`,
    },
  ];
}

/** Settings → Providers: one row per provider (state, masked key, its actions), then "add an endpoint". */
function providerRows(c: SettingsRowsContext): Row[] {
  const list = c.providers;
  const common = 'provider providers api key keys model models endpoint';
  if (!list) {
    return [
      {
        id: 'providers',
        section: 'Providers',
        label: msg('Providers'),
        hint: c.providersError ? msg(str`Could not load the providers: ${c.providersError}`) : msg('Loading…'),
        keywords: common,
        control: () => nothing,
      },
    ];
  }
  const rows: Row[] = list.providers.map((p) => ({
    id: `provider:${p.id}`,
    section: 'Providers',
    label: providerLabel(p),
    hint: providerHint(p),
    detail: () => providerState(p),
    keywords: `${common} ${p.id} ${p.kind} ${p.kind === 'custom' ? 'self-hosted openai-compatible' : ''} ${p.key_env ?? ''} ${p.base_url ?? ''} ${p.active ? 'active default' : ''} ${p.status} ${p.error ?? ''}`,
    control: () => html`<hermes-provider-row .provider=${p} @hermes-provider-changed=${c.onProviderChanged}></hermes-provider-row>`,
  }));
  const keyless = HOSTED.filter((h) => !list.providers.some((p) => p.id === h.id && p.key_set));
  if (keyless.length) {
    rows.push({
      id: 'add_provider',
      section: 'Providers',
      label: msg('Hosted provider'),
      hint: msg(
        str`Add an API key for ${new Intl.ListFormat(currentLocale() === PSEUDO_LOCALE ? 'en' : currentLocale(), { type: 'disjunction' }).format(keyless.map((h) => h.label))}.`,
      ),
      keywords: `${common} add hosted ${keyless.map((h) => `${h.id} ${h.key_env}`).join(' ')}`,
      control: () => html`<hermes-provider-add .options=${keyless} @hermes-provider-changed=${c.onProviderChanged}></hermes-provider-add>`,
    });
  }
  rows.push({
    id: 'add_endpoint',
    section: 'Providers',
    label: msg('Self-hosted endpoint'),
    hint: msg('Any OpenAI-compatible API: vLLM, llama.cpp, TabbyAPI, Ollama or LM Studio on another machine.'),
    keywords: `${common} add custom self-hosted openai-compatible base url vllm llama ollama lm studio local server`,
    control: () => html`<hermes-endpoint-form @hermes-provider-changed=${c.onProviderChanged}></hermes-endpoint-form>`,
  });
  return rows;
}

/** What the password row says: whether one is needed, and who decides. */
function passwordHint(s: Settings | null | undefined): string {
  if (s?.password_env_var) return msg('Required. Set by HERMES_WEBUI_PASSWORD on the server, so it can only be changed there (then restart Hermes).');
  if (s?.auth_enabled) return msg('Required to open Hermes in a browser.');
  return msg('Not set: anyone who can open this address can use Hermes.');
}

function segmented<T extends string>(name: string, label: string, options: Option<T>[], value: T | undefined, save: (v: T) => void) {
  const all = value && !options.some((o) => o.value === value) ? [...options, { value, label: value }] : options;
  return html`<div class="segmented" role="radiogroup" aria-label=${label}>
    ${all.map(
      (o) => html`<label>
        <input type="radio" name=${name} value=${o.value} .checked=${o.value === value} @change=${() => save(o.value)} />
        <span>${o.label}</span>
      </label>`,
    )}
  </div>`;
}

/** A provider row's quiet description: where it is, and which key it reads. */
function providerHint(p: ProviderRow): string {
  const parts: string[] = [];
  if (p.base_url) parts.push(p.base_url);
  if (p.key_env && p.kind !== 'custom') parts.push(p.key_env);
  return parts.join(' · ');
}

/** Whether it works: ok (with its model count), its error, or that it needs a key. */
function providerState(p: ProviderRow): TemplateResult {
  const active = p.active ? html`<span class="tag">${msg('active')}</span>` : nothing;
  switch (p.status) {
    case 'ok':
      return html`<p class="state ok meta" data-role="provider-status" data-status="ok">
        ${icons.check()} ${msg('Works')}${p.models_count !== undefined ? html` · ${modelCount(p.models_count)}` : nothing} ${active}
      </p>`;
    case 'error':
      return html`<p class="state error meta" data-role="provider-status" data-status="error">${icons.alert()} ${p.error ?? msg('Not working')} ${active}</p>`;
    case 'no_key':
      return html`<p class="state meta" data-role="provider-status" data-status="no_key">${msg('No key yet')} ${active}</p>`;
    default:
      return html`<p class="state meta" data-role="provider-status" data-status="unknown">${msg('Not checked yet')} ${active}</p>`;
  }
}
