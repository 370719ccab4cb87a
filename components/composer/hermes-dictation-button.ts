import { LitElement, css, html, nothing, svg } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { baseStyles } from '../shared/styles.js';
import { emit } from '../events.js';
import type { Dictation, DictationPhase } from './dictation.js';

/** The mic, drawn like the icons in shared/icons.ts (kept here: this chunk loads after the shell). */
const micIcon = svg`<svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5 11a7 7 0 0 0 14 0M12 18v3"/></svg>`;

// Read when shown, so a language switch re-renders them.
const LABELS: Record<Exclude<DictationPhase, 'idle'>, () => string> = {
  listening: () => msg('Listening…'),
  opening: () => msg('Opening the microphone…'),
  recording: () => msg('Recording…'),
  transcribing: () => msg('Transcribing…'),
};

/**
 * The composer's mic: click to dictate, click or Esc to stop. The composer loads this element
 * after the shell (a chunk of its own) and the recogniser/recorder (dictation.ts) on the first click. What is heard
 * goes up as `hermes-dictation-text`; the composer puts it at the caret. Errors stay a quiet line
 * beside the button until the next try.
 *
 * @fires hermes-dictation-text - `{text}`
 */
@customElement('hermes-dictation-button')
@localized()
export class HermesDictationButton extends LitElement {
  @state() phase: DictationPhase = 'idle';
  @state() error = '';
  #session: Dictation | null = null;
  #starting = false;

  #onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || this.phase === 'idle' || this.phase === 'transcribing') return;
    e.preventDefault();
    e.stopPropagation();
    this.stop();
  };

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#session?.cancel();
    this.#session = null;
    window.removeEventListener('keydown', this.#onKey, true);
  }

  stop(): void {
    this.#session?.stop();
  }

  async #toggle(): Promise<void> {
    if (this.phase === 'transcribing' || this.#starting) return;
    if (this.phase !== 'idle') return this.stop();
    this.error = '';
    this.#starting = true;
    try {
      const { startDictation } = await import('./dictation.js');
      this.#session = startDictation({
        text: (text) => emit(this, 'hermes-dictation-text', { text }),
        phase: (phase) => this.#setPhase(phase),
        error: (message) => {
          this.error = message;
          this.#setPhase('idle');
        },
      });
    } catch {
      this.error = msg('Dictation could not start');
    } finally {
      this.#starting = false;
    }
  }

  #setPhase(phase: DictationPhase): void {
    this.phase = phase;
    if (phase === 'idle') this.#session = null;
    // Esc stops while the mic is open, wherever the focus is; the listener goes with it.
    if (phase === 'listening' || phase === 'opening' || phase === 'recording') window.addEventListener('keydown', this.#onKey, true);
    else window.removeEventListener('keydown', this.#onKey, true);
  }

  override render() {
    const active = this.phase !== 'idle';
    const title = active ? (this.phase === 'transcribing' ? msg('Transcribing…') : msg('Stop dictation (Esc)')) : msg('Dictate');
    return html`
      <button
        class="icon-button"
        data-role="dictate"
        data-phase=${this.phase}
        title=${title}
        aria-label=${title}
        aria-pressed=${active ? 'true' : 'false'}
        ?disabled=${this.phase === 'transcribing'}
        @click=${() => void this.#toggle()}
      >
        ${micIcon}
      </button>
      ${active ? html`<span class="state" role="status" data-role="dictation-state"><span class="dot" aria-hidden="true"></span>${LABELS[this.phase as Exclude<DictationPhase, 'idle'>]()}</span>` : nothing}
      ${!active && this.error ? html`<span class="error" role="status" data-role="dictation-error" title=${this.error}>${this.error}</span>` : nothing}
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-width: 0;
        color: var(--hermes-fg-muted);
      }
      button[aria-pressed='true'] {
        color: var(--hermes-color-error);
      }
      .state,
      .error {
        font-size: var(--hermes-text-meta);
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
        max-width: 22ch;
      }
      .state {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        color: var(--hermes-fg);
      }
      .dot {
        width: 8px;
        height: 8px;
        border-radius: 50%;
        background: var(--hermes-color-error);
        animation: pulse 1.4s ease-in-out infinite;
      }
      .error {
        color: var(--hermes-fg-muted);
      }
      @keyframes pulse {
        50% {
          opacity: 0.35;
        }
      }
      @media (prefers-reduced-motion: reduce) {
        .dot {
          animation: none;
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-dictation-button': HermesDictationButton;
  }
}
