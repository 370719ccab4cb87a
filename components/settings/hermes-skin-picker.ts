import { LitElement, css, html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { styleMap } from 'lit/directives/style-map.js';
import { drawnSkin, SKINS } from '../../src/shared/skins.js';
import { baseStyles } from '../shared/styles.js';
import { SKIN_SWATCHES } from './skin-swatches.js';

/**
 * Settings → Appearance → Skin: a grid of skins, each previewed by a small window in its own
 * colours (the variant the current theme shows). Picking one fires `change`; the app applies it
 * at once, so the whole window is the live preview.
 *
 * @fires change - the user picked a skin; read `.value`
 */
@customElement('hermes-skin-picker')
export class HermesSkinPicker extends LitElement {
  /** The stored skin name; one only the incumbent draws shows as Calm Console, which is what it looks like. */
  @property() value = 'default';
  /** The theme setting: which variant the swatches show ("system" follows the OS). */
  @property() theme: 'dark' | 'light' | 'system' = 'dark';
  @state() private prefersLight = matchMedia('(prefers-color-scheme: light)').matches;
  #scheme = matchMedia('(prefers-color-scheme: light)');
  #onScheme = () => (this.prefersLight = this.#scheme.matches);

  override connectedCallback(): void {
    super.connectedCallback();
    this.#scheme.addEventListener('change', this.#onScheme);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#scheme.removeEventListener('change', this.#onScheme);
  }

  #pick(id: string): void {
    this.value = id;
    this.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  }

  override render() {
    const variant = this.theme === 'light' || (this.theme === 'system' && this.prefersLight) ? 'light' : 'dark';
    const current = drawnSkin(this.value);
    return html`<div class="grid" role="radiogroup" aria-label="Skin" data-variant=${variant}>
      ${SKINS.map((s) => {
        const [bg, panel, fg, accent] = SKIN_SWATCHES[s.id][variant];
        return html`<label class="skin" data-skin-option=${s.id} title=${s.hint}>
          <input type="radio" name="skin" value=${s.id} .checked=${s.id === current} @change=${() => this.#pick(s.id)} />
          <span class="swatch" aria-hidden="true" style=${styleMap({ '--sw-bg': bg, '--sw-panel': panel, '--sw-fg': fg, '--sw-accent': accent })}>
            <span class="side"></span>
            <span class="body"><span class="aa">Aa</span><span class="pill"></span></span>
          </span>
          <span class="name">${s.label}</span>
        </label>`;
      })}
    </div>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        width: 100%;
      }
      .grid {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(112px, 1fr));
        gap: var(--hermes-space-sm);
      }
      .skin {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        cursor: pointer;
        min-height: var(--hermes-touch-target);
      }
      .skin:hover {
        background: var(--hermes-hover);
      }
      input {
        position: absolute;
        opacity: 0;
        pointer-events: none;
      }
      .skin:has(input:checked) {
        border-color: var(--hermes-accent);
        box-shadow: inset 0 0 0 1px var(--hermes-accent);
        background: var(--hermes-selected);
      }
      .skin:has(input:focus-visible) {
        outline: 2px solid var(--hermes-focus-ring);
        outline-offset: 2px;
      }
      .swatch {
        display: flex;
        height: 44px;
        border-radius: var(--hermes-radius-sm);
        overflow: hidden;
        background: var(--sw-bg);
        /* The swatch's own edge: a light swatch on a dark dialog (and back) still has one. */
        box-shadow: inset 0 0 0 1px color-mix(in srgb, var(--sw-fg) 18%, transparent);
      }
      .side {
        width: 28%;
        background: var(--sw-panel);
      }
      .body {
        flex: 1;
        display: flex;
        align-items: center;
        justify-content: space-between;
        padding: 0 var(--hermes-space-sm);
      }
      .aa {
        color: var(--sw-fg);
        font-family: var(--hermes-font-serif);
        font-size: var(--hermes-text-h3);
      }
      .pill {
        width: 18px;
        height: 8px;
        border-radius: var(--hermes-radius-pill);
        background: var(--sw-accent);
      }
      .name {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .skin:has(input:checked) .name {
        color: var(--hermes-fg);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-skin-picker': HermesSkinPicker;
  }
}
