import { LitElement, css, html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { consume } from '@lit/context';
import { sessionsContext } from '../state/contexts.js';
import type { SessionsStore } from '../state/sessions-store.js';
import { profileStore } from '../state/profile-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';

/**
 * The sidebar's "All profiles" toggle: the list shows every profile's sessions (each row of
 * another profile names it) instead of the active one's. Shown only when profiles exist.
 */
@customElement('hermes-all-profiles-toggle')
@localized()
export class HermesAllProfilesToggle extends LitElement {
  @consume({ context: sessionsContext, subscribe: true }) sessions?: SessionsStore;
  #stores = new StoreController(this, () => [profileStore, this.sessions]);

  override connectedCallback(): void {
    super.connectedCallback();
    void profileStore.ensure();
  }

  override render() {
    const s = this.sessions;
    if (!s || !profileStore.several) return nothing;
    return html`<button class="toggle" data-role="all-profiles" aria-pressed=${s.allProfiles} title=${msg(str`Sessions of every profile, not only ${profileStore.active}`)} @click=${() => void s.setAllProfiles(!s.allProfiles)}>
      ${msg('All profiles')}
    </button>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: inline-flex;
      }
      .toggle {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        white-space: nowrap;
      }
      .toggle[aria-pressed='true'] {
        color: var(--hermes-fg);
        background: var(--hermes-selected);
      }
      @media (max-width: 639px) {
        .toggle {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-all-profiles-toggle': HermesAllProfilesToggle;
  }
}
