import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';

/** The Memory panel of the control center (its own lazily loaded chunk). */
@customElement('hermes-memory-panel')
export class HermesMemoryPanel extends LitElement {
  static override styles = [baseStyles, panelStyles];

  override render() {
    return html`<section data-role="panel" data-panel="memory">
      <header class="panel-head"><h2>Memory</h2></header>
      <div class="panel-body"></div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-memory-panel': HermesMemoryPanel;
  }
}
