import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';

/** The Insights panel of the control center (its own lazily loaded chunk). */
@customElement('hermes-insights-panel')
export class HermesInsightsPanel extends LitElement {
  static override styles = [baseStyles, panelStyles];

  override render() {
    return html`<section data-role="panel" data-panel="insights">
      <header class="panel-head"><h2>Insights</h2></header>
      <div class="panel-body"></div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-insights-panel': HermesInsightsPanel;
  }
}
