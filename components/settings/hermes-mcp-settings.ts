import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { mcpApi, type McpServerRow } from '../api/mcp.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { inlineControlStyles } from './provider-form-styles.js';
import './hermes-mcp-server-form.js';

// A function, so each render reads the current language.
const statusText = (): Record<McpServerRow['status'], string> => ({
  active: msg('Connected'),
  configured: msg('Not started yet'),
  connecting: msg('Connecting…'),
  failed: msg('Failed to connect'),
  disabled: msg('Off'),
  invalid_config: msg('Invalid entry'),
});
/** Transport names are config values, shown as they are. */
const TRANSPORT: Record<string, string> = { http: 'HTTP', stdio: 'stdio' };

/**
 * Settings → MCP servers: the `mcp_servers` of config.yaml with each one's status and tool
 * count (servers start with the next turn; this list never starts one), and add, edit,
 * enable/disable and remove. Edits keep config.yaml's comments and `${VAR}` references.
 *
 * @fires hermes-setting-saved - a change was written (the dialog says "Saved")
 */
@customElement('hermes-mcp-settings')
@localized()
export class HermesMcpSettings extends LitElement {
  @state() private servers: McpServerRow[] | null = null;
  @state() private error = '';
  /** The form: a server's name to edit it, `''` to add one, null when closed. */
  @state() private editing: string | null = null;
  @state() private confirmRemove: string | null = null;
  @state() private busy: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    try {
      this.servers = (await mcpApi.servers()).servers;
      this.error = '';
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  async #act(name: string, work: () => Promise<unknown>) {
    if (this.busy) return;
    this.busy = name;
    this.error = '';
    try {
      await work();
      emit(this, 'hermes-setting-saved', null);
      await this.load();
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = null;
    }
  }

  #toggle(s: McpServerRow, enabled: boolean) {
    return this.#act(s.name, () => mcpApi.setEnabled(s.name, enabled));
  }

  #remove(s: McpServerRow) {
    this.confirmRemove = null;
    return this.#act(s.name, () => mcpApi.remove(s.name));
  }

  #saved = async () => {
    this.editing = null;
    emit(this, 'hermes-setting-saved', null);
    await this.load();
  };

  #row(s: McpServerRow) {
    const where = s.transport === 'http' ? s.url : [s.command, ...(s.args ?? [])].join(' ');
    const tools = s.tool_count === null ? '' : ` · ${s.tool_count === 1 ? msg('1 tool') : msg(str`${formatNumber(s.tool_count)} tools`)}`;
    if (this.editing === s.name) {
      return html`<li data-server=${s.name}>
        <hermes-mcp-server-form .server=${s} @hermes-mcp-saved=${this.#saved} @hermes-mcp-cancel=${() => (this.editing = null)}></hermes-mcp-server-form>
      </li>`;
    }
    return html`<li data-server=${s.name} data-status=${s.status}>
      <div class="about">
        <span class="name">${s.name}</span> <span class="tag">${TRANSPORT[s.transport] ?? msg('invalid')}</span>
        <p class="where mono meta" title=${where ?? ''}>${where || '—'}</p>
        <p class="state meta" data-role="mcp-status" data-status=${s.status}>
          ${s.status === 'active' ? icons.check() : s.status === 'failed' ? icons.alert() : nothing} ${statusText()[s.status] ?? s.status}${tools}
        </p>
        ${s.error ? html`<p class="error meta mono" data-role="mcp-error">${s.error}</p>` : nothing}
      </div>
      <div class="controls">
        ${
          s.transport === 'invalid'
            ? nothing
            : html`<input
              type="checkbox"
              role="switch"
              class="switch"
              aria-label=${msg(str`Enable ${s.name}`)}
              data-action="toggle"
              .checked=${s.enabled}
              ?disabled=${this.busy === s.name}
              @change=${(e: Event) => this.#toggle(s, (e.target as HTMLInputElement).checked)}
            />`
        }
        ${
          this.confirmRemove === s.name
            ? html`<button class="danger" data-action="confirm-remove" @click=${() => this.#remove(s)}>${msg(str`Remove ${s.name}`)}</button>
              <button data-action="keep" @click=${() => (this.confirmRemove = null)}>${msg('Keep')}</button>`
            : html`${s.transport === 'invalid' ? nothing : html`<button data-action="edit" @click=${() => ((this.editing = s.name), (this.confirmRemove = null))}>${msg('Edit')}</button>`}
              <button data-action="remove" @click=${() => (this.confirmRemove = s.name)}>${msg('Remove')}</button>`
        }
      </div>
    </li>`;
  }

  override render() {
    const list = this.servers;
    return html`<div class="mcp" data-role="mcp-servers">
      ${list === null && !this.error ? html`<p class="meta">${msg('Loading…')}</p>` : nothing}
      ${list?.length ? html`<ul>${list.map((s) => this.#row(s))}</ul>` : list ? html`<p class="meta empty">${msg('No MCP servers yet.')}</p>` : nothing}
      <p class="field-error" role="alert">${this.error || nothing}</p>
      ${
        this.editing === ''
          ? html`<hermes-mcp-server-form @hermes-mcp-saved=${this.#saved} @hermes-mcp-cancel=${() => (this.editing = null)}></hermes-mcp-server-form>`
          : html`<div class="actions">
            <button class="outline" data-action="refresh" @click=${() => void this.load()}>${msg('Refresh')}</button>
            <button class="outline" data-action="add-mcp" @click=${() => (this.editing = '')}>${msg('Add server…')}</button>
          </div>`
      }
    </div>`;
  }

  static override styles = [
    baseStyles,
    inlineControlStyles,
    css`
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
      }
      li {
        display: flex;
        justify-content: space-between;
        align-items: flex-start;
        gap: var(--hermes-space-md);
        padding: var(--hermes-space-sm) 0;
        border-bottom: 1px solid var(--hermes-border);
      }
      li:has(hermes-mcp-server-form) {
        display: block;
      }
      .about {
        min-width: 0;
      }
      .name {
        font-weight: 600;
      }
      .tag {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
        border: 1px solid var(--hermes-border);
        border-radius: var(--hermes-radius-sm);
        padding: 0 var(--hermes-space-xs);
      }
      .where {
        margin: var(--hermes-space-xs) 0 0;
        max-width: 340px;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .state,
      .error,
      .empty {
        margin: var(--hermes-space-xs) 0 0;
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
      }
      .state[data-status='active'] {
        color: var(--hermes-color-success);
      }
      .state[data-status='failed'],
      .error,
      .field-error {
        color: var(--hermes-color-error);
      }
      .field-error {
        margin: var(--hermes-space-xs) 0 0;
        font-size: var(--hermes-text-label);
      }
      .field-error:empty {
        display: none;
      }
      .controls {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        flex-shrink: 0;
      }
      .actions {
        margin-top: var(--hermes-space-sm);
      }
      /* The dialog's switch (its styles do not reach into this shadow root). */
      .switch {
        appearance: none;
        position: relative;
        width: 36px;
        height: 20px;
        margin: 0;
        border-radius: var(--hermes-radius-pill);
        background: var(--hermes-panel-subtle);
        cursor: pointer;
        transition: background var(--hermes-duration);
      }
      .switch::after {
        content: '';
        position: absolute;
        top: 2px;
        left: 2px;
        width: 14px;
        height: 14px;
        border-radius: var(--hermes-radius-pill);
        background: var(--hermes-fg-muted);
        transition: transform var(--hermes-duration);
      }
      .switch:checked {
        background: var(--hermes-accent);
      }
      .switch:checked::after {
        transform: translateX(16px);
        background: var(--hermes-color-ink);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-mcp-settings': HermesMcpSettings;
  }
}
