import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';

/** The Logs panel of the control center (its own lazily loaded chunk). */
@customElement('hermes-logs-panel')
export class HermesLogsPanel extends LitElement {
  static override styles = [baseStyles, panelStyles];

  override render() {
    return html`<section data-role="panel" data-panel="logs">
      <header class="panel-head"><h2>Logs</h2></header>
      <div class="panel-body"></div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-logs-panel': HermesLogsPanel;
  }
}
