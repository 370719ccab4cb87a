import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { type MemorySnapshot, memoryApi } from '../../api/memory.js';
import { STATE_SAVED_EVENT } from '../../state/run-handlers.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';
import { saveSection } from './memory-save.js';
import './hermes-memory-store.js';

/** A file name, the same in every language. */
const SOUL_FILE = 'SOUL.md';

/**
 * The Memory panel of the control center (its own lazily loaded chunk): the active profile's
 * MEMORY.md and USER.md as their `§` entries, and SOUL.md as one text. It reloads when the
 * agent's memory tool changed a file (`state_saved`), keeping whatever is being typed.
 */
@customElement('hermes-memory-panel')
@localized()
export class HermesMemoryPanel extends LitElement {
  static override styles = [
    baseStyles,
    panelStyles,
    css`
      .panel-body {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xl, 24px);
        max-width: 820px;
      }
      .soul header {
        display: flex;
        align-items: baseline;
        gap: var(--hermes-space-sm);
      }
      .soul h3 {
        margin: 0;
        font-size: var(--hermes-text-body, 15px);
        font-weight: 600;
      }
      .soul textarea {
        width: 100%;
        min-height: 12em;
        margin: var(--hermes-space-sm) 0;
        resize: vertical;
      }
      .row {
        display: flex;
        gap: var(--hermes-space-sm);
        align-items: center;
      }
      [role='alert'] {
        color: var(--hermes-color-error);
      }
    `,
  ];

  @state() private snap: MemorySnapshot | null = null;
  @state() private loadError = '';
  /** The SOUL.md text being edited; null while it is the file's. */
  @state() private soulDraft: string | null = null;
  @state() private soulProblem: { message: string; conflict: boolean } | null = null;
  @state() private soulNote = '';
  @state() private busy = false;

  private readonly onStateSaved = (e: Event) => {
    if ((e as CustomEvent<{ kind?: string }>).detail?.kind === 'memory') void this.load();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(STATE_SAVED_EVENT, this.onStateSaved);
    void this.load();
  }

  override disconnectedCallback(): void {
    window.removeEventListener(STATE_SAVED_EVENT, this.onStateSaved);
    super.disconnectedCallback();
  }

  private async load(): Promise<void> {
    try {
      this.snap = await memoryApi.get();
      this.loadError = '';
    } catch (err) {
      this.loadError = (err as Error).message;
    }
  }

  private readonly saved = (snapshot: MemorySnapshot) => {
    this.snap = snapshot;
  };
  private readonly reload = () => void this.load();

  private async saveSoul(): Promise<void> {
    if (!this.snap || this.soulDraft === null) return;
    this.busy = true;
    try {
      const outcome = await saveSection('soul', this.soulDraft, this.snap.soul_mtime);
      if (outcome.kind === 'saved') {
        this.snap = outcome.snapshot;
        this.soulDraft = null;
        this.soulProblem = null;
        this.soulNote = msg('Saved. New sessions use it.');
      } else {
        this.soulProblem = { message: outcome.message, conflict: outcome.kind === 'conflict' };
      }
    } catch (err) {
      this.soulProblem = { message: (err as Error).message, conflict: false };
    } finally {
      this.busy = false;
    }
  }

  private renderSoul(snap: MemorySnapshot) {
    const info = snap.sections.soul;
    const text = this.soulDraft ?? snap.soul;
    return html`<section class="soul" data-role="memory-section" data-section="soul">
      <header>
        <h3>${msg('Soul')}</h3>
        <span class="meta mono" title=${snap.soul_path}>${SOUL_FILE}</span>
      </header>
      <p class="meta">${msg("The agent's persona and standing instructions, read at the start of every session.")}</p>
      ${info.hint ? html`<p class="meta" data-role="memory-hint">${info.hint}</p>` : nothing}
      <textarea
        data-role="soul-input"
        aria-label=${SOUL_FILE}
        placeholder=${msg('No SOUL.md yet: write who the agent should be.')}
        ?disabled=${!info.writable}
        .value=${text}
        @input=${(e: Event) => ((this.soulDraft = (e.target as HTMLTextAreaElement).value), (this.soulNote = ''))}
      ></textarea>
      <div class="row">
        <button class="primary" data-role="soul-save" ?disabled=${!info.writable || this.busy || this.soulDraft === null} @click=${() => this.saveSoul()}>${msg('Save')}</button>
        ${this.soulDraft !== null ? html`<button data-role="soul-discard" @click=${() => ((this.soulDraft = null), (this.soulProblem = null))}>${msg('Discard changes')}</button>` : nothing}
        <span class="meta" aria-live="polite">${this.soulNote}</span>
      </div>
      ${
        this.soulProblem
          ? html`<p data-role="memory-error" role="alert">
            ${this.soulProblem.message}
            ${
              this.soulProblem.conflict
                ? html`<button class="outline" data-role="memory-reload" @click=${() => ((this.soulProblem = null), this.reload())}>${msg('Reload')}</button>`
                : nothing
            }
          </p>`
          : nothing
      }
    </section>`;
  }

  override render() {
    const snap = this.snap;
    return html`<section data-role="panel" data-panel="memory">
      <header class="panel-head">
        <h2>${msg('Memory')}</h2>
        ${snap && snap.profile !== 'default' ? html`<span class="meta">${msg(str`Profile ${snap.profile}`)}</span>` : nothing}
        ${snap?.redacted ? html`<span class="meta" title=${msg('Secrets are shown masked; saving keeps the originals')}>${msg('Secrets masked')}</span>` : nothing}
      </header>
      <div class="panel-body">
        ${this.loadError ? html`<p role="alert">${this.loadError}</p>` : nothing}
        ${
          snap
            ? html`<hermes-memory-store
                section="memory"
                label=${msg('Memory')}
                .path=${snap.sections.memory.enabled ? snap.memory_path : ''}
                .info=${snap.sections.memory}
                .mtime=${snap.memory_mtime}
                .onSaved=${this.saved}
                .onReload=${this.reload}
              ></hermes-memory-store>
              <hermes-memory-store
                section="user"
                label=${msg('User profile')}
                .path=${snap.sections.user.enabled ? snap.user_path : ''}
                .info=${snap.sections.user}
                .mtime=${snap.user_mtime}
                .onSaved=${this.saved}
                .onReload=${this.reload}
              ></hermes-memory-store>
              ${this.renderSoul(snap)}`
            : this.loadError
              ? nothing
              : html`<p class="empty">${msg('Loading…')}</p>`
        }
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-memory-panel': HermesMemoryPanel;
  }
}
