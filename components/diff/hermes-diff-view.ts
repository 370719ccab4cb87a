import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { baseStyles } from '../shared/styles.js';

/** One line of a unified diff as drawn: its kind, the text without the marker, and its line numbers. */
export interface DiffLine {
  kind: 'add' | 'del' | 'context' | 'hunk' | 'note';
  text: string;
  oldNo?: number;
  newNo?: number;
}

/**
 * Reads unified diff text (git's, or the server's jsdiff output) into drawable lines: file
 * headers (`diff --git`, `index`, `---`, `+++`) are dropped, hunk headers kept and numbered from.
 */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const raw of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(raw);
    if (hunk) {
      inHunk = true;
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      lines.push({ kind: 'hunk', text: raw });
      continue;
    }
    if (raw.startsWith('diff --git') || !inHunk) {
      inHunk = false;
      // Outside a hunk only a truncation note or "Binary files differ" is worth showing.
      if (/^(… \[diff truncated|Binary files )/.test(raw)) lines.push({ kind: 'note', text: raw });
      continue;
    }
    if (raw.startsWith('+')) lines.push({ kind: 'add', text: raw.slice(1), newNo: newNo++ });
    else if (raw.startsWith('-')) lines.push({ kind: 'del', text: raw.slice(1), oldNo: oldNo++ });
    else if (raw.startsWith('\\')) lines.push({ kind: 'note', text: raw.slice(1).trim() });
    else if (raw.startsWith(' ')) lines.push({ kind: 'context', text: raw.slice(1), oldNo: oldNo++, newNo: newNo++ });
    else if (raw.startsWith('…')) lines.push({ kind: 'note', text: raw });
  }
  return lines;
}

/**
 * A unified diff drawn quietly (Calm Console): monospace, line numbers in the faint colour,
 * added and removed lines tinted with the success/error colours at low strength, hunk headers
 * as muted separators. Read-only; the text is never interpreted as markup.
 */
@customElement('hermes-diff-view')
@localized()
export class HermesDiffView extends LitElement {
  /** Unified diff text. */
  @property() diff = '';
  /** Shown when there is nothing to draw (an empty diff). */
  @property() empty = '';

  override render() {
    const lines = parseUnifiedDiff(this.diff);
    if (!lines.length) return html`<div class="empty" data-role="diff-empty">${this.empty || msg('No changes')}</div>`;
    return html`<div class="diff" data-role="diff" role="table" aria-label=${msg('Diff')}>
      ${lines.map(
        (l) => html`<div class="line ${l.kind}" role="row" data-kind=${l.kind}>
          ${
            l.kind === 'hunk' || l.kind === 'note'
              ? html`<span class="full" role="cell">${l.text}</span>`
              : html`<span class="no" role="cell" aria-hidden="true">${l.oldNo ?? ''}</span><span class="no" role="cell" aria-hidden="true"
                  >${l.newNo ?? ''}</span
                ><span class="mark" role="cell" aria-hidden="true">${l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : nothing}</span
                ><span class="text" role="cell">${l.text}</span>`
          }
        </div>`,
      )}
    </div>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      .diff {
        font-family: var(--hermes-font-mono);
        font-size: var(--hermes-text-label);
        line-height: var(--hermes-leading-ui);
        background: var(--hermes-code-bg);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        overflow: auto;
        max-height: var(--hermes-diff-max-height, 420px);
      }
      .line {
        display: grid;
        grid-template-columns: 3.5em 3.5em 1.5em 1fr;
        min-width: max-content;
      }
      .no {
        padding: 0 var(--hermes-space-xs);
        text-align: right;
        color: var(--hermes-fg-faint);
        user-select: none;
      }
      .mark {
        text-align: center;
        color: var(--hermes-fg-muted);
        user-select: none;
      }
      .text {
        white-space: pre;
        padding-right: var(--hermes-space-md);
      }
      .add {
        background: color-mix(in srgb, var(--hermes-color-success) 12%, transparent);
      }
      .add .mark {
        color: var(--hermes-color-success);
      }
      .del {
        background: color-mix(in srgb, var(--hermes-color-error) 12%, transparent);
      }
      .del .mark {
        color: var(--hermes-color-error);
      }
      .hunk,
      .note {
        display: block;
        color: var(--hermes-fg-muted);
        padding: 2px var(--hermes-space-sm);
        background: var(--hermes-panel-subtle);
      }
      .full {
        white-space: pre;
      }
      .empty {
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-label);
        padding: var(--hermes-space-sm);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-diff-view': HermesDiffView;
  }
}
