import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import type { UserTurn } from '../state/turns.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { copyText } from '../render/clipboard.js';
import { actionStyles, messageAction } from '../render/message-actions.js';
import { consume } from '@lit/context';
import { chatContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import './hermes-markdown.js';
import { messageAttachments } from './hermes-message-attachments.js';
import './hermes-message-attachments.js';

/**
 * A user message: a compact right-aligned bubble (plain text, as typed; markdown with the
 * `render_user_markdown` setting, as the incumbent offers), with copy and an inline
 * editor. Saving an edit cuts the transcript there and runs the turn again; for an earlier
 * message that also drops the later turns, so it asks once more before doing it.
 *
 * @fires hermes-message-action - `{action: 'edit', index, text}` when an edit is saved
 * @csspart bubble - the message bubble
 */
@customElement('hermes-user-message')
@localized()
export class HermesUserMessage extends LitElement {
  @property({ attribute: false }) turn?: UserTurn;
  /** It can be edited and re-sent. */
  @property({ type: Boolean }) editable = false;
  /** Turns follow it: an edit here removes them (the editor asks to confirm). */
  @property({ type: Boolean }) rewinds = false;
  /** A turn is running: editing waits. */
  @property({ type: Boolean }) busy = false;
  @state() private editing = false;
  @state() private copied = false;
  /** The edited text, waiting for "yes, remove the later turns". */
  @state() private confirming: string | null = null;
  /** For the attachment URLs (`session_id` of GET /api/media). */
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.ui]);

  protected override updated(changed: PropertyValues): void {
    if (changed.has('editing') && this.editing) {
      const area = this.renderRoot.querySelector('textarea');
      area?.focus();
      area?.setSelectionRange(area.value.length, area.value.length);
    }
  }

  async #copy(): Promise<void> {
    this.copied = await copyText(this.turn?.text ?? '');
    setTimeout(() => (this.copied = false), 1500);
  }

  #save(): void {
    const text = this.confirming ?? this.renderRoot.querySelector('textarea')?.value.trim() ?? '';
    if (!text || !this.turn || this.busy) return;
    if (text === this.turn.text && !this.confirming) {
      this.editing = false;
      return;
    }
    if (this.rewinds && this.confirming === null) {
      this.confirming = text;
      return;
    }
    this.editing = false;
    this.confirming = null;
    messageAction(this, { action: 'edit', index: this.turn.index, text });
  }

  #cancel(): void {
    this.editing = false;
    this.confirming = null;
  }

  #onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') this.#cancel();
    else if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      this.#save();
    }
  }

  override render() {
    const turn = this.turn;
    if (!turn) return nothing;
    if (this.editing && this.confirming !== null)
      return html`<div class="editor" data-role="edit-confirm" role="alertdialog" aria-label=${msg('Confirm edit')}>
        <p class="confirm">${msg('Editing here removes the later messages of this conversation and runs the turn again. Continue?')}</p>
        <div class="editor-actions">
          <button class="outline" @click=${() => (this.confirming = null)}>${msg('Back')}</button>
          <button class="primary" data-role="confirm-edit" ?disabled=${this.busy} @click=${this.#save}>${msg('Remove later messages and send')}</button>
        </div>
      </div>`;
    if (this.editing)
      return html`<div class="editor" data-role="edit-form">
        <textarea aria-label=${msg('Edit message')} rows=${Math.min(12, turn.text.split('\n').length + 1)} .value=${turn.text} @keydown=${this.#onKey}></textarea>
        <div class="editor-actions">
          <button class="outline" @click=${this.#cancel}>${msg('Cancel')}</button>
          <button class="primary" data-role="save-edit" ?disabled=${this.busy} @click=${this.#save}>${msg('Save and send')}</button>
        </div>
      </div>`;
    if (turn.message._queued)
      return html`
        <div class="bubble queued-bubble" part="bubble">${turn.text}</div>
        <span class="queued meta" data-role="queued" title=${msg('Sent when the server is reachable again')}>${msg('Queued')}</span>
      `;
    const files = messageAttachments(turn.message.attachments);
    // `/use` or `/<skill>`: the stored message names the skill the agent was given.
    const skill = typeof turn.message.skill === 'string' ? turn.message.skill : null;
    const skillTag = skill ? html`<span class="skill" data-role="message-skill" title=${msg('Sent with this skill')}>/${skill}</span> ` : nothing;
    const bubble =
      this.ui?.settings?.render_user_markdown === true
        ? html`<div class="bubble md" part="bubble" data-format="markdown">${skillTag}<hermes-markdown .text=${turn.text}></hermes-markdown></div>`
        : html`<div class="bubble" part="bubble" data-format="plain">${skillTag}${turn.text}</div>`;
    // Actions sit beside the bubble (not under it), so a question and its answer stay close.
    return html`
      ${
        files.length
          ? html`<div class="with-files">
            <hermes-message-attachments .items=${files} .sessionId=${this.chat?.sessionId ?? null}></hermes-message-attachments>
            ${turn.text ? bubble : nothing}
          </div>`
          : bubble
      }
      <div class="actions">
        <button data-role="copy-message" aria-label=${msg('Copy message')} @click=${this.#copy}>${this.copied ? icons.check() : icons.copy()}</button>
        ${
          this.editable
            ? html`<button data-role="edit-message" aria-label=${msg('Edit message')} title=${this.busy ? msg('Wait for the reply to finish') : msg('Edit')} ?disabled=${this.busy} @click=${() => (this.editing = true)}>
              ${icons.edit()}
            </button>`
            : nothing
        }
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    actionStyles,
    css`
      :host {
        display: flex;
        flex-direction: row-reverse;
        align-items: flex-end;
        gap: var(--hermes-space-xs);
      }
      .bubble {
        max-width: min(85%, 620px);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        border-radius: var(--hermes-radius-lg);
        background: var(--hermes-user-bubble-bg);
        color: var(--hermes-user-bubble-fg);
        font-family: var(--hermes-font-sans);
        font-size: var(--hermes-text-body);
        line-height: var(--hermes-leading-user);
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .bubble.md {
        white-space: normal;
      }
      .skill {
        font-family: var(--hermes-font-mono);
        opacity: 0.8;
      }
      .with-files {
        display: flex;
        flex-direction: column;
        align-items: flex-end;
        gap: var(--hermes-space-xs);
        flex: 1;
        min-width: 0;
      }
      .with-files .bubble {
        max-width: min(85%, 620px);
      }
      .actions {
        flex-direction: row-reverse;
        margin: 0;
      }
      .queued-bubble {
        opacity: 0.7;
      }
      .queued {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        padding-bottom: var(--hermes-space-xs);
      }
      .editor {
        width: 100%;
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
      }
      textarea {
        width: 100%;
        resize: vertical;
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        border-radius: var(--hermes-radius-lg);
        line-height: var(--hermes-leading-user);
      }
      textarea:focus-visible {
        outline: none;

        border-color: var(--hermes-focus-ring);

        /* A ring, not only a border colour: focus must show as clearly as the outline elsewhere. */

        box-shadow: 0 0 0 1px var(--hermes-focus-ring);
      }
      .editor-actions {
        display: flex;
        justify-content: flex-end;
        gap: var(--hermes-space-sm);
      }
      .confirm {
        margin: 0;
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-body);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-user-message': HermesUserMessage;
  }
}
