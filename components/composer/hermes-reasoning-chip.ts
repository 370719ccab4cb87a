import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { consume } from '@lit/context';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';
import { chatControls, type ReasoningStatus } from '../api/chat-controls.js';
import { baseStyles } from '../shared/styles.js';

/** Fired on window after the effort or display changed elsewhere (`/reasoning`), so the chip re-reads. */
export const REASONING_CHANGED = 'hermes-reasoning-changed';

// Read when shown, so a language switch re-renders them; an effort the list lacks shows as sent.
const LABELS: Record<string, () => string> = {
  '': () => msg('Default'),
  none: () => msg('Off'),
  minimal: () => msg('Minimal'),
  low: () => msg('Low'),
  medium: () => msg('Medium'),
  high: () => msg('High'),
  xhigh: () => msg('X-High'),
  max: () => msg('Max'),
};
const effortLabel = (level: string) => LABELS[level]?.() ?? level;

/**
 * The composer's reasoning-effort chip: shows config.yaml's `agent.reasoning_effort` for the
 * current model and picks another level from a small menu. Hidden for a model with no reasoning
 * levels. Asks the server only when the model changes (the one input its answer depends on).
 */
@customElement('hermes-reasoning-chip')
@localized()
export class HermesReasoningChip extends LitElement {
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  /** The model the next turn uses; null: the configured default. */
  @property({ attribute: false }) model: string | null = null;
  @state() private status: ReasoningStatus | null = null;
  @state() private open = false;
  @state() private saving = false;
  #asked: string | null | undefined = undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(REASONING_CHANGED, this.#reload);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener(REASONING_CHANGED, this.#reload);
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('model') && this.#asked !== this.model) void this.#load();
  }

  #reload = () => void this.#load();

  async #load(): Promise<void> {
    const model = this.model;
    this.#asked = model;
    try {
      const status = await chatControls.reasoning(model);
      if (this.#asked === model) this.status = status;
    } catch {
      // Offline or no config.yaml: no chip rather than a wrong one.
      if (this.#asked === model) this.status = null;
    }
  }

  async #pick(effort: string): Promise<void> {
    this.open = false;
    this.saving = true;
    try {
      this.status = await chatControls.setReasoning({ effort }, this.model);
    } catch (err) {
      this.ui?.notify((err as Error).message, 'error');
    } finally {
      this.saving = false;
    }
  }

  #onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.open) {
      e.stopPropagation();
      this.open = false;
    }
  };

  #onFocusOut = (e: FocusEvent) => {
    if (!this.renderRoot.contains(e.relatedTarget as Node | null)) this.open = false;
  };

  override render() {
    const s = this.status;
    if (!s?.supports_reasoning_effort) return nothing;
    const current = s.reasoning_effort;
    const levels = ['', 'none', ...s.supported_efforts];
    return html`<span class="wrap" @keydown=${this.#onKey} @focusout=${this.#onFocusOut}>
      <button
        class="chip"
        data-role="reasoning-chip"
        data-effort=${current || 'default'}
        title=${msg('Reasoning effort (agent.reasoning_effort in config.yaml)')}
        aria-haspopup="menu"
        aria-expanded=${this.open}
        ?disabled=${this.saving}
        @click=${() => (this.open = !this.open)}
      >
        <span class="glyph" aria-hidden="true">✦</span><span class="label">${effortLabel(current)}</span>
      </button>
      ${
        this.open
          ? html`<div class="menu" role="menu" data-role="reasoning-menu">
            ${levels.map(
              (level) =>
                html`<button role="menuitemradio" aria-checked=${level === current} data-effort=${level || 'default'} @click=${() => void this.#pick(level)}>${effortLabel(level)}</button>`,
            )}
          </div>`
          : nothing
      }
    </span>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: inline-flex;
        min-width: 0;
      }
      .wrap {
        position: relative;
        display: inline-flex;
      }
      .chip {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-height: 32px;
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        white-space: nowrap;
      }
      .chip[aria-expanded='true'] {
        color: var(--hermes-fg);
      }
      .glyph {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
      }
      .menu {
        position: absolute;
        bottom: calc(100% + var(--hermes-space-xs));
        left: 0;
        z-index: 2;
        display: flex;
        flex-direction: column;
        min-width: 12ch;
        padding: var(--hermes-space-xs);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
      }
      .menu button {
        text-align: left;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        border-radius: var(--hermes-radius-sm);
      }
      .menu button:hover,
      .menu button:focus-visible {
        color: var(--hermes-fg);
        background: var(--hermes-hover);
      }
      .menu button[aria-checked='true'] {
        color: var(--hermes-fg);
        font-weight: 600;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-reasoning-chip': HermesReasoningChip;
  }
}
