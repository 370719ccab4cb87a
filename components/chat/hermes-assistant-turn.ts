import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { localized, msg, str } from '@lit/localize';
import { contextStatusLine, type AssistantTurn } from '../state/turns.js';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';
import { baseStyles, dividerStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { copyText } from '../render/clipboard.js';
import { actionStyles, messageAction } from '../render/message-actions.js';
import './hermes-activity.js';
import './hermes-markdown.js';
import './hermes-turn-usage.js';
import { proseWithLines } from './hermes-steer-line.js';

/**
 * The failure hints' sentences (chat/failure-hints.ts) are not in the first paint: fetched when
 * the page is idle, and at the latest by the first failure shown (its English until then).
 */
let hints: typeof import('./failure-hints.js') | null = null;
let hintsLoading: Promise<unknown> | null = null;
const loadHints = () => (hintsLoading ??= import('./failure-hints.js').then((m) => (hints = m)));
if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void loadHints(), { timeout: 5000 });

/**
 * One assistant turn, prose first: a single activity disclosure (reasoning + tools), the
 * files the turn changed, the markdown answer, then what needs attention (error row,
 * interrupted/partial notes), and the live-only compression divider.
 *
 * @fires hermes-message-action - `{action: 'retry' | 'fork', index, end}`
 */
@customElement('hermes-assistant-turn')
@localized()
export class HermesAssistantTurn extends LitElement {
  @property({ attribute: false }) turn?: AssistantTurn;
  /** For `show_thinking` (Settings, or `/reasoning hide`): off keeps the model's reasoning out of sight. */
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @property() sessionId = '';
  /** The turn being streamed right now. */
  @property({ type: Boolean }) live = false;
  /** The last settled assistant turn: it can be retried. */
  @property({ type: Boolean }) retryable = false;
  /** A turn is running: retry waits. */
  @property({ type: Boolean }) busy = false;
  @state() private copied = false;
  @state() private speaking = false;
  @state() private speechError = '';

  async #copy(): Promise<void> {
    this.copied = await copyText(this.turn?.text ?? '');
    setTimeout(() => (this.copied = false), 1500);
  }

  /** Read aloud / stop; the speaking code (read-aloud.ts) loads with the first click. */
  async #readAloud(): Promise<void> {
    const { readAloud, stopReading } = await import('./read-aloud.js');
    if (this.speaking) return stopReading();
    this.speechError = '';
    this.speaking = true;
    readAloud(this.turn?.text ?? '', this.ui?.settings, {
      ended: () => (this.speaking = false),
      failed: (message) => {
        this.speaking = false;
        this.speechError = message;
      },
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.speaking) void import('./read-aloud.js').then((m) => m.stopReading());
  }

  #compression(turn: AssistantTurn) {
    if (!turn.compression) return nothing;
    return html`<div class="divider" data-role="compression" role="status">
      ${turn.compression === 'compressing' ? msg('Compressing context') : msg('Context auto-compressed')}
    </div>`;
  }

  /** "Changed N files" under the activity row; its element (and the diff view) load with the first turn that has one. */
  #changes(turn: AssistantTurn) {
    if (!turn.changes?.files.length) return nothing;
    void import('./hermes-turn-changes.js');
    return html`<hermes-turn-changes .changes=${turn.changes} .sessionId=${this.sessionId} ?busy=${this.busy || this.live}></hermes-turn-changes>`;
  }

  override render() {
    const stored = this.turn;
    if (!stored) return nothing;
    const turn = stored.reasoning && this.ui?.settings?.show_thinking === false ? { ...stored, reasoning: '' } : stored;
    const hasActivity = !!turn.reasoning || turn.tools.length > 0;
    const waiting = this.live && !turn.text && !hasActivity && !turn.error;
    // The server's hint in the reader's language when it sent a code this build knows, else its English.
    let hint = turn.error?.hint;
    if (turn.error && hints) hint = hints.failureHintText(turn.error);
    else if (turn.error?.hintCode) void loadHints().then(() => this.requestUpdate());
    return html`
      ${
        turn.context
          ? html`<div class="meta context-status ${turn.context.status}" data-role="context-status" role="note">${contextStatusLine(turn.context)}</div>`
          : nothing
      }
      ${hasActivity ? html`<hermes-activity .turn=${turn} .sessionId=${this.sessionId} ?live=${this.live}></hermes-activity>` : nothing}
      ${this.#changes(turn)}
      ${this.#compression(turn)}
      ${waiting && !turn.retrying ? html`<div class="waiting meta" data-role="waiting">${icons.spinner()} ${msg('Thinking…')}</div>` : nothing}
      ${
        this.live && turn.retrying
          ? html`<div class="waiting meta" data-role="retrying" role="status" title=${turn.retrying.reason}>${icons.spinner()} ${msg(str`Retrying (${turn.retrying.attempt}/${turn.retrying.max})…`)}</div>`
          : nothing
      }
      ${proseWithLines(turn, this.live)}
      ${turn.warnings.map((w) => html`<div class="note warning" data-role="warning">${w}</div>`)}
      ${
        turn.error
          ? html`<div class="error-row" role="alert" data-role="error-row">
            <span class="error-icon">${icons.alert()}</span>
            <div>
              <div class="error-message">${turn.error.message || msg('The turn failed.')}</div>
              ${hint ? html`<div class="error-hint">${hint}</div>` : nothing}
            </div>
          </div>`
          : nothing
      }
      ${turn.interrupted ? html`<div class="note" data-role="interrupted">${msg('Interrupted before it finished.')}</div>` : nothing}
      ${turn.partial ? html`<div class="note" data-role="partial">${msg('Partial response: the stream ended early.')}</div>` : nothing}
      ${!this.live && turn.usage ? html`<hermes-turn-usage .usage=${turn.usage}></hermes-turn-usage>` : nothing}
      ${this.live ? nothing : this.#actions(turn)}
    `;
  }

  #actions(turn: AssistantTurn) {
    return html`<div class="actions">
      ${
        turn.text
          ? html`<button data-role="copy-message" aria-label=${msg('Copy response')} title=${msg('Copy')} @click=${this.#copy}>${this.copied ? icons.check() : icons.copy()}</button>
              <button data-role="read-aloud" aria-label=${this.speaking ? msg('Stop reading') : msg('Read aloud')} title=${this.speaking ? msg('Stop reading') : msg('Read aloud')}
                aria-pressed=${this.speaking ? 'true' : 'false'} @click=${() => void this.#readAloud()}>${this.speaking ? icons.stop() : icons.speaker()}</button>`
          : nothing
      }
      ${
        this.retryable
          ? html`<button data-role="retry" aria-label=${msg('Retry')} title=${this.busy ? msg('Wait for the reply to finish') : msg('Retry')} ?disabled=${this.busy}
            @click=${() => messageAction(this, { action: 'retry', index: turn.index, end: turn.end })}>${icons.retry()}</button>`
          : nothing
      }
      <button data-role="fork" aria-label=${msg('Fork from here')} title=${msg('Fork from here')} @click=${() => messageAction(this, { action: 'fork', index: turn.index, end: turn.end })}>
        ${icons.fork()}
      </button>
      ${this.speechError ? html`<span class="speech-error" role="status" data-role="read-aloud-error">${this.speechError}</span>` : nothing}
    </div>`;
  }

  static override styles = [
    baseStyles,
    dividerStyles,
    actionStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
        min-width: 0;
      }
      .waiting {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
      }
      .note {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        font-style: italic;
      }
      .context-status {
        font-size: var(--hermes-text-label);
      }
      .context-status.error {
        color: var(--hermes-color-warning);
      }
      .note.warning {
        font-style: normal;
        color: var(--hermes-color-warning);
      }
      .error-row {
        display: flex;
        gap: var(--hermes-space-sm);
        align-items: flex-start;
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        border: var(--hermes-border-width) solid var(--hermes-color-error);
        border-radius: var(--hermes-radius-md);
        background: var(--hermes-error-bg);
        font-size: var(--hermes-text-body);
      }
      .error-icon {
        display: inline-grid;
        padding-top: 2px;
        color: var(--hermes-color-error);
      }
      .error-message {
        font-weight: 600;
      }
      .error-hint {
        margin-top: var(--hermes-space-xs);
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-label);
        white-space: pre-wrap;
      }
      .speech-error {
        align-self: center;
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      .actions {
        margin-top: 0;
        margin-left: calc(-1 * var(--hermes-space-sm));
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-assistant-turn': HermesAssistantTurn;
  }
}
