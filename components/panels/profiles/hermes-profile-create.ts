import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import type { NewProfile } from '../../api/profiles.js';
import { profileStore } from '../../state/profile-store.js';
import { baseStyles } from '../../shared/styles.js';

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export type CreateMode = 'blank' | 'clone' | 'key';
/** Examples of what the fields take: code, the same in every language. */
const EXAMPLE = { name: 'work', provider: 'openrouter', model: 'anthropic/claude-sonnet-4.6', url: 'https://…' };

/**
 * The Profiles panel's "New profile" form: a name and what it starts from — a fresh layout,
 * a copy of another profile's config.yaml, .env and SOUL.md, or a provider key and model.
 * Fires `profile-created` (detail: the name) once the server made it.
 */
@customElement('hermes-profile-create')
@localized()
export class HermesProfileCreate extends LitElement {
  @property({ attribute: false }) profiles: string[] = [];
  @property() mode: CreateMode = 'blank';
  @state() private error = '';
  @state() private busy = false;

  #value(role: string): string {
    return (this.renderRoot.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-role="${role}"]`)?.value ?? '').trim();
  }

  async #submit(e: Event): Promise<void> {
    e.preventDefault();
    const name = this.#value('profile-name').toLowerCase();
    if (!NAME.test(name) || name === 'default') {
      this.error = msg('A name is 1-64 lowercase letters, digits, - or _, starting with a letter or digit (not "default").');
      return;
    }
    const body: NewProfile = { name };
    if (this.mode === 'clone') body.clone_from = this.#value('profile-clone-from') || 'default';
    if (this.mode === 'key') {
      const fields = { model_provider: 'profile-provider', base_url: 'profile-base-url', api_key: 'profile-api-key', default_model: 'profile-model' } as const;
      for (const [key, role] of Object.entries(fields)) {
        const v = this.#value(role);
        if (v) body[key as keyof typeof fields] = v;
      }
      if (body.base_url && !/^https?:\/\//.test(body.base_url)) {
        this.error = msg('The base URL starts with http:// or https://.');
        return;
      }
    }
    this.busy = true;
    this.error = '';
    try {
      await profileStore.create(body);
      (this.renderRoot.querySelector('form') as HTMLFormElement).reset();
      this.dispatchEvent(new CustomEvent('profile-created', { detail: name }));
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #setMode(mode: CreateMode) {
    this.mode = mode;
    this.dispatchEvent(new CustomEvent('mode-change', { detail: mode }));
  }

  override render() {
    const modes: [CreateMode, string][] = [
      ['blank', msg('Fresh')],
      ['clone', msg('Copy of a profile')],
      ['key', msg('Provider key and model')],
    ];
    return html`<form data-role="profile-create" @submit=${(e: Event) => void this.#submit(e)}>
      <label>${msg('Name')} <input data-role="profile-name" name="name" autocomplete="off" spellcheck="false" placeholder=${EXAMPLE.name} maxlength="64" required /></label>
      <fieldset>
        <legend>${msg('Starts from')}</legend>
        ${modes.map(
          ([id, label]) =>
            html`<label class="mode"><input type="radio" name="mode" data-role="profile-mode" value=${id} .checked=${this.mode === id} @change=${() => this.#setMode(id)} /> ${label}</label>`,
        )}
      </fieldset>
      ${
        this.mode === 'clone'
          ? html`<label>${msg('Copy config.yaml, .env and SOUL.md from')}
            <select data-role="profile-clone-from">${this.profiles.map((p) => html`<option value=${p}>${p}</option>`)}</select>
          </label>`
          : nothing
      }
      ${
        this.mode === 'key'
          ? html`<label>${msg('Provider')} <input data-role="profile-provider" placeholder=${EXAMPLE.provider} autocomplete="off" /></label>
            <label>${msg('Model')} <input data-role="profile-model" placeholder=${EXAMPLE.model} autocomplete="off" /></label>
            <label>${msg('Base URL')} <span class="muted">${msg('(optional)')}</span> <input data-role="profile-base-url" type="url" placeholder=${EXAMPLE.url} autocomplete="off" /></label>
            <label>${msg('API key')} <span class="muted">${msg("(saved in the profile's .env)")}</span> <input data-role="profile-api-key" type="password" autocomplete="off" /></label>`
          : nothing
      }
      ${this.error ? html`<p class="error" role="alert" data-role="profile-create-error">${this.error}</p>` : nothing}
      <div class="actions"><button class="primary" data-role="profile-create-submit" ?disabled=${this.busy}>${msg('Create profile')}</button></div>
    </form>`;
  }

  static override styles = [
    baseStyles,
    css`
      form {
        display: grid;
        gap: var(--hermes-space-sm);
        max-width: 32rem;
      }
      label {
        display: grid;
        gap: var(--hermes-space-xs);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      fieldset {
        display: flex;
        flex-wrap: wrap;
        gap: var(--hermes-space-md);
        margin: 0;
        padding: 0;
        border: 0;
      }
      legend {
        padding: 0 0 var(--hermes-space-xs);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      label.mode {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        color: var(--hermes-fg);
      }
      input:not([type='radio']),
      select {
        min-height: 32px;
        font-size: var(--hermes-text-body);
      }
      .muted {
        color: var(--hermes-fg-muted);
      }
      .error {
        margin: 0;
        color: var(--hermes-color-error);
      }
      .actions {
        display: flex;
        justify-content: flex-end;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-profile-create': HermesProfileCreate;
  }
}
