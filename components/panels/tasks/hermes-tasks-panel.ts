import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { baseStyles } from '../../shared/styles.js';
import { icons } from '../../shared/icons.js';
import { panelStyles } from '../panel-styles.js';

/**
 * The Tasks panel of the control center (its own lazily loaded chunk). Scheduled tasks come
 * with the next issue; until then it says where they live today, with no controls that do nothing.
 */
@customElement('hermes-tasks-panel')
export class HermesTasksPanel extends LitElement {
  static override styles = [baseStyles, panelStyles];

  override render() {
    return html`<section data-role="panel" data-panel="tasks">
      <header class="panel-head"><h2>Tasks</h2></header>
      <div class="panel-body">
        <div class="empty" data-role="tasks-empty">
          <p>${icons.tasks(24)}</p>
          <p>No scheduled tasks here yet.</p>
          <p class="muted">
            Scheduled tasks are managed in Hermes with <code class="mono">hermes cron</code>; they will appear in this panel.
          </p>
        </div>
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-tasks-panel': HermesTasksPanel;
  }
}
