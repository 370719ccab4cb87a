import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { providerFormStyles } from './provider-form-styles.js';
import { emit } from '../events.js';

/** A hosted provider a key can be added for (the server lists a provider once it has a key). */
export interface HostedOption {
  id: string;
  label: string;
  key_env: string;
}

export const HOSTED: HostedOption[] = [
  { id: 'openrouter', label: 'OpenRouter', key_env: 'OPENROUTER_API_KEY' },
  { id: 'anthropic', label: 'Anthropic', key_env: 'ANTHROPIC_API_KEY' },
  { id: 'openai', label: 'OpenAI', key_env: 'OPENAI_API_KEY' },
];

/**
 * "Add a provider" in Settings → Providers: a hosted provider that has no key yet and its key
 * (a password field; only a masked form is ever shown back).
 *
 * @fires hermes-provider-changed - detail: { provider, removed: false } (the key was saved)
 */
@customElement('hermes-provider-add')
@localized()
export class HermesProviderAdd extends LitElement {
  /** The providers offered (those without a key). */
  @property({ attribute: false }) options: HostedOption[] = HOSTED;
  @property({ type: Boolean, reflect: true }) open = false;
  @state() private busy = false;
  @state() private error = '';
  @state() private invalid = false;
  @state() private done = '';
  #doneTimer: ReturnType<typeof setTimeout> | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#doneTimer);
  }

  #show(open: boolean) {
    this.open = open;
    this.error = '';
    this.invalid = false;
    if (open) {
      this.done = '';
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('select')?.focus());
    } else void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.actions button')?.focus());
  }

  async #save(e: SubmitEvent) {
    e.preventDefault();
    if (this.busy) return;
    const provider = this.renderRoot.querySelector<HTMLSelectElement>('select')!.value;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name="api_key"]')!;
    const key = input.value.trim();
    const label = this.options.find((o) => o.id === provider)?.label ?? provider;
    if (!key) {
      this.error = msg(str`Paste the ${label} API key.`);
      this.invalid = true;
      return input.focus();
    }
    this.busy = true;
    try {
      await api.saveProviderKey(provider, key);
      input.value = '';
      this.#show(false);
      this.done = msg(str`${label} added.`);
      clearTimeout(this.#doneTimer);
      this.#doneTimer = setTimeout(() => (this.done = ''), 4000);
      emit(this, 'hermes-provider-changed', { provider, removed: false });
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape' && this.open) {
      e.preventDefault();
      e.stopPropagation();
      this.#show(false);
    }
  }

  override render() {
    return html`<div class="actions">
        <span class="done meta" role="status">${this.done ? html`${icons.check()} ${this.done}` : nothing}</span>
        ${this.options.length ? html`<button class="outline" data-action="add-provider" @click=${() => this.#show(true)}>${msg('Add provider…')}</button>` : nothing}
      </div>
      ${this.open ? this.#form() : nothing}`;
  }

  #form() {
    return html`<form data-role="provider-add-form" @submit=${this.#save} @keydown=${this.#onKeyDown} @input=${() => ((this.error = ''), (this.invalid = false))} novalidate>
      <div class="fields">
        <label for="provider">${msg('Provider')}</label>
        <select id="provider" name="provider">
          ${this.options.map((o) => html`<option value=${o.id}>${o.label}</option>`)}
        </select>
        <label for="api_key">${msg('API key')}</label>
        <input id="api_key" name="api_key" type="password" class="mono" autocomplete="off" spellcheck="false" aria-invalid=${this.invalid ? 'true' : 'false'} aria-describedby="add-error" />
      </div>
      <p class="note">${msg('Saved in Hermes’ .env; only a masked form is shown afterwards.')}</p>
      <p id="add-error" class="field-error" role="alert">${this.error || nothing}</p>
      <div class="buttons">
        <button type="button" data-action="cancel" @click=${() => this.#show(false)}>${msg('Cancel')}</button>
        <button type="submit" class="primary" data-action="submit" ?disabled=${this.busy}>${this.busy ? msg('Saving…') : msg('Save key')}</button>
      </div>
    </form>`;
  }

  static override styles = [baseStyles, providerFormStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-provider-add': HermesProviderAdd;
  }
}
