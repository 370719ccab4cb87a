import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { AGENT_PATHS as PATHS, apiUrl, type AgentInfo } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';

/**
 * A quiet note in the composer bar when a Hermes Agent gateway answers instead of the builtin
 * agent: which path turns take ("Hermes Agent · runs API") and, on click, what that path cannot
 * do. Shows nothing for the builtin agent. Asks again when the backend may have changed
 * (`hermes-models-changed`: Settings → Agent, the wizard).
 */
@customElement('hermes-agent-badge')
@localized()
export class HermesAgentBadge extends LitElement {
  @state() private info: AgentInfo | null = null;
  @state() private open = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
    window.addEventListener('hermes-models-changed', this.#onChanged);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hermes-models-changed', this.#onChanged);
  }

  #onChanged = () => void this.#load();

  async #load(): Promise<void> {
    try {
      const res = await fetch(apiUrl('/api/agent'), { credentials: 'same-origin' });
      if (res.ok) this.info = (await res.json()) as AgentInfo;
    } catch {
      // Offline: say nothing rather than something wrong.
    }
  }

  #toggle = () => {
    this.open = !this.open;
    // Asking again when opened: the gateway may have come up (or gone away) meanwhile.
    if (this.open)
      void fetch(apiUrl('/api/agent?refresh=1'), { credentials: 'same-origin' })
        .then(async (r) => (r.ok ? (this.info = (await r.json()) as AgentInfo) : null))
        .catch(() => {});
  };

  #onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.open) {
      e.stopPropagation();
      this.open = false;
    }
  };

  #onBlur = () => {
    this.open = false;
  };

  override render() {
    const info = this.info;
    if (!info || info.kind === 'builtin') return nothing;
    const via = info.reachable ? (info.path ? (PATHS[info.path] ?? info.path) : msg('unusable')) : msg('unreachable');
    return html`
      <button class="badge" data-role="agent-badge" data-path=${info.path ?? 'none'} ?data-down=${!info.reachable} aria-expanded=${this.open} title=${msg(str`${info.label} at ${info.base_url ?? ''}`)} @click=${this.#toggle} @keydown=${this.#onKey} @focusout=${this.#onBlur}>
        <span class="dot" aria-hidden="true"></span>${info.label} · ${via}
      </button>
      ${
        this.open
          ? html`<div class="panel" data-role="agent-details" role="note">
            ${info.error ? html`<p class="error">${info.error}${info.hint ? html`<br />${info.hint}` : nothing}</p>` : nothing}
            ${info.limitations.length ? html`<ul>${info.limitations.map((l) => html`<li>${l}</li>`)}</ul>` : nothing}
          </div>`
          : nothing
      }
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        position: relative;
        display: inline-flex;
        min-width: 0;
      }
      .badge {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-height: 32px;
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .dot {
        width: 6px;
        height: 6px;
        border-radius: var(--hermes-radius-pill);
        background: var(--hermes-color-success);
      }
      .badge[data-down] .dot {
        background: var(--hermes-color-error);
      }
      .panel {
        position: absolute;
        bottom: calc(100% + var(--hermes-space-xs));
        left: 0;
        z-index: 2;
        width: min(360px, 80vw);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      ul {
        margin: 0;
        padding-left: var(--hermes-space-md);
      }
      li + li {
        margin-top: var(--hermes-space-xs);
      }
      .error {
        margin: 0 0 var(--hermes-space-xs);
        color: var(--hermes-color-error);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-agent-badge': HermesAgentBadge;
  }
}
