import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { consume } from '@lit/context';
import { api } from '../api/client.js';
import { sessionsContext, uiContext } from '../state/contexts.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { baseStyles } from '../shared/styles.js';
import { emit } from '../events.js';

/**
 * Imports a conversation from an exported JSON file, adds it to the sidebar and opens it.
 *
 * @fires hermes-open-session - with the imported session's id
 */
@customElement('hermes-session-import')
@localized()
export class HermesSessionImport extends LitElement {
  @consume({ context: sessionsContext, subscribe: true }) sessions?: SessionsStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;

  @state() private busy = false;
  @state() private error = '';

  /** Imports the given file; resolves once the session is open (or the error is shown). */
  async importFile(file: File): Promise<void> {
    this.busy = true;
    this.error = '';
    try {
      let data: unknown;
      try {
        data = JSON.parse(await file.text());
      } catch {
        throw new Error(msg(str`${file.name} is not a JSON file`));
      }
      const session = await api.importSession(data);
      await this.sessions?.refresh();
      emit(this, 'hermes-open-session', { sessionId: session.session_id });
      this.ui?.notify(msg(str`Imported “${session.title}”`));
      this.ui?.openSettings(false);
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #onChange(e: Event): void {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void this.importFile(file);
  }

  override render() {
    return html`
      <input id="file" class="visually-hidden" type="file" accept="application/json,.json" tabindex="-1" aria-labelledby="import" @change=${this.#onChange} />
      <button id="import" class="outline" data-action="import" ?disabled=${this.busy} @click=${() => this.renderRoot.querySelector<HTMLInputElement>('#file')?.click()}>
        ${this.busy ? msg('Importing…') : msg('Import JSON…')}
      </button>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        align-items: flex-end;
        gap: var(--hermes-space-xs);
      }
      button {
        font-size: var(--hermes-text-label);
      }
      .error {
        margin: 0;
        color: var(--hermes-color-error);
        font-size: var(--hermes-text-label);
        text-align: right;
      }
      @media (max-width: 639px) {
        button {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-session-import': HermesSessionImport;
  }
}
