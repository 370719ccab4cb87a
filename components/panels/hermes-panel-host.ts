import { LitElement, css } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { PANELS, type PanelName } from './registry.js';

/**
 * Shows one control-center panel: loads its chunk on first use, then mounts its element
 * (`hermes-<name>-panel`). Switching panels swaps the element; the chunk stays loaded.
 */
@customElement('hermes-panel-host')
export class HermesPanelHost extends LitElement {
  static override styles = css`
    :host {
      display: flex;
      flex-direction: column;
      flex: 1;
      min-height: 0;
    }
    :host > * {
      flex: 1;
      min-height: 0;
    }
  `;

  @property() name: PanelName = 'skills';
  #mounted: string | null = null;

  override async updated(changed: Map<string, unknown>) {
    if (!changed.has('name') || this.#mounted === this.name) return;
    const name = this.name;
    await PANELS[name]();
    // Another panel was asked for while this one loaded.
    if (name !== this.name) return;
    this.#mounted = name;
    this.renderRoot.replaceChildren(document.createElement(`hermes-${name}-panel`));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-panel-host': HermesPanelHost;
  }
}
