import { LitElement, css, html, nothing, svg } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { consume } from '@lit/context';
import { chatContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { formatCost, formatTokens, percentOf } from '../chat/usage-format.js';
import { compressSession } from './compress-action.js';

const R = 8;
const CIRCUMFERENCE = 2 * Math.PI * R;
/** A whole percent (0..100) in the language's style: "25%", "25 %", "%25". */
const pct = (whole: number) => formatNumber(whole / 100, { style: 'percent' });
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

/** The ring's figures, from the open session as the server stored them (a turn's end, a compression). */
export interface ContextFigures {
  promptTokens: number;
  contextLength: number | null;
  thresholdTokens: number | null;
  cost: number | null;
}

export function contextFigures(session: Record<string, unknown> | null | undefined): ContextFigures | null {
  if (!session) return null;
  const promptTokens = num(session.last_prompt_tokens) ?? 0;
  const contextLength = num(session.context_length);
  if (!promptTokens && !contextLength) return null;
  return {
    promptTokens,
    contextLength,
    thresholdTokens: num(session.threshold_tokens),
    cost: typeof session.estimated_cost === 'number' ? session.estimated_cost : null,
  };
}

/**
 * The context ring by the composer: how full the model's window is (the last prompt's tokens
 * over `context_length`), a tick where auto-compression starts (`threshold_tokens`), and the
 * session's cost so far. Clicking opens the figures and a Compress button that runs the same
 * manual compression as `/compress`. The figures change when a turn ends or a compression
 * finishes, since both store them on the session this reads.
 */
@customElement('hermes-context-ring')
@localized()
export class HermesContextRing extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @state() private open = false;
  @state() private compressing = false;
  #stores = new StoreController(this, () => [this.chat]);

  async #compress(): Promise<void> {
    const chat = this.chat;
    const sid = chat?.sessionId;
    if (!chat || !this.ui || !sid || this.compressing) return;
    this.compressing = true;
    try {
      await compressSession(chat, this.ui, sid, '');
      this.open = false;
    } catch (err) {
      this.ui.notify((err as Error).message, 'error');
    } finally {
      this.compressing = false;
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
    const f = contextFigures(this.chat?.session);
    if (!f) return nothing;
    const { promptTokens, contextLength, thresholdTokens, cost } = f;
    const percent = contextLength ? percentOf(promptTokens, contextLength) : null;
    const fill = contextLength ? Math.min(1, promptTokens / contextLength) : 0;
    const mark = contextLength && thresholdTokens ? Math.min(1, thresholdTokens / contextLength) : null;
    const over = thresholdTokens !== null && promptTokens >= thresholdTokens;
    const summary = contextLength
      ? msg(str`Context: ${formatNumber(promptTokens)} of ${formatNumber(contextLength)} tokens (${pct(percent ?? 0)})`)
      : msg(str`Context: ${formatNumber(promptTokens)} tokens`);
    const shown = percent !== null ? pct(percent) : formatTokens(promptTokens);
    const busy = this.compressing || (this.chat?.status ?? 'idle') !== 'idle';
    return html`<span class="wrap" @keydown=${this.#onKey} @focusout=${this.#onFocusOut}>
      <button
        class="ring"
        data-role="context-ring"
        data-prompt-tokens=${promptTokens}
        data-context-length=${contextLength ?? ''}
        data-threshold-tokens=${thresholdTokens ?? ''}
        data-state=${over ? 'over' : 'under'}
        title=${summary}
        aria-label=${`${shown} · ${summary}`}
        aria-haspopup="dialog"
        aria-expanded=${this.open}
        @click=${() => (this.open = !this.open)}
      >
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <circle class="track" cx="10" cy="10" r=${R}></circle>
          ${svg`<circle class="fill" data-role="context-fill" cx="10" cy="10" r=${R} stroke-dasharray=${`${(fill * CIRCUMFERENCE).toFixed(3)} ${CIRCUMFERENCE.toFixed(3)}`} transform="rotate(-90 10 10)"></circle>`}
          ${mark !== null ? svg`<line class="mark" data-role="context-threshold" data-degrees=${Math.round(mark * 360)} x1="10" y1="0.5" x2="10" y2="5" transform=${`rotate(${(mark * 360).toFixed(2)} 10 10)`}></line>` : nothing}
        </svg>
        <span class="label">${shown}</span>
      </button>
      ${
        this.open
          ? html`<div class="details" role="dialog" aria-label=${msg('Context and cost')} data-role="context-details">
            <div data-field="context">${summary}</div>
            ${
              thresholdTokens !== null
                ? html`<div data-field="threshold">${
                    contextLength
                      ? msg(str`Compresses automatically at ${formatNumber(thresholdTokens)} tokens (${pct(percentOf(thresholdTokens, contextLength))})`)
                      : msg(str`Compresses automatically at ${formatNumber(thresholdTokens)} tokens`)
                  }</div>`
                : nothing
            }
            <div data-field="cost">${cost !== null ? msg(str`Cost so far: ${formatCost(cost)}`) : msg('Cost: not reported by the provider')}</div>
            <button class="compress" data-role="context-compress" ?disabled=${busy} @click=${() => void this.#compress()}>
              ${this.compressing ? msg('Compressing…') : msg('Compress')}
            </button>
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
      .ring {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-height: 32px;
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        font-variant-numeric: tabular-nums;
        white-space: nowrap;
      }
      circle {
        fill: none;
        stroke-width: 2.5;
      }
      .track {
        stroke: var(--hermes-border);
      }
      .fill {
        stroke: var(--hermes-accent);
        stroke-linecap: round;
      }
      .ring[data-state='over'] .fill {
        stroke: var(--hermes-color-warning);
      }
      .mark {
        stroke: var(--hermes-fg);
        stroke-width: 1.5;
      }
      .details {
        position: absolute;
        bottom: calc(100% + var(--hermes-space-xs));
        right: 0;
        z-index: 2;
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
        min-width: 28ch;
        padding: var(--hermes-space-sm);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        font-variant-numeric: tabular-nums;
      }
      .compress {
        align-self: flex-start;
        margin-top: var(--hermes-space-xs);
        border-color: var(--hermes-border);
        color: var(--hermes-fg);
      }
      @media (max-width: 639px) {
        .ring,
        .compress {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-context-ring': HermesContextRing;
  }
}
