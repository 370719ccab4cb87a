import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { ApiError } from '../api/client.js';
import { formatNumber } from '../i18n/format.js';
import { sessionChanges, type SessionChangeFile, type SessionChanges } from '../api/session-changes.js';
import type { FileChange } from '../../src/shared/file-changes.js';
import type { TurnChangesView } from '../state/turns.js';
import { disclosureStyles } from './disclosure-styles.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import '../diff/hermes-diff-view.js';

/** The row's label: `Changed 3 files (+42 −7)`, "1 file" singular. */
export function changesLabel(view: Pick<TurnChangesView, 'files' | 'additions' | 'deletions'>): string {
  const n = view.files.length;
  const [count, added, deleted] = [formatNumber(n), formatNumber(view.additions), formatNumber(view.deletions)];
  return n === 1 ? msg(str`Changed ${count} file (+${added} −${deleted})`) : msg(str`Changed ${count} files (+${added} −${deleted})`);
}

/** What happened to a file, in words (the action itself stays the `data-action` hook). */
function actionLabel(action: FileChange['action']): string {
  const labels = { created: msg('created'), modified: msg('modified'), deleted: msg('deleted'), moved: msg('moved') } as const;
  return labels[action] ?? action;
}

type Undo =
  | { kind: 'idle' }
  | { kind: 'confirming' }
  | { kind: 'running' }
  | { kind: 'done' }
  | { kind: 'conflicts'; paths: string[] }
  | { kind: 'error'; message: string };

/**
 * "Changed N files (+a −d)" under a turn's Activity row: opens the list of files the turn
 * created, edited, moved or deleted; each file expands to its diff. The diffs come from
 * GET /api/session/changes, asked once when the list first opens and kept here. "Undo this
 * turn's changes" asks inline, then POSTs the undo; a file that changed since refuses it and is
 * named. Loaded by hermes-assistant-turn only when a turn has changes.
 *
 * @fires hermes-workspace-changed - on `window`, after an undo restored files
 */
@customElement('hermes-turn-changes')
@localized()
export class HermesTurnChanges extends LitElement {
  @property({ attribute: false }) changes?: TurnChangesView;
  @property() sessionId = '';
  /** A turn is running in the session: the server would refuse an undo, so it waits. */
  @property({ type: Boolean }) busy = false;

  @state() private open = false;
  @state() private expanded = new Set<string>();
  @state() private detail: SessionChanges | null = null;
  @state() private loadError = '';
  @state() private undo: Undo = { kind: 'idle' };
  #loading: Promise<void> | null = null;

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another turn in a reused element: nothing fetched for the old one applies.
    const before = changed.get('changes') as TurnChangesView | undefined;
    if ((changed.has('changes') && before && before.streamId !== this.changes?.streamId) || (changed.has('sessionId') && changed.get('sessionId'))) {
      this.open = false;
      this.expanded = new Set();
      this.detail = null;
      this.loadError = '';
      this.undo = { kind: 'idle' };
      this.#loading = null;
    }
  }

  toggle(open = !this.open): void {
    this.open = open;
    if (open) void this.#load();
  }

  /** The record with its diffs, once per element (again only after a failed try). */
  #load(): Promise<void> {
    const view = this.changes;
    if (!view || !this.sessionId) return Promise.resolve();
    this.#loading ??= (async () => {
      this.loadError = '';
      try {
        const detail = await sessionChanges.get(this.sessionId, view.streamId);
        if (this.changes?.streamId !== view.streamId) return;
        this.detail = detail;
        if (detail.undone) this.undo = { kind: 'done' };
      } catch (err) {
        this.loadError = (err as Error).message;
        this.#loading = null;
      }
    })();
    return this.#loading;
  }

  #toggleFile(path: string): void {
    const next = new Set(this.expanded);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    this.expanded = next;
  }

  async #undo(): Promise<void> {
    const view = this.changes;
    if (!view) return;
    this.undo = { kind: 'running' };
    try {
      await sessionChanges.undo(this.sessionId, view.streamId);
      this.undo = { kind: 'done' };
      if (this.detail) this.detail = { ...this.detail, undone: true };
      emit(window, 'hermes-workspace-changed', { sessionId: this.sessionId });
    } catch (err) {
      const conflicts = err instanceof ApiError ? err.body.conflicts : undefined;
      if (err instanceof ApiError && err.status === 409 && Array.isArray(conflicts) && conflicts.length) {
        this.undo = { kind: 'conflicts', paths: conflicts.map(String) };
      } else if (err instanceof ApiError && err.status === 409 && err.message === 'already undone') {
        this.undo = { kind: 'done' };
      } else {
        this.undo = { kind: 'error', message: (err as Error).message };
      }
    }
  }

  override render() {
    const view = this.changes;
    if (!view?.files.length) return nothing;
    const undone = this.undo.kind === 'done';
    return html`<div class="changes" data-role="turn-changes" data-open=${this.open ? 'true' : 'false'} data-undone=${undone ? 'true' : 'false'}>
      <div class="row">
        <button class="summary" aria-expanded=${this.open ? 'true' : 'false'} data-role="turn-changes-toggle" @click=${() => this.toggle()}>
          <span class="caret">${icons.chevron()}</span>
          <span data-role="turn-changes-label">${changesLabel(view)}</span>
        </button>
        ${undone ? html`<span class="state" data-role="turn-undone" role="status">${msg('Changes undone')}</span>` : nothing}
      </div>
      ${this.open ? this.#body(view) : nothing}
    </div>`;
  }

  #body(view: TurnChangesView) {
    return html`<div class="body">
      <ul class="files" data-role="turn-change-files">
        ${view.files.map((f) => this.#file(f))}
      </ul>
      ${this.loadError ? html`<div class="error" role="alert" data-role="turn-changes-error">${msg(str`Could not load the diffs: ${this.loadError}`)}</div>` : nothing}
      ${this.#undoControls()}
    </div>`;
  }

  #file(f: FileChange) {
    const open = this.expanded.has(f.path);
    return html`<li data-role="turn-change-file" data-path=${f.path} data-action=${f.action}>
      <button class="file" aria-expanded=${open ? 'true' : 'false'} @click=${() => this.#toggleFile(f.path)}>
        <span class="path mono" title=${f.path}>${f.action === 'moved' && f.from ? html`${f.from} <span class="arrow">→</span> ${f.path}` : f.path}</span>
        <span class="action">${actionLabel(f.action)}</span>
        <span class="counts"><span class="add" ?data-zero=${!f.additions}>+${formatNumber(f.additions)}</span> <span class="del" ?data-zero=${!f.deletions}>−${formatNumber(f.deletions)}</span></span>
      </button>
      ${open ? this.#diff(f) : nothing}
    </li>`;
  }

  #diff(f: FileChange) {
    const file: SessionChangeFile | undefined = this.detail?.files.find((d) => d.path === f.path);
    if (!file) {
      const note = this.loadError ? msg('No diff: it could not be loaded.') : this.detail ? msg('No diff recorded for this file.') : msg('Loading the diff…');
      return html`<div class="note" data-role="turn-change-diff">${note}</div>`;
    }
    return html`<div class="diff" data-role="turn-change-diff">
      ${file.binary ? html`<div class="note" data-role="turn-change-binary">${msg('Binary file: no diff to show.')}</div>` : html`<hermes-diff-view .diff=${file.diff}></hermes-diff-view>`}
      ${file.truncated ? html`<div class="note" data-role="turn-change-truncated">${msg('The diff is cut short: it is too large to show in full.')}</div>` : nothing}
    </div>`;
  }

  #undoControls() {
    const u = this.undo;
    // Only once the record is here (it says whether the turn was undone already).
    if (!this.detail || u.kind === 'done') return nothing;
    const n = this.changes?.files.length ?? 0;
    if (u.kind === 'confirming' || u.kind === 'running') {
      return html`<div class="confirm" role="group" aria-label=${msg("Undo this turn's changes")} data-role="turn-undo-confirm">
        <span>${n === 1 ? msg('Put back this file as it was before this turn?') : msg(str`Put back these ${formatNumber(n)} files as they were before this turn?`)}</span>
        <button class="outline danger" data-role="turn-undo-yes" ?disabled=${u.kind === 'running'} @click=${() => void this.#undo()}>
          ${u.kind === 'running' ? msg('Undoing…') : msg('Undo changes')}
        </button>
        <button data-role="turn-undo-no" ?disabled=${u.kind === 'running'} @click=${() => (this.undo = { kind: 'idle' })}>${msg('Keep')}</button>
      </div>`;
    }
    return html`
      ${
        u.kind === 'conflicts'
          ? html`<div class="notice" role="status" data-role="turn-undo-conflicts">
            ${msg('Not undone: these files changed since:')}
            <ul>${u.paths.map((p) => html`<li class="mono">${p}</li>`)}</ul>
          </div>`
          : nothing
      }
      ${u.kind === 'error' ? html`<div class="error" role="alert" data-role="turn-undo-error">${u.message}</div>` : nothing}
      <div>
        <button class="undo" data-role="turn-undo" ?disabled=${this.busy} title=${this.busy ? msg('Wait for the reply to finish') : msg('Restore the files this turn changed')}
          @click=${() => (this.undo = { kind: 'confirming' })}>${icons.retry()} ${msg("Undo this turn's changes")}</button>
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    disclosureStyles,
    css`
      :host {
        display: block;
        font-family: var(--hermes-font-sans);
        font-size: var(--hermes-text-label);
        line-height: var(--hermes-leading-ui);
        color: var(--hermes-fg-muted);
        min-width: 0;
      }
      .row {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
      }
      .summary {
        font-variant-numeric: tabular-nums;
      }
      .state {
        color: var(--hermes-fg-faint);
        font-size: var(--hermes-text-meta);
      }
      .body {
        gap: var(--hermes-space-sm);
      }
      .files {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: 2px;
        min-width: 0;
      }
      .file {
        display: flex;
        align-items: baseline;
        gap: var(--hermes-space-sm);
        width: 100%;
        text-align: left;
        margin-left: calc(-1 * var(--hermes-space-sm));
      }
      .path {
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        color: var(--hermes-fg);
        font-size: var(--hermes-text-label);
      }
      .arrow,
      .action {
        color: var(--hermes-fg-faint);
      }
      .action {
        font-size: var(--hermes-text-meta);
      }
      .counts {
        margin-left: auto;
        font-size: var(--hermes-text-meta);
        font-variant-numeric: tabular-nums;
        white-space: nowrap;
      }
      .add {
        color: color-mix(in srgb, var(--hermes-color-success) 70%, var(--hermes-fg-muted));
      }
      .del {
        color: color-mix(in srgb, var(--hermes-color-error) 70%, var(--hermes-fg-muted));
      }
      /* A zero is no news: faint, not tinted. */
      .counts [data-zero] {
        color: var(--hermes-fg-faint);
      }
      .diff {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
        margin: var(--hermes-space-xs) 0 var(--hermes-space-sm);
        min-width: 0;
      }
      .note {
        color: var(--hermes-fg-faint);
        font-size: var(--hermes-text-meta);
        font-style: italic;
      }
      .confirm {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--hermes-space-sm);
        color: var(--hermes-fg);
      }
      .undo {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        margin-left: calc(-1 * var(--hermes-space-sm));
        color: var(--hermes-fg-muted);
      }
      .undo:hover:not(:disabled) {
        color: var(--hermes-fg);
      }
      .notice {
        color: var(--hermes-fg-muted);
      }
      .notice ul {
        margin: var(--hermes-space-xs) 0 0;
        padding-left: var(--hermes-space-lg);
      }
      .error {
        color: var(--hermes-color-error);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-turn-changes': HermesTurnChanges;
  }
}
