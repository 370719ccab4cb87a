import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import { formatNumber } from '../i18n/format.js';
import { formatSeconds } from './usage-format.js';
import { emit } from '../events.js';
import type { SubagentView } from '../state/subagents.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';

/** A child's state in words, asked at render time so a language switch reaches it. */
function statusLabel(status: SubagentView['status']): string {
  const labels: Record<SubagentView['status'], string> = {
    running: msg('Running'),
    completed: msg('Done'),
    failed: msg('Failed'),
    interrupted: msg('Cancelled'),
    timeout: msg('Timed out'),
    error: msg('Failed'),
  };
  return labels[status];
}

/**
 * delegate_task's children as a tree inside the Activity row: each child session with its goal,
 * what it is doing, a way to open it (its own live stream) and, while it runs, to cancel it.
 */
@customElement('hermes-subagent-tree')
@localized()
export class HermesSubagentTree extends LitElement {
  @property({ attribute: false }) subagents: SubagentView[] = [];
  /** Children whose cancel was sent and not yet answered by a closing row. */
  @state() private cancelling = new Set<string>();

  async #cancel(row: SubagentView): Promise<void> {
    if (!row.stream_id) return;
    this.cancelling = new Set([...this.cancelling, row.session_id]);
    try {
      await api.cancel(row.stream_id);
    } catch {
      // The run may have ended meanwhile; its closing row says how.
      const next = new Set(this.cancelling);
      next.delete(row.session_id);
      this.cancelling = next;
    }
  }

  #row(row: SubagentView, children: Map<string, SubagentView[]>): unknown {
    const running = row.status === 'running';
    const tool = row.tool;
    const doing = running ? (tool ? msg(str`running ${tool}`) : msg('thinking')) : statusLabel(row.status);
    const count = formatNumber(row.tool_count ?? 0);
    const meta = [
      doing,
      row.tool_count ? (row.tool_count === 1 ? msg(str`${count} tool`) : msg(str`${count} tools`)) : '',
      row.duration !== undefined ? formatSeconds(row.duration) : '',
    ]
      .filter(Boolean)
      .join(' · ');
    const kids = children.get(row.session_id) ?? [];
    return html`<li data-role="subagent" data-session=${row.session_id} data-status=${row.status}>
      <div class="row">
        <span class="status" title=${statusLabel(row.status)} aria-label=${statusLabel(row.status)}>
          ${running ? icons.spinner() : row.status === 'completed' ? icons.check() : icons.alert()}
        </span>
        <span class="goal" title=${row.goal}>${row.goal}</span>
        <span class="meta" data-role="subagent-meta">${meta}</span>
        <button class="action" data-role="subagent-open" title=${msg("Open this subagent's session")} @click=${() => emit(this, 'hermes-open-session', { sessionId: row.session_id })}>
          ${msg('Open')}
        </button>
        ${
          running && row.stream_id
            ? html`<button
                class="action"
                data-role="subagent-cancel"
                ?disabled=${this.cancelling.has(row.session_id)}
                title=${msg('Cancel this subagent')}
                @click=${() => void this.#cancel(row)}
              >
                ${icons.stop()} ${msg('Cancel')}
              </button>`
            : nothing
        }
      </div>
      ${kids.length ? html`<ul>${kids.map((k) => this.#row(k, children))}</ul>` : nothing}
    </li>`;
  }

  override render() {
    if (!this.subagents.length) return nothing;
    const ids = new Set(this.subagents.map((s) => s.session_id));
    // Rows arrive as children start; the tree lists them in task order.
    const ordered = [...this.subagents].sort((a, b) => a.task_index - b.task_index);
    const children = new Map<string, SubagentView[]>();
    const roots: SubagentView[] = [];
    for (const s of ordered) {
      if (ids.has(s.parent_session_id)) children.set(s.parent_session_id, [...(children.get(s.parent_session_id) ?? []), s]);
      else roots.push(s);
    }
    return html`<ul class="tree" data-role="subagent-tree" aria-label=${msg('Subagents')}>
      ${roots.map((r) => this.#row(r, children))}
    </ul>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      ul ul {
        padding-left: var(--hermes-space-md);
        border-left: var(--hermes-border-width) solid var(--hermes-border);
      }
      .tree {
        margin-top: var(--hermes-space-xs);
      }
      .row {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-height: 28px;
        color: var(--hermes-fg-muted);
      }
      .status {
        display: inline-grid;
        flex: none;
      }
      [data-status='failed'] > .row .status,
      [data-status='error'] > .row .status,
      [data-status='timeout'] > .row .status {
        color: var(--hermes-color-error);
      }
      .goal {
        flex: 1 1 auto;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        color: var(--hermes-fg);
      }
      .meta {
        flex: none;
        font-size: var(--hermes-text-label);
      }
      .action {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        flex: none;
        padding: 0 var(--hermes-space-sm);
        border-radius: var(--hermes-radius-sm);
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-label);
      }
      .action:hover:not([disabled]) {
        color: var(--hermes-fg);
        background: var(--hermes-hover);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-subagent-tree': HermesSubagentTree;
  }
}
