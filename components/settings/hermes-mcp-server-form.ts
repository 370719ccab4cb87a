import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { withMarkup } from '../i18n/markup.js';
import { mcpApi, type McpServerInput, type McpServerRow } from '../api/mcp.js';
import { baseStyles } from '../shared/styles.js';
import { emit } from '../events.js';
import { providerFormStyles } from './provider-form-styles.js';

/** `KEY=value` (env) or `Name: value` (headers) lines, one per line; blank lines are skipped. */
export function parsePairs(text: string, separator: '=' | ':'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf(separator);
    if (at <= 0) throw new Error(msg(str`“${line}” needs ${separator === '=' ? 'KEY=value' : 'Name: value'}`));
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** Code, shown as it is: the protocol's name and the `${VAR}` reference syntax. */
const TRANSPORT_HTTP = 'HTTP';
const VAR_REF = ['$', '{VAR}'].join('');

const pairsText = (pairs: Record<string, string> | undefined, separator: string) =>
  Object.entries(pairs ?? {})
    .map(([k, v]) => `${k}${separator}${v}`)
    .join('\n');

/** Arguments one per line, so an argument may hold spaces. */
const argsOf = (text: string) =>
  text
    .split('\n')
    .map((a) => a.trim())
    .filter(Boolean);

/**
 * Adds or edits one MCP server (PUT /api/mcp/servers/<name>): a command with its arguments and
 * environment (stdio), or a URL with its headers (streamable HTTP). Masked credentials are shown
 * as `••••••` and sent back as they are, which keeps the stored value.
 *
 * @fires hermes-mcp-saved - the server was written to config.yaml
 * @fires hermes-mcp-cancel - the form was closed without saving
 */
@customElement('hermes-mcp-server-form')
@localized()
export class HermesMcpServerForm extends LitElement {
  /** The server being edited; null adds one. */
  @property({ attribute: false }) server: McpServerRow | null = null;
  @state() private transport: 'stdio' | 'http' = 'stdio';
  @state() private error = '';
  @state() private busy = false;

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('server')) this.transport = this.server?.transport === 'http' ? 'http' : 'stdio';
  }

  override firstUpdated() {
    this.renderRoot.querySelector<HTMLInputElement>(this.server ? '#mcp-command, #mcp-url' : '#mcp-name')?.focus();
  }

  #value(id: string) {
    return (this.renderRoot.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${id}`)?.value ?? '').trim();
  }

  async #save(e: Event) {
    e.preventDefault();
    if (this.busy) return;
    const name = this.server?.name ?? this.#value('mcp-name');
    this.error = '';
    let body: McpServerInput;
    try {
      if (!name) throw new Error(msg('Give the server a name'));
      const timeout = this.#value('mcp-timeout');
      body =
        this.transport === 'http'
          ? { url: this.#value('mcp-url'), headers: parsePairs(this.#value('mcp-headers'), ':') }
          : { command: this.#value('mcp-command'), args: argsOf(this.#value('mcp-args')), env: parsePairs(this.#value('mcp-env'), '=') };
      if (this.transport === 'http' && !body.url) throw new Error(msg('The URL is required'));
      if (this.transport === 'stdio' && !body.command) throw new Error(msg('The command is required'));
      if (timeout) body.timeout = Number(timeout);
    } catch (err) {
      this.error = (err as Error).message;
      return;
    }
    this.busy = true;
    try {
      const { server } = await mcpApi.save(name, body);
      emit(this, 'hermes-mcp-saved', { name: server.name });
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      emit(this, 'hermes-mcp-cancel', null);
    }
  }

  override render() {
    const s = this.server;
    const http = this.transport === 'http';
    return html`<form data-role="mcp-form" @submit=${this.#save} @keydown=${this.#onKeyDown} @input=${() => (this.error = '')} novalidate>
      <div class="fields">
        <label for="mcp-name">${msg('Name')}</label>
        <input id="mcp-name" class="mono" autocomplete="off" spellcheck="false" placeholder="github" .value=${s?.name ?? ''} ?readonly=${!!s} />
        <span class="label" id="mcp-transport-label">${msg('Transport')}</span>
        <div class="segmented" role="radiogroup" aria-labelledby="mcp-transport-label">
          ${(['stdio', 'http'] as const).map(
            (t) => html`<label>
              <input type="radio" name="mcp-transport" value=${t} .checked=${this.transport === t} @change=${() => (this.transport = t)} />
              <span>${t === 'stdio' ? msg('Command') : TRANSPORT_HTTP}</span>
            </label>`,
          )}
        </div>
        ${
          http
            ? html`<label for="mcp-url">${msg('URL')}</label>
              <input id="mcp-url" class="mono" type="url" autocomplete="off" spellcheck="false" placeholder="https://mcp.example.com/mcp" .value=${s?.url ?? ''} />
              <label for="mcp-headers">${msg('Headers')}</label>
              <textarea id="mcp-headers" class="mono" rows="2" spellcheck="false" placeholder="Authorization: Bearer \${TOKEN}" .value=${pairsText(s?.headers, ': ')}></textarea>`
            : html`<label for="mcp-command">${msg('Command')}</label>
              <input id="mcp-command" class="mono" autocomplete="off" spellcheck="false" placeholder="npx" .value=${s?.command ?? ''} />
              <label for="mcp-args">${msg('Arguments')}</label>
              <textarea id="mcp-args" class="mono" rows="2" spellcheck="false" placeholder=${msg('One per line')} .value=${(s?.args ?? []).join('\n')}></textarea>
              <label for="mcp-env">${msg('Environment')}</label>
              <textarea id="mcp-env" class="mono" rows="2" spellcheck="false" placeholder="GITHUB_TOKEN=\${GITHUB_TOKEN}" .value=${pairsText(s?.env, '=')}></textarea>`
        }
        <label for="mcp-timeout">${msg('Tool timeout (s)')}</label>
        <input id="mcp-timeout" class="mono" inputmode="numeric" autocomplete="off" placeholder=${s ? String(s.timeout) : '300'} .value=${s?.timeout_set ? String(s.timeout) : ''} />
      </div>
      <p class="note">${withMarkup((v) => msg(str`${v} reads the variable from Hermes’ .env; •••••• keeps the stored value.`), VAR_REF)}</p>
      <p class="field-error" role="alert">${this.error || nothing}</p>
      <div class="buttons">
        <button type="button" data-action="cancel" @click=${() => emit(this, 'hermes-mcp-cancel', null)}>${msg('Cancel')}</button>
        <button type="submit" class="primary" data-action="save-mcp" ?disabled=${this.busy}>${this.busy ? msg('Saving…') : s ? msg('Save') : msg('Add server')}</button>
      </div>
    </form>`;
  }

  static override styles = [
    baseStyles,
    providerFormStyles,
    css`
      .fields {
        grid-template-columns: max-content minmax(0, 340px);
      }
      .fields .label {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        text-align: right;
      }
      textarea {
        width: 100%;
        font-size: var(--hermes-text-label);
        resize: vertical;
      }
      .segmented {
        display: inline-flex;
        gap: var(--hermes-space-xs);
      }
      .segmented label {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        font-size: var(--hermes-text-label);
      }
      input[readonly] {
        color: var(--hermes-fg-muted);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-mcp-server-form': HermesMcpServerForm;
  }
}
