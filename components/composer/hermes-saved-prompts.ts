import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { matchesWords, popoverMenuStyles } from './popover-menu.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { promptsApi, type SavedPrompt } from '../api/prompts.js';

/** The server's limit (the incumbent's): one prompt's text. */
export const PROMPT_MAX_CHARS = 8000;

/**
 * The composer's "Saved prompts" menu, a chunk loaded on first open (the button or `/prompts`):
 * the profile's saved prompts (GET /api/prompts) to insert with a click, search over them, a
 * delete per row, and "Save current text" for what the composer holds (with an optional label).
 *
 * @fires hermes-prompt-insert - detail: { text } (a prompt was picked)
 * @fires hermes-popover-close - (not bubbling) detail: { refocus } close me
 */
@customElement('hermes-saved-prompts')
@localized()
export class HermesSavedPrompts extends LitElement {
  /** The composer's text now: what "Save current text" saves. */
  @property() current = '';
  @state() prompts: SavedPrompt[] | null = null;
  @state() query = '';
  @state() label = '';
  @state() error = '';
  @state() busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  protected override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLInputElement>('[data-role="prompt-search"]')?.focus();
  }

  async #load() {
    try {
      this.prompts = await promptsApi.list();
    } catch (err) {
      this.prompts = [];
      this.error = (err as Error).message;
    }
  }

  async #act(work: () => Promise<void>) {
    this.busy = true;
    this.error = '';
    try {
      await work();
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #save() {
    const text = this.current.trim();
    if (!text) return;
    void this.#act(async () => {
      const prompt = await promptsApi.save(text, this.label.trim() || undefined);
      this.prompts = [...(this.prompts ?? []), prompt];
      this.label = '';
    });
  }

  #remove(p: SavedPrompt) {
    void this.#act(async () => {
      await promptsApi.remove(p.id);
      this.prompts = (this.prompts ?? []).filter((x) => x.id !== p.id);
    });
  }

  #insert(p: SavedPrompt) {
    emit(this, 'hermes-prompt-insert', { text: p.text });
    emit(this, 'hermes-popover-close', { refocus: true }, { local: true });
  }

  #onKeyDown(e: KeyboardEvent) {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    emit(this, 'hermes-popover-close', { refocus: true }, { local: true });
  }

  override render() {
    const q = this.query.trim();
    const shown = (this.prompts ?? []).filter((p) => !q || matchesWords(q, p.label, p.text));
    const text = this.current.trim();
    const tooLong = text.length > PROMPT_MAX_CHARS;
    return html`
      <div class="menu" data-role="saved-prompts" role="dialog" aria-label=${msg('Saved prompts')} @keydown=${this.#onKeyDown}>
        <div class="search">
          ${icons.search()}
          <input
            type="search"
            data-role="prompt-search"
            aria-label=${msg('Search saved prompts')}
            placeholder=${msg('Search saved prompts')}
            autocomplete="off"
            .value=${this.query}
            @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)}
          />
        </div>
        <ul class="list" aria-label=${msg('Saved prompts')}>
          ${shown.map(
            (p) => html`<li class="row" data-role="saved-prompt" data-id=${p.id}>
              <button class="insert" data-role="prompt-insert" title=${p.text} @click=${() => this.#insert(p)}>
                <span class="label">${p.label}</span>
                <span class="meta preview">${p.text}</span>
              </button>
              <button class="icon-button" data-role="prompt-delete" title=${msg('Delete')} aria-label=${msg(str`Delete ${p.label}`)} ?disabled=${this.busy} @click=${() => this.#remove(p)}>
                ${icons.trash()}
              </button>
            </li>`,
          )}
        </ul>
        ${
          this.prompts === null
            ? html`<div class="empty meta">${msg('Loading…')}</div>`
            : !shown.length
              ? html`<div class="empty meta" data-role="prompts-empty">${q ? msg('No saved prompt matches.') : msg('No saved prompts yet. Type one in the composer and save it here.')}</div>`
              : nothing
        }
        <div class="foot">
          <input
            data-role="prompt-label"
            aria-label=${msg('Label for the new prompt')}
            placeholder=${msg('Label (optional)')}
            .value=${this.label}
            @input=${(e: Event) => (this.label = (e.target as HTMLInputElement).value)}
            @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && this.#save()}
          />
          <button
            data-role="prompt-save"
            title=${text ? (tooLong ? msg(str`A prompt holds at most ${formatNumber(PROMPT_MAX_CHARS)} characters`) : msg('Save what the composer holds')) : msg('Type a prompt in the composer first')}
            ?disabled=${!text || tooLong || this.busy}
            @click=${() => this.#save()}
          >
            ${msg('Save current text')}
          </button>
        </div>
        ${this.error ? html`<div class="error meta" role="alert" data-role="prompts-error">${this.error}</div>` : nothing}
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    popoverMenuStyles,
    css`
      .search {
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
      }
      .search input,
      .foot input {
        flex: 1;
        min-width: 0;
        border: 0;
        background: transparent;
        padding: var(--hermes-space-xs) 0;
        font-size: var(--hermes-text-label);
        outline: none;
      }
      .list {
        flex: 1;
        min-height: 0;
        overflow-y: auto;
        margin: 0;
        padding: var(--hermes-space-xs);
        list-style: none;
      }
      .row {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        border-radius: var(--hermes-radius-sm);
      }
      .row:hover {
        background: var(--hermes-hover);
      }
      .insert {
        flex: 1;
        min-width: 0;
        display: flex;
        flex-direction: column;
        align-items: flex-start;
        gap: 2px;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border: 0;
        background: transparent;
        text-align: left;
        font-size: var(--hermes-text-label);
      }
      .insert:hover {
        background: transparent;
      }
      .label,
      .preview {
        max-width: 100%;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .row .icon-button {
        color: var(--hermes-fg-muted);
      }
      .empty,
      .error {
        padding: var(--hermes-space-sm);
      }
      .error {
        color: var(--hermes-color-error);
      }
      .foot {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-top: var(--hermes-border-width) solid var(--hermes-border);
      }
      .foot button {
        flex: none;
        font-size: var(--hermes-text-label);
      }
      @media (max-width: 639px) {
        .insert {
          min-height: var(--hermes-touch-target);
        }
        .search input,
        .foot input {
          font-size: 16px; /* no zoom-on-focus on iOS */
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-saved-prompts': HermesSavedPrompts;
  }
}
