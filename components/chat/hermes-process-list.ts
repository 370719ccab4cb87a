import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { localized, msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import type { BackgroundProcessRow } from '../../src/shared/processes.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';

/** How often a running process's status and output are asked again while it shows. */
const REFRESH_MS = 2000;

export { startedProcessIds } from './process-ids.js';

/** "running · pid 42", "exited 0", "exited 137 (killed)": one whole message each, so each language words it. */
function processStatus(r: BackgroundProcessRow): string {
  if (r.status === 'running') return msg(str`running · pid ${r.pid}`);
  const code = r.exit_code ?? '?';
  return r.completion_reason === 'killed' ? msg(str`exited ${code} (killed)`) : msg(str`exited ${code}`);
}

/**
 * The background processes a turn started, under its Activity summary: command, running or
 * exit code, and the latest output line. Asked from GET /api/session/processes, so it is right
 * after a reload and keeps refreshing while one is still running.
 */
@customElement('hermes-process-list')
@localized()
export class HermesProcessList extends LitElement {
  @property() sessionId = '';
  @property({ attribute: false }) ids: string[] = [];
  @state() private rows: BackgroundProcessRow[] = [];
  @state() private loaded = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #generation = 0;

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('sessionId') || (changed.has('ids') && changed.get('ids')?.join() !== this.ids.join())) void this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#timer);
    this.#generation++;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) void this.refresh();
  }

  async refresh(): Promise<void> {
    clearTimeout(this.#timer);
    const generation = ++this.#generation;
    if (!this.sessionId || !this.ids.length) return;
    try {
      const all = await api.sessionProcesses(this.sessionId);
      if (generation !== this.#generation) return;
      this.rows = all.filter((r) => this.ids.includes(r.session_id));
      this.loaded = true;
    } catch {
      if (generation !== this.#generation) return;
    }
    if (this.isConnected && (!this.loaded || this.rows.some((r) => r.status === 'running'))) {
      this.#timer = setTimeout(() => void this.refresh(), REFRESH_MS);
    }
  }

  override render() {
    if (!this.ids.length) return nothing;
    const known = new Set(this.rows.map((r) => r.session_id));
    // A process the server no longer tracks (deleted, pruned after 30 min, a restart) is gone.
    const gone = this.loaded ? this.ids.filter((id) => !known.has(id)) : [];
    return html`
      <ul class="list" data-role="process-list" aria-label=${msg('Background processes')}>
        ${repeat(
          this.rows,
          (r) => r.session_id,
          (r) => html`<li class="row" data-role="process-row" data-status=${r.status} data-process=${r.session_id} title=${r.cwd}>
            <span class="icon">${icons.terminal()}</span>
            <code class="command">${r.command}</code>
            <span class="status" data-role="process-status">${processStatus(r)}</span>
            ${r.output_preview.trim() ? html`<span class="tail">${r.output_preview.trimEnd().split('\n').at(-1)}</span>` : nothing}
          </li>`,
        )}
        ${gone.map(
          (id) => html`<li class="row" data-role="process-row" data-status="gone" data-process=${id}>
            <span class="icon">${icons.terminal()}</span><code class="command">${id}</code><span class="status">${msg('no longer tracked')}</span>
          </li>`,
        )}
      </ul>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .list {
        list-style: none;
        margin: var(--hermes-space-xs) 0 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
      }
      .row {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        min-width: 0;
      }
      .icon {
        display: inline-grid;
        flex: none;
      }
      .command {
        font-family: var(--hermes-font-mono);
        color: var(--hermes-fg);
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        max-width: 40ch;
      }
      .status {
        flex: none;
      }
      .row[data-status='running'] .status {
        color: var(--hermes-color-success);
      }
      .tail {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        font-family: var(--hermes-font-mono);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-process-list': HermesProcessList;
  }
}
