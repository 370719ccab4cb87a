import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';

/** The Tasks panel of the control center (its own lazily loaded chunk). */
@customElement('hermes-tasks-panel')
export class HermesTasksPanel extends LitElement {
  static override styles = [baseStyles, panelStyles];

  override render() {
    return html`<section data-role="panel" data-panel="tasks">
      <header class="panel-head"><h2>Tasks</h2></header>
      <div class="panel-body"></div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-tasks-panel': HermesTasksPanel;
  }
}
