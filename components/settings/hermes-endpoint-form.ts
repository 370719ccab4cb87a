import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { api, type ProbeResult } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { probeMessage } from './probe-messages.js';
import { providerFormStyles } from './provider-form-styles.js';
import { emit } from '../events.js';
import { modelCount } from './model-count.js';

type Field = 'name' | 'base_url' | 'api_key' | 'models';
const NAME = /^[a-z0-9_-]{1,40}$/;

/**
 * "Add a self-hosted endpoint" in Settings → Providers: a name, the OpenAI-compatible base URL,
 * an optional key and (for servers that list none) model ids. "Test" asks the endpoint for its
 * models through the server (POST /api/onboarding/probe) before saving.
 *
 * @fires hermes-provider-changed - detail: { provider, removed: false } (the endpoint was saved)
 */
@customElement('hermes-endpoint-form')
@localized()
export class HermesEndpointForm extends LitElement {
  @property({ type: Boolean, reflect: true }) open = false;
  @state() private busy: 'save' | 'test' | null = null;
  @state() private error = '';
  @state() private invalid: Field | null = null;
  @state() private probe: ProbeResult | null = null;
  @state() private done = '';
  #doneTimer: ReturnType<typeof setTimeout> | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#doneTimer);
  }

  #show(open: boolean) {
    this.open = open;
    this.error = '';
    this.invalid = null;
    this.probe = null;
    if (open) {
      this.done = '';
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('input[name="name"]')?.focus());
    } else void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.actions button')?.focus());
  }

  #value(field: Field): string {
    return this.renderRoot.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.value.trim() ?? '';
  }

  #refuse(message: string, field: Field | null) {
    this.error = message;
    this.invalid = field;
    if (field) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.focus());
  }

  #checkUrl(): boolean {
    if (!this.#value('base_url')) {
      this.#refuse(msg('Enter the base URL, e.g. http://127.0.0.1:8000/v1.'), 'base_url');
      return false;
    }
    return true;
  }

  async #test() {
    if (this.busy || !this.#checkUrl()) return;
    this.busy = 'test';
    this.error = '';
    this.invalid = null;
    this.probe = null;
    try {
      const key = this.#value('api_key');
      this.probe = await api.probe({ provider: 'custom', base_url: this.#value('base_url'), ...(key ? { api_key: key } : {}) });
    } catch (err) {
      this.#refuse((err as Error).message, null);
    } finally {
      this.busy = null;
    }
  }

  async #save(e: SubmitEvent) {
    e.preventDefault();
    if (this.busy) return;
    const name = this.#value('name');
    if (!NAME.test(name))
      return this.#refuse(msg('Name: 1–40 lowercase letters, digits, - or _ (it becomes part of model ids: custom:<name>:<model>).'), 'name');
    if (!this.#checkUrl()) return;
    const key = this.#value('api_key');
    const models = this.#value('models')
      .split(/[\s,]+/)
      .filter(Boolean);
    this.busy = 'save';
    this.error = '';
    this.invalid = null;
    try {
      await api.saveSelfHosted({ name, base_url: this.#value('base_url'), ...(key ? { api_key: key } : {}), ...(models.length ? { models } : {}) });
      this.#show(false);
      this.done = msg(str`Added “${name}”.`);
      clearTimeout(this.#doneTimer);
      this.#doneTimer = setTimeout(() => (this.done = ''), 4000);
      emit(this, 'hermes-provider-changed', { provider: `custom:${name}`, removed: false });
    } catch (err) {
      const message = (err as Error).message;
      const field = (['name', 'base_url', 'api_key', 'models'] as Field[]).find((f) => message.includes(f)) ?? null;
      this.#refuse(message, field);
    } finally {
      this.busy = null;
    }
  }

  #onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape' && this.open) {
      e.preventDefault();
      e.stopPropagation();
      this.#show(false);
    }
  }

  #input(field: Field, label: string, o: { type?: string; placeholder?: string } = {}) {
    return html`<label for=${field}>${label}</label>
      <input
        id=${field}
        name=${field}
        type=${o.type ?? 'text'}
        class="mono"
        placeholder=${o.placeholder ?? nothing}
        autocomplete="off"
        spellcheck="false"
        aria-invalid=${this.invalid === field ? 'true' : 'false'}
        aria-describedby="endpoint-error"
      />`;
  }

  override render() {
    return html`<div class="actions">
        <span class="done meta" role="status">${this.done ? html`${icons.check()} ${this.done}` : nothing}</span>
        <button class="outline" data-action="add-endpoint" @click=${() => this.#show(true)}>${msg('Add endpoint…')}</button>
      </div>
      ${this.open ? this.#form() : nothing}`;
  }

  #form() {
    const probe = this.probe;
    return html`<form data-role="endpoint-form" @submit=${this.#save} @keydown=${this.#onKeyDown} @input=${() => ((this.error = ''), (this.invalid = null))} novalidate>
      <div class="fields">
        ${this.#input('name', msg('Name'), { placeholder: msg('lab') })} ${this.#input('base_url', msg('Base URL'), { type: 'url', placeholder: 'http://127.0.0.1:8000/v1' })}
        ${this.#input('api_key', msg('API key (optional)'), { type: 'password' })} ${this.#input('models', msg('Models (optional)'), { placeholder: msg('Only if it lists none: qwen3-8b, …') })}
      </div>
      ${
        probe?.ok
          ? html`<p class="probe" role="status" data-role="endpoint-probe" data-ok="true">
            ${icons.check()} ${msg('Connected')} — ${modelCount(probe.models.length)}${
              probe.models.length
                ? `: ${probe.models
                    .slice(0, 3)
                    .map((m) => m.id)
                    .join(', ')}${probe.models.length > 3 ? ', …' : ''}`
                : ''
            }
          </p>`
          : probe
            ? html`<p class="probe" role="alert" data-role="endpoint-probe" data-ok="false" data-kind=${probe.error}>${probeMessage(probe, this.#value('base_url'), 'The endpoint')}</p>`
            : nothing
      }
      <p id="endpoint-error" class="field-error" role="alert">${this.error || nothing}</p>
      <div class="buttons">
        <button type="button" class="test" data-action="test" ?disabled=${!!this.busy} @click=${() => void this.#test()}>
          ${this.busy === 'test' ? msg('Testing…') : msg('Test')}
        </button>
        <button type="button" data-action="cancel" @click=${() => this.#show(false)}>${msg('Cancel')}</button>
        <button type="submit" class="primary" data-action="submit" ?disabled=${!!this.busy}>${this.busy === 'save' ? msg('Adding…') : msg('Add endpoint')}</button>
      </div>
    </form>`;
  }

  static override styles = [baseStyles, providerFormStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-endpoint-form': HermesEndpointForm;
  }
}
