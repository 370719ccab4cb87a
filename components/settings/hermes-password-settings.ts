import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { consume } from '@lit/context';
import { api } from '../api/client.js';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';

import { MIN_PASSWORD_LENGTH } from './password-rules.js';
import { inlineControlStyles } from './provider-form-styles.js';

export { MIN_PASSWORD_LENGTH };

type Mode = 'set' | 'change' | 'remove';
type Field = 'current' | 'new' | 'confirm';

// Functions, so each use reads the current language.
const SUBMIT = (): Record<Mode, [idle: string, busy: string]> => ({
  set: [msg('Set password'), msg('Setting…')],
  change: [msg('Change password'), msg('Changing…')],
  remove: [msg('Remove password'), msg('Removing…')],
});
const DONE = (): Record<Mode, string> => ({ set: msg('Password set.'), change: msg('Password changed.'), remove: msg('Password removed.') });

/**
 * The Security section's password control: set the first password (new + confirm), change it
 * (current + new + confirm) or remove it (current). Read-only when HERMES_WEBUI_PASSWORD sets
 * it. Server refusals show under the form; success is one quiet line.
 *
 * The host carries `open` while a form is shown, so the settings row can give it full width.
 */
@customElement('hermes-password-settings')
@localized()
export class HermesPasswordSettings extends LitElement {
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.ui]);

  /** The form shown, if any (reflected as `open` for the row's layout). */
  @state() private mode: Mode | null = null;
  @property({ type: Boolean, reflect: true }) open = false;
  @state() private busy = false;
  @state() private error = '';
  @state() private invalid: Field | null = null;
  @state() private done = '';
  #doneTimer: ReturnType<typeof setTimeout> | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#doneTimer);
  }

  #show(mode: Mode | null): void {
    this.mode = mode;
    this.open = mode !== null;
    this.error = '';
    this.invalid = null;
    if (mode) {
      this.done = '';
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('form input')?.focus());
    }
  }

  #value(field: Field): string {
    return this.renderRoot.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.value ?? '';
  }

  #refuse(message: string, field: Field | null): void {
    this.error = message;
    this.invalid = field;
    if (field) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.focus());
  }

  /** What is wrong with the typed values before asking the server; null when nothing. */
  #check(mode: Mode): [string, Field] | null {
    if (mode !== 'set' && !this.#value('current')) return [msg('Enter your current password.'), 'current'];
    if (mode === 'remove') return null;
    const next = this.#value('new');
    if (next.length < MIN_PASSWORD_LENGTH) return [msg(str`Use at least ${formatNumber(MIN_PASSWORD_LENGTH)} characters.`), 'new'];
    if (next !== this.#value('confirm')) return [msg('The two new passwords do not match.'), 'confirm'];
    return null;
  }

  async #submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const mode = this.mode;
    if (!mode || this.busy) return;
    const problem = this.#check(mode);
    if (problem) return this.#refuse(...problem);
    this.busy = true;
    this.error = '';
    this.invalid = null;
    try {
      const current = this.#value('current');
      const settings =
        mode === 'remove' ? await api.clearPassword(current) : await api.setPassword(this.#value('new'), mode === 'change' ? current : undefined);
      this.ui?.setSettings(settings);
      this.#show(null);
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.actions button')?.focus());
      this.done = DONE()[mode];
      clearTimeout(this.#doneTimer);
      this.#doneTimer = setTimeout(() => (this.done = ''), 4000);
    } catch (err) {
      const message = (err as Error).message;
      this.#refuse(message, /current password/i.test(message) ? 'current' : null);
    } finally {
      this.busy = false;
    }
  }

  /** Typing again answers the last complaint: it goes until the next submit. */
  #onInput(): void {
    if (this.busy) return;
    this.error = '';
    this.invalid = null;
  }

  #onKeyDown(e: KeyboardEvent): void {
    // Esc closes the form first; a second Esc closes the dialog.
    if (e.key === 'Escape' && this.mode) {
      e.preventDefault();
      e.stopPropagation();
      this.#show(null);
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('.actions button')?.focus());
    }
  }

  #field(field: Field, label: string, autocomplete: string) {
    return html`<label for=${field}>${label}</label>
      <input
        id=${field}
        name=${field}
        type="password"
        autocomplete=${autocomplete}
        spellcheck="false"
        aria-invalid=${this.invalid === field ? 'true' : 'false'}
        aria-describedby="password-error"
      />`;
  }

  #form(mode: Mode) {
    const [idle, busy] = SUBMIT()[mode];
    return html`<form data-mode=${mode} @submit=${this.#submit} @keydown=${this.#onKeyDown} @input=${this.#onInput} novalidate>
      <div class="fields">
        ${mode !== 'set' ? this.#field('current', msg('Current password'), 'current-password') : nothing}
        ${mode !== 'remove' ? html`${this.#field('new', msg('New password'), 'new-password')}${this.#field('confirm', msg('Confirm new password'), 'new-password')}` : nothing}
      </div>
      ${mode === 'remove' ? html`<p class="note meta">${msg('Anyone who can reach this address will be able to use Hermes.')}</p>` : nothing}
      <p id="password-error" class="field-error" role="alert">${this.error || nothing}</p>
      <div class="buttons">
        <button type="button" data-action="cancel" @click=${() => this.#show(null)}>${msg('Cancel')}</button>
        <button type="submit" class=${mode === 'remove' ? 'outline danger' : 'primary'} data-action="submit" ?disabled=${this.busy}>${this.busy ? busy : idle}</button>
      </div>
    </form>`;
  }

  override render() {
    const s = this.ui?.settings;
    if (s?.password_env_var) return html`<span class="readonly" data-role="password-from-env">${msg('Set on the server')}</span>`;
    const mode = this.mode;
    // The status line stays in place, so its text is announced when it changes.
    return html`<div class="actions">
        <span class="done meta" role="status">${this.done ? html`${icons.check()} ${this.done}` : nothing}</span>
        ${
          mode
            ? nothing
            : s?.auth_enabled
              ? html`<button class="outline" data-action="change" @click=${() => this.#show('change')}>${msg('Change…')}</button>
                <button class="outline" data-action="remove" @click=${() => this.#show('remove')}>${msg('Remove…')}</button>`
              : html`<button class="outline" data-action="set" @click=${() => this.#show('set')}>${msg('Set password…')}</button>`
        }
      </div>
      ${mode ? this.#form(mode) : nothing}`;
  }

  static override styles = [
    baseStyles,
    inlineControlStyles,
    css`
      .readonly {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border: var(--hermes-border-width) dashed var(--hermes-border);
        border-radius: var(--hermes-radius-md);
      }
      form {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-sm) 0 var(--hermes-space-xs);
      }
      .fields {
        display: grid;
        grid-template-columns: max-content minmax(0, 280px);
        justify-content: end;
        align-items: center;
        gap: var(--hermes-space-sm) var(--hermes-space-md);
      }
      .fields label {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        text-align: right;
      }
      .fields input {
        width: 100%;
      }
      input[aria-invalid='true'] {
        border-color: var(--hermes-color-error);
      }
      input:focus-visible {
        outline: none;

        border-color: var(--hermes-accent);

        /* A ring, not only a border colour: focus must show as clearly as the outline elsewhere. */

        box-shadow: 0 0 0 1px var(--hermes-focus-ring);
      }
      .note,
      .field-error {
        margin: 0;
        text-align: right;
      }
      .field-error {
        color: var(--hermes-color-error);
        font-size: var(--hermes-text-label);
      }
      .field-error:empty {
        display: none;
      }
      .buttons {
        display: flex;
        justify-content: flex-end;
        gap: var(--hermes-space-sm);
      }
      @media (max-width: 639px) {
        .fields {
          grid-template-columns: minmax(0, 1fr);
          gap: var(--hermes-space-xs);
        }
        .fields label {
          text-align: left;
        }
        .fields input + label {
          margin-top: var(--hermes-space-xs);
        }
        .fields input,
        button {
          min-height: var(--hermes-touch-target);
        }
        .note,
        .field-error {
          text-align: left;
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-password-settings': HermesPasswordSettings;
  }
}
