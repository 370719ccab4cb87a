import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { withMarkup } from '../i18n/markup.js';
import { api, type ProviderRow } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { providerFormStyles } from './provider-form-styles.js';
import { emit } from '../events.js';

type Mode = 'key' | 'remove';

/**
 * One provider's control in Settings → Providers: its masked key, "Add key…"/"Replace key…" (a
 * password field; the key is never shown again, the server only answers masked) and "Remove…"
 * (asks first). The host carries `open` while a form is shown, so the row can give it full width.
 *
 * @fires hermes-provider-changed - detail: { provider, removed } (a key was saved or the provider removed)
 */
@customElement('hermes-provider-row')
@localized()
export class HermesProviderRow extends LitElement {
  @property({ attribute: false }) provider!: ProviderRow;
  @property({ type: Boolean, reflect: true }) open = false;
  @state() private mode: Mode | null = null;
  @state() private busy = false;
  @state() private error = '';
  @state() private done = '';
  #doneTimer: ReturnType<typeof setTimeout> | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#doneTimer);
  }

  #show(mode: Mode | null) {
    this.mode = mode;
    this.open = mode !== null;
    this.error = '';
    if (mode) {
      this.done = '';
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(mode === 'key' ? 'input' : '[data-action="cancel"]')?.focus());
    } else void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.actions button')?.focus());
  }

  #announce(removed: boolean, message: string) {
    this.done = message;
    clearTimeout(this.#doneTimer);
    this.#doneTimer = setTimeout(() => (this.done = ''), 4000);
    emit(this, 'hermes-provider-changed', { provider: this.provider.id, removed });
  }

  async #saveKey(e: SubmitEvent) {
    e.preventDefault();
    if (this.busy) return;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name="api_key"]')!;
    const key = input.value.trim();
    if (!key) {
      this.error = msg(str`Paste the ${this.provider.label} API key.`);
      return input.focus();
    }
    this.busy = true;
    try {
      const { row } = await api.saveProviderKey(this.provider.id, key);
      input.value = '';
      this.provider = row;
      this.#show(null);
      this.#announce(false, msg('Key saved.'));
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  async #remove() {
    if (this.busy) return;
    this.busy = true;
    try {
      await api.removeProvider(this.provider.id);
      this.#show(null);
      this.#announce(true, this.provider.kind === 'custom' ? msg('Removed.') : msg('Key removed.'));
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #onKeyDown(e: KeyboardEvent) {
    // Esc closes the form first; a second Esc closes the dialog.
    if (e.key === 'Escape' && this.mode) {
      e.preventDefault();
      e.stopPropagation();
      this.#show(null);
    }
  }

  override render() {
    const p = this.provider;
    if (!p) return nothing;
    const custom = p.kind === 'custom';
    const takesKey = !custom && (p.key_env !== null || p.kind === 'hosted');
    return html`<div class="actions">
        <span class="done meta" role="status">${this.done ? html`${icons.check()} ${this.done}` : nothing}</span>
        ${p.key_masked ? html`<span class="key mono" data-role="provider-key" title=${msg('Saved key (masked)')}>${p.key_masked}</span>` : nothing}
        ${takesKey ? html`<button class="outline" data-action="key" @click=${() => this.#show('key')}>${p.key_set ? msg('Replace key…') : msg('Add key…')}</button>` : nothing}
        ${custom || p.key_set ? html`<button class="outline danger" data-action="remove" @click=${() => this.#show('remove')}>${msg('Remove…')}</button>` : nothing}
      </div>
      ${this.mode === 'key' ? this.#keyForm() : this.mode === 'remove' ? this.#confirm() : nothing}`;
  }

  #keyForm() {
    const p = this.provider;
    return html`<form data-mode="key" @submit=${this.#saveKey} @keydown=${this.#onKeyDown} @input=${() => (this.error = '')} novalidate>
      <div class="fields">
        <label for="api_key">${p.key_set ? msg('New key') : msg('API key')}</label>
        <input id="api_key" name="api_key" type="password" class="mono" autocomplete="off" spellcheck="false" aria-invalid=${this.error ? 'true' : 'false'} aria-describedby="key-error" />
      </div>
      ${p.key_env ? html`<p class="note">${withMarkup((v) => msg(str`Saved as ${v} in Hermes’ .env; only a masked form is shown afterwards.`), html`<span class="mono">${p.key_env}</span>`)}</p>` : nothing}
      <p id="key-error" class="field-error" role="alert">${this.error || nothing}</p>
      <div class="buttons">
        <button type="button" data-action="cancel" @click=${() => this.#show(null)}>${msg('Cancel')}</button>
        <button type="submit" class="primary" data-action="submit" ?disabled=${this.busy}>${this.busy ? msg('Saving…') : msg('Save key')}</button>
      </div>
    </form>`;
  }

  #confirm() {
    const p = this.provider;
    const question = p.kind === 'custom' ? msg(str`Remove the ${p.label} endpoint?`) : msg(str`Remove the ${p.label} key?`);
    const outcome = p.active
      ? msg('It is the active provider: new chats will have no model until you choose another.')
      : msg('Chats that use its models will stop working.');
    return html`<div class="confirm" role="group" aria-label=${msg('Confirm removal')} data-mode="remove" @keydown=${this.#onKeyDown}>
      <p class="note">${question} ${outcome}</p>
      <p class="field-error" role="alert">${this.error || nothing}</p>
      <div class="buttons">
        <button type="button" data-action="cancel" @click=${() => this.#show(null)}>${msg('Cancel')}</button>
        <button type="button" class="outline danger" data-action="confirm-remove" ?disabled=${this.busy} @click=${() => this.#remove()}>${this.busy ? msg('Removing…') : msg('Remove')}</button>
      </div>
    </div>`;
  }

  static override styles = [baseStyles, providerFormStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-provider-row': HermesProviderRow;
  }
}
