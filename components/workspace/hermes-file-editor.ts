import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { emit } from '../events.js';

/**
 * A plain textarea editor for one workspace file: Save / Cancel, a dirty mark, Ctrl/Cmd+S.
 *
 * @fires saved - CustomEvent<{content}>, after the server stored the text
 * @fires cancel - the user left the editor (edits discarded)
 */
@customElement('hermes-file-editor')
@localized()
export class HermesFileEditor extends LitElement {
  @property() sessionId = '';
  @property() path = '';
  /** The text as stored; the draft starts from it. */
  @property() content = '';

  @state() private draft = '';
  @state() private saving = false;
  @state() private error = '';

  get dirty(): boolean {
    return this.draft !== this.content;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('content') || changed.has('path')) this.draft = this.content;
  }

  override firstUpdated(): void {
    this.renderRoot.querySelector('textarea')?.focus();
  }

  async save(): Promise<void> {
    if (this.saving) return;
    this.saving = true;
    this.error = '';
    const content = this.draft;
    try {
      await api.saveFile(this.sessionId, this.path, content);
      emit(this, 'hermes-file-saved', { content }, { local: true });
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.saving = false;
    }
  }

  #onKeyDown(e: KeyboardEvent): void {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      void this.save();
    } else if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Tab indents; Esc then Tab leaves (a textarea must never trap focus for good).
      if (this.#escaped) return;
      e.preventDefault();
      document.execCommand('insertText', false, '  ');
    }
    this.#escaped = e.key === 'Escape';
  }

  #escaped = false;

  override render() {
    return html`
      <div class="bar">
        <span class="state meta" aria-live="polite">
          ${this.saving ? msg('Saving…') : this.dirty ? html`<span class="dot" data-role="dirty"></span>${msg('Unsaved changes')}` : msg('No changes')}
        </span>
        <button class="outline" data-action="cancel" @click=${() => emit(this, 'hermes-edit-cancel', null, { local: true })}>${msg('Cancel')}</button>
        <button class="primary" data-action="save" ?disabled=${this.saving || !this.dirty} title=${msg('Save (Ctrl+S)')} @click=${() => this.save()}>${msg('Save')}</button>
      </div>
      ${this.error ? html`<div class="error" role="alert">${this.error}</div>` : nothing}
      <textarea
        spellcheck="false"
        aria-label=${msg(str`Edit ${this.path}`)}
        .value=${this.draft}
        @input=${(e: Event) => (this.draft = (e.target as HTMLTextAreaElement).value)}
        @keydown=${this.#onKeyDown}
      ></textarea>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        min-height: 0;
      }
      .bar {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      }
      .state {
        flex: 1;
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
      }
      .dot {
        width: var(--hermes-space-sm);
        height: var(--hermes-space-sm);
        border-radius: var(--hermes-radius-pill);
        background: var(--hermes-color-warning);
      }
      .error {
        margin: var(--hermes-space-xs) var(--hermes-space-sm) 0;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-radius: var(--hermes-radius-sm);
        background: var(--hermes-error-bg);
        color: var(--hermes-color-error);
        font-size: var(--hermes-text-label);
      }
      textarea {
        flex: 1;
        min-height: 0;
        margin: 0;
        resize: none;
        border: 0;
        border-radius: 0;
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        background: var(--hermes-code-bg);
        font-family: var(--hermes-font-mono);
        font-size: var(--hermes-text-label);
        line-height: var(--hermes-leading-user);
        tab-size: 2;
        white-space: pre;
      }
      textarea:focus-visible {
        outline-width: 1px;
        outline-offset: -1px;
      }
      @media (max-width: 639px) {
        .bar button {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-file-editor': HermesFileEditor;
  }
}
