import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { updates, type UpdateStore } from '../offline/sw-register.js';
import { StoreController } from '../state/store.js';
import { consume } from '@lit/context';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';
import { baseStyles } from '../shared/styles.js';

/**
 * A quiet "Update available — reload" line, shown when a new service worker waits. Clicking
 * reloads into the new version; if a reply is running or the composer holds unsent text it
 * asks first ("Reload anyway" / "Later"). It never reloads by itself. With `check_for_updates`
 * off it stays silent and the open tab stops looking for new builds.
 */
@customElement('hermes-update-prompt')
@localized()
export class HermesUpdatePrompt extends LitElement {
  @property({ attribute: false }) store: UpdateStore = updates;
  /** What would be lost by reloading now (a running reply, an unsent draft), or null. */
  @property({ attribute: false }) busy: () => string | null = () => null;
  @state() private confirming: string | null = null;
  @state() private dismissed = false;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.store, this.ui]);

  protected override willUpdate(): void {
    this.store.checking = this.ui?.settings?.check_for_updates !== false;
  }

  #reload(force = false): void {
    const busy = force ? null : this.busy();
    if (busy) {
      this.confirming = busy;
      return;
    }
    this.store.apply();
  }

  override render() {
    if (!this.store.waiting || this.dismissed || !this.store.checking) return nothing;
    if (this.confirming)
      return html`<div class="prompt" role="status" data-role="update-prompt" data-confirming="true">
        <span>${this.confirming} ${msg('Reload anyway?')}</span>
        <button class="link" data-role="update-reload-anyway" @click=${() => this.#reload(true)}>${msg('Reload')}</button>
        <button class="link" data-role="update-later" @click=${() => ((this.confirming = null), (this.dismissed = true))}>${msg('Later')}</button>
      </div>`;
    return html`<div class="prompt" role="status" data-role="update-prompt">
      <span>${msg('Update available')}</span>
      <button class="link" data-role="update-reload" @click=${() => this.#reload()}>${msg('Reload')}</button>
    </div>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: contents;
      }
      .prompt {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        white-space: nowrap;
      }
      .link {
        color: var(--hermes-accent);
        padding: 0 var(--hermes-space-xs);
        text-decoration: underline;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-update-prompt': HermesUpdatePrompt;
  }
}
