import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';

/** PLACEHOLDER while the element is being built (replaced in this change). */
@customElement('hermes-composer')
export class HermesComposer extends LitElement {
  override focus() {}
  override render() {
    return html``;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-composer': HermesComposer;
  }
}
