import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';

/** PLACEHOLDER while the element is being built (replaced in this change). */
@customElement('hermes-settings-dialog')
export class HermesSettingsDialog extends LitElement {
  override render() {
    return html``;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-settings-dialog': HermesSettingsDialog;
  }
}
