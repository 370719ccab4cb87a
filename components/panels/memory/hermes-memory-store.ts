import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber as fmt } from '../../i18n/format.js';
import { serializeEntries, usedChars } from '../../../src/agent/tools/memory-store.js';
import type { MemorySectionInfo, MemorySnapshot } from '../../api/memory.js';
import { baseStyles } from '../../shared/styles.js';
import { panelState } from '../panel-state.js';
import { saveSection } from './memory-save.js';

type Store = 'memory' | 'user';

/** Drafts of new entries survive leaving the panel and a reload. */
const drafts = panelState('memory', { add_memory: '', add_user: '' });

/** The gauge warns from 80 % of the limit, as a file near its budget makes the agent consolidate. */
const WARN_AT = 0.8;

/**
 * One of Hermes' curated memory stores (MEMORY.md or USER.md) as its `§` entries: each can be
 * edited or removed, a box adds one, and a gauge shows the characters against the limit
 * (projected with the draft being typed). A refused save keeps the user's text.
 */
@customElement('hermes-memory-store')
@localized()
export class HermesMemoryStore extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      header {
        display: flex;
        align-items: baseline;
        gap: var(--hermes-space-sm);
        flex-wrap: wrap;
      }
      h3 {
        margin: 0;
        font-size: var(--hermes-text-body, 15px);
        font-weight: 600;
      }
      .path {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      [data-role='memory-usage'] {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      .bar {
        width: 96px;
        height: 4px;
        border-radius: var(--hermes-radius-pill, 999px);
        background: var(--hermes-panel-subtle);
        overflow: hidden;
      }
      .bar > span {
        display: block;
        height: 100%;
        background: var(--hermes-accent);
      }
      [data-state='warn'] .bar > span {
        background: var(--hermes-color-warning);
      }
      [data-state='over'] {
        color: var(--hermes-color-error);
      }
      [data-state='over'] .bar > span {
        background: var(--hermes-color-error);
      }
      ol {
        list-style: none;
        margin: var(--hermes-space-sm) 0;
        padding: 0;
        border-top: var(--hermes-border-width) solid var(--hermes-border);
      }
      li {
        display: flex;
        gap: var(--hermes-space-sm);
        align-items: flex-start;
        padding: var(--hermes-space-sm) 0;
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      }
      .text {
        flex: 1;
        min-width: 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .actions {
        display: flex;
        gap: var(--hermes-space-xs);
        flex-shrink: 0;
      }
      textarea {
        flex: 1;
        width: 100%;
        min-height: 3.2em;
        resize: vertical;
      }
      .add {
        display: flex;
        gap: var(--hermes-space-sm);
        align-items: flex-end;
      }
      .note {
        margin: var(--hermes-space-sm) 0;
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      [role='alert'] {
        color: var(--hermes-color-error);
      }
    `,
  ];

  @property() section: Store = 'memory';
  @property() label = '';
  @property() path = '';
  @property({ attribute: false }) info: MemorySectionInfo | null = null;
  @property({ attribute: false }) mtime: number | null = null;
  /** Called with the server's answer after a save; `onReload` when the user asks to reload. */
  @property({ attribute: false }) onSaved: (snapshot: MemorySnapshot) => void = () => {};
  @property({ attribute: false }) onReload: () => void = () => {};

  @state() private editing: number | null = null;
  @state() private editDraft = '';
  @state() private addDraft = '';
  @state() private problem: { message: string; conflict: boolean } | null = null;
  @state() private busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    this.addDraft = drafts.get()[`add_${this.section}`];
  }

  private get entries(): string[] {
    return this.info?.entries ?? [];
  }

  /** The entries as they would be saved with the drafts typed now. */
  private proposed(): string[] {
    const next = this.entries.map((e, i) => (i === this.editing ? this.editDraft.trim() : e));
    if (this.addDraft.trim()) next.push(this.addDraft.trim());
    return next.filter(Boolean);
  }

  private async save(entries: string[], done: () => void): Promise<void> {
    this.busy = true;
    try {
      const outcome = await saveSection(this.section, serializeEntries(entries), this.mtime);
      if (outcome.kind === 'saved') {
        this.problem = null;
        done();
        this.onSaved(outcome.snapshot);
      } else {
        this.problem = { message: outcome.message, conflict: outcome.kind === 'conflict' };
      }
    } catch (err) {
      this.problem = { message: (err as Error).message, conflict: false };
    } finally {
      this.busy = false;
    }
  }

  private setAddDraft(value: string): void {
    this.addDraft = value;
    drafts.set({ [`add_${this.section}`]: value });
  }

  private saveEdit(): void {
    const next = this.entries.map((e, i) => (i === this.editing ? this.editDraft.trim() : e)).filter(Boolean);
    void this.save(next, () => {
      this.editing = null;
      this.editDraft = '';
    });
  }

  private add(): void {
    const text = this.addDraft.trim();
    if (!text) return;
    void this.save([...this.entries, text], () => this.setAddDraft(''));
  }

  private removeEntry(index: number): void {
    void this.save(
      this.entries.filter((_, i) => i !== index),
      () => {
        if (this.editing === index) this.editing = null;
      },
    );
  }

  private renderUsage() {
    const limit = this.info?.limit ?? 0;
    // The server counts the file's real characters; the drafts change it by what they add to the shown text.
    const used = (this.info?.used ?? 0) + usedChars(this.proposed()) - usedChars(this.entries);
    const level = used > limit ? 'over' : used >= limit * WARN_AT ? 'warn' : 'ok';
    const width = limit > 0 ? Math.min(100, (used / limit) * 100) : 0;
    return html`<div data-role="memory-usage" data-state=${level} data-used=${used} data-limit=${limit} role="meter" aria-label=${msg(str`${this.label}: characters used`)} aria-valuemin="0" aria-valuemax=${limit} aria-valuenow=${used}>
      <span class="bar"><span style="width: ${width}%"></span></span>
      <span>${fmt(used)} / ${fmt(limit)}${level === 'over' ? ` — ${msg('over the limit')}` : level === 'warn' ? ` — ${msg('near the limit')}` : ''}</span>
    </div>`;
  }

  private renderEntry(entry: string, index: number, locked: boolean) {
    if (this.editing === index) {
      return html`<li data-role="memory-entry" data-index=${index} data-editing>
        <textarea data-role="memory-entry-input" aria-label=${msg(str`Edit entry ${fmt(index + 1)}`)} .value=${this.editDraft} @input=${(e: Event) => (this.editDraft = (e.target as HTMLTextAreaElement).value)}></textarea>
        <span class="actions">
          <button class="primary" data-role="memory-entry-save" ?disabled=${this.busy} @click=${() => this.saveEdit()}>${msg('Save')}</button>
          <button data-role="memory-entry-cancel" @click=${() => ((this.editing = null), (this.problem = null))}>${msg('Cancel')}</button>
        </span>
      </li>`;
    }
    return html`<li data-role="memory-entry" data-index=${index}>
      <span class="text">${entry}</span>
      <span class="actions">
        <button data-role="memory-entry-edit" aria-label=${msg(str`Edit entry ${fmt(index + 1)}`)} ?disabled=${locked || this.busy} @click=${() => ((this.editing = index), (this.editDraft = entry))}>${msg('Edit')}</button>
        <button class="danger" data-role="memory-entry-remove" aria-label=${msg(str`Remove entry ${fmt(index + 1)}`)} ?disabled=${locked || this.busy} @click=${() => this.removeEntry(index)}>${msg('Remove')}</button>
      </span>
    </li>`;
  }

  override render() {
    const info = this.info;
    const file = this.section === 'memory' ? 'MEMORY.md' : 'USER.md';
    // The config.yaml line that turned the store off, as the file spells it.
    const off = `${this.section === 'memory' ? 'memory.memory_enabled' : 'memory.user_profile_enabled'}: false`;
    if (info && !info.enabled) {
      return html`<section data-role="memory-section" data-section=${this.section}>
        <header><h3>${this.label}</h3></header>
        <p class="note" data-role="memory-disabled">${msg(str`Turned off in config.yaml: the agent neither reads nor writes ${file}.`)} <code>${off}</code></p>
      </section>`;
    }
    const locked = !info?.writable;
    return html`<section data-role="memory-section" data-section=${this.section}>
      <header>
        <h3>${this.label}</h3>
        <span class="path meta mono" title=${this.path}>${file}</span>
        ${info ? this.renderUsage() : nothing}
      </header>
      ${info?.hint ? html`<p class="note" data-role="memory-hint">${info.hint}</p>` : nothing}
      ${
        this.entries.length
          ? html`<ol>
            ${this.entries.map((e, i) => this.renderEntry(e, i, locked))}
          </ol>`
          : html`<p class="note">${msg('No entries yet.')}</p>`
      }
      <div class="add">
        <textarea
          data-role="memory-add-input"
          aria-label=${msg(str`New entry in ${this.label}`)}
          placeholder=${msg('Add an entry…')}
          ?disabled=${locked}
          .value=${this.addDraft}
          @input=${(e: Event) => this.setAddDraft((e.target as HTMLTextAreaElement).value)}
        ></textarea>
        <button class="outline" data-role="memory-add" ?disabled=${locked || this.busy || !this.addDraft.trim()} @click=${() => this.add()}>${msg('Add')}</button>
      </div>
      ${
        this.problem
          ? html`<p data-role="memory-error" role="alert">
            ${this.problem.message}
            ${this.problem.conflict ? html`<button class="outline" data-role="memory-reload" @click=${() => ((this.problem = null), this.onReload())}>${msg('Reload')}</button>` : nothing}
          </p>`
          : nothing
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-memory-store': HermesMemoryStore;
  }
}
