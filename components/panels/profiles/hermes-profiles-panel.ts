import { LitElement, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';

/** The Profiles panel of the control center (its own lazily loaded chunk). */
@customElement('hermes-profiles-panel')
export class HermesProfilesPanel extends LitElement {
  static override styles = [baseStyles, panelStyles];

  override render() {
    return html`<section data-role="panel" data-panel="profiles">
      <header class="panel-head"><h2>Profiles</h2></header>
      <div class="panel-body"></div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-profiles-panel': HermesProfilesPanel;
  }
}
