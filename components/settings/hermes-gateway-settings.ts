import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { consume } from '@lit/context';
import { AGENT_PATHS, api, type ProbeResult } from '../api/client.js';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { announceModelsChanged } from '../events.js';
import { gatewayProbeMessage, withCode } from './probe-messages.js';
import { providerFormStyles } from './provider-form-styles.js';
import { emit } from '../events.js';

export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8642';

/** The product's name, shown as it is. */
const AGENT_NAME = 'Hermes Agent';

/** Private-use characters standing in for the three names while the sentence is translated. */
const NAMES: Record<string, string> = { '\uE001': 'HERMES_WEBUI_GATEWAY_API_KEY', '\uE002': '$HERMES_HOME/.env', '\uE003': 'API_SERVER_KEY' };

/** Which key turns use: one translated sentence, the variable and file names set in mono where the language puts them. */
function keyNote() {
  const text = msg(str`Turns use ${'\uE001'} from ${'\uE002'}, else Hermes’ ${'\uE003'}.`);
  return text.split(/([\uE001-\uE003])/).map((part) => (NAMES[part] ? html`<span class="mono">${NAMES[part]}</span>` : part));
}

/**
 * Settings → Agent, when a Hermes Agent answers: its API server's URL (saved on change through
 * POST /api/settings, for the next turn) and "Test" (POST /api/onboarding/probe), which says the
 * path turns take and what it cannot do, or why it failed. A key typed here is only tried, never
 * kept: turns use HERMES_WEBUI_GATEWAY_API_KEY or Hermes' API_SERVER_KEY.
 *
 * @fires hermes-setting-saved - the URL was kept (the dialog says "Saved")
 */
@customElement('hermes-gateway-settings')
@localized()
export class HermesGatewaySettings extends LitElement {
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.ui]);

  /** What was typed for a refused URL, kept so it can be corrected. */
  @state() private draft: string | null = null;
  @state() private error = '';
  @state() private key = '';
  @state() private testing = false;
  @state() private probe: { result: ProbeResult; for: string } | null = null;

  get #url(): string {
    return this.draft ?? this.ui?.settings?.gateway_base_url ?? '';
  }

  async #saveUrl(input: HTMLInputElement): Promise<void> {
    const value = input.value.trim().replace(/\/+$/, '');
    if (value === (this.ui?.settings?.gateway_base_url ?? '')) return void (this.draft = null);
    this.error = '';
    try {
      const settings = await api.saveSettings({ gateway_base_url: value });
      this.draft = null;
      this.ui?.setSettings(settings);
      announceModelsChanged();
      emit(this, 'hermes-setting-saved', null);
    } catch (err) {
      this.draft = input.value;
      this.error = (err as Error).message;
    }
  }

  async #test(): Promise<void> {
    if (this.testing) return;
    const url = (this.renderRoot.querySelector<HTMLInputElement>('#gateway_base_url')?.value ?? this.#url).trim() || DEFAULT_GATEWAY_URL;
    const key = this.key.trim();
    this.testing = true;
    this.probe = null;
    try {
      const result = await api.probe({ provider: 'gateway', base_url: url, ...(key ? { api_key: key } : {}) });
      this.probe = { result, for: url };
    } catch (err) {
      this.probe = { result: { ok: false, error: 'unreachable', detail: (err as Error).message }, for: url };
    } finally {
      this.testing = false;
    }
  }

  #result() {
    if (!this.probe) return nothing;
    const { result, for: url } = this.probe;
    if (result.ok) {
      const agent = result.agent;
      const via = agent?.path ? (AGENT_PATHS[agent.path] ?? agent.path) : null;
      return html`<div class="result" data-role="gateway-probe" data-ok="true" role="status">
        <p class="probe" data-ok="true">${icons.check()} ${msg('Connected')} — ${agent?.label ?? AGENT_NAME}${via ? ` · ${via}` : ''}</p>
        ${
          agent?.limitations.length
            ? html`<details class="limits meta" data-role="gateway-limitations">
              <summary>${msg(str`What this path cannot do (${formatNumber(agent.limitations.length)})`)}</summary>
              <ul>${agent.limitations.map((l) => html`<li>${l}</li>`)}</ul>
            </details>`
            : nothing
        }
      </div>`;
    }
    return html`<div class="result" data-role="gateway-probe" data-ok="false" data-kind=${result.error} role="alert">
      <p class="probe" data-ok="false">${withCode(gatewayProbeMessage(result, url))}</p>
      ${result.detail ? html`<p class="note mono">${result.detail}</p>` : nothing}
    </div>`;
  }

  override render() {
    return html`<div class="fields">
        <label for="gateway_base_url">${msg('API server URL')}</label>
        <input
          id="gateway_base_url"
          name="gateway_base_url"
          type="url"
          class="mono"
          spellcheck="false"
          autocomplete="off"
          placeholder=${DEFAULT_GATEWAY_URL}
          .value=${this.#url}
          aria-invalid=${this.error ? 'true' : 'false'}
          aria-describedby="gateway-url-error"
          @input=${() => (this.probe = null)}
          @change=${(e: Event) => this.#saveUrl(e.target as HTMLInputElement)}
        />
        <label for="gateway_key">${msg('Key, to test')}</label>
        <input
          id="gateway_key"
          name="api_key"
          type="password"
          class="mono"
          autocomplete="off"
          placeholder=${msg('Empty: the key in use')}
          .value=${this.key}
          @input=${(e: Event) => ((this.key = (e.target as HTMLInputElement).value), (this.probe = null))}
        />
      </div>
      <p class="field-error" id="gateway-url-error" role="alert">${this.error}</p>
      <p class="note" data-role="gateway-key-note">
        ${keyNote()} ${msg('A key typed here is only tried, not kept.')}
      </p>
      <div class="buttons">
        <button type="button" class="outline" data-action="test-gateway" ?disabled=${this.testing} @click=${() => this.#test()}>
          ${this.testing ? html`${icons.spinner()} ${msg('Testing…')}` : msg('Test')}
        </button>
      </div>
      ${this.#result()}`;
  }

  static override styles = [
    baseStyles,
    providerFormStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
        padding-top: var(--hermes-space-xs);
      }
      .buttons button {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
      }
      .probe {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        justify-content: flex-end;
        width: 100%;
      }
      .probe svg {
        width: 12px;
        height: 12px;
        flex: none;
      }
      .result {
        display: flex;
        flex-direction: column;
        align-items: flex-end;
        gap: var(--hermes-space-xs);
      }
      .result[data-ok='false'] .probe {
        display: block;
        text-align: right;
      }
      .limits {
        max-width: 420px;
        font-size: var(--hermes-text-label);
        text-align: right;
      }
      .limits summary {
        cursor: pointer;
        color: var(--hermes-fg-muted);
      }
      .limits ul {
        margin: var(--hermes-space-xs) 0 0;
        padding-left: var(--hermes-space-lg);
        text-align: left;
      }
      @media (max-width: 639px) {
        .probe,
        .result[data-ok='false'] .probe {
          justify-content: flex-start;
          text-align: left;
        }
        .result {
          align-items: stretch;
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-gateway-settings': HermesGatewaySettings;
  }
}
