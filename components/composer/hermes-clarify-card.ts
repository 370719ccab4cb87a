import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { consume } from '@lit/context';
import { chatContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';

/** The agent's question (above the composer): one button per offered answer, or free text. */
@customElement('hermes-clarify-card')
@localized()
export class HermesClarifyCard extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @state() answer = '';
  #stores = new StoreController(this, () => [this.chat]);
  #focusedFor: string | null = null;

  override updated(): void {
    const id = this.chat?.clarify?.clarify_id ?? null;
    if (id && id !== this.#focusedFor) {
      this.#focusedFor = id;
      this.answer = '';
      this.renderRoot.querySelector<HTMLElement>('[data-choice], input')?.focus();
    }
  }

  #send(text: string) {
    const value = text.trim();
    if (!value) return;
    this.answer = '';
    void this.chat?.answerClarify(value);
  }

  override render() {
    const c = this.chat?.clarify;
    if (!c) return nothing;
    return html`
      <section class="card" data-role="clarify-card" aria-labelledby="q">
        <p id="q" class="question">${c.question}</p>
        ${
          c.choices_offered?.length
            ? html`<div class="choices">
              ${c.choices_offered.map((choice) => html`<button class="outline" data-choice=${choice} @click=${() => this.#send(choice)}>${choice}</button>`)}
            </div>`
            : nothing
        }
        <form
          class="free"
          @submit=${(e: Event) => {
            e.preventDefault();
            this.#send(this.answer);
          }}
        >
          <input
            data-role="clarify-input"
            aria-label=${msg('Your answer')}
            placeholder=${c.choices_offered?.length ? msg('Or type another answer…') : msg('Type your answer…')}
            .value=${this.answer}
            @input=${(e: Event) => (this.answer = (e.target as HTMLInputElement).value)}
          />
          <button class="primary" type="submit" data-role="clarify-send" ?disabled=${!this.answer.trim()}>${msg('Send')}</button>
        </form>
      </section>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      .card {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-md);
        border: var(--hermes-border-width) solid var(--hermes-accent);
        border-radius: var(--hermes-radius-lg);
        background: var(--hermes-panel-subtle);
      }
      .question {
        margin: 0;
        font-family: var(--hermes-font-serif);
        font-size: var(--hermes-text-prose);
        line-height: var(--hermes-leading-prose);
        overflow-wrap: anywhere;
      }
      .choices {
        display: flex;
        flex-wrap: wrap;
        gap: var(--hermes-space-sm);
      }
      .choices button {
        font-size: var(--hermes-text-label);
        text-align: left;
        max-width: 100%;
        overflow-wrap: anywhere;
      }
      .free {
        display: flex;
        gap: var(--hermes-space-sm);
        min-width: 0;
      }
      .free input {
        flex: 1;
        min-width: 0;
      }
      .free button {
        flex: none;
      }
      @media (max-width: 639px) {
        .choices button,
        .free input,
        .free button {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-clarify-card': HermesClarifyCard;
  }
}
