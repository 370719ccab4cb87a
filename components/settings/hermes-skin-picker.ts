import { LitElement, css, html } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { styleMap } from 'lit/directives/style-map.js';
import { drawnSkin, SKINS, type SkinId } from '../../src/shared/skins.js';
import { baseStyles } from '../shared/styles.js';
import { skinSwatches } from './skin-swatches.js';

/** The skins' words in the current language (proper names like Poseidon go through msg() too, and stay as they are in most languages). */
/** The type sample in each swatch (letters, not words). */
const SAMPLE = 'Aa';

const skinText = (): Record<SkinId, { label: string; hint: string }> => ({
  default: { label: msg('Calm Console'), hint: msg('Warm ink and parchment') },
  'geist-contrast': { label: msg('High contrast'), hint: msg('Black, white and one bright accent') },
  paper: { label: msg('Paper'), hint: msg('Ink on warm paper') },
  mono: { label: msg('Mono'), hint: msg('Greys only') },
  slate: { label: msg('Slate'), hint: msg('Cool blue-grey') },
  poseidon: { label: msg('Poseidon'), hint: msg('Deep sea blue') },
  solarized: { label: msg('Solarized'), hint: msg('Schoonover’s base tones, tuned for contrast') },
  catppuccin: { label: msg('Catppuccin'), hint: msg('Mocha at night, Latte by day') },
  'okabe-ito': { label: msg('Colour-blind safe'), hint: msg('Okabe–Ito hues: status stays distinct without red/green') },
});

/**
 * Settings → Appearance → Skin: a grid of skins, each previewed by a small window in its own
 * colours (the variant the current theme shows). Picking one fires `change`; the app applies it
 * at once, so the whole window is the live preview.
 *
 * @fires change - the user picked a skin; read `.value`
 */
@customElement('hermes-skin-picker')
@localized()
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
    const swatches = skinSwatches(
      SKINS.map((s) => s.id),
      variant,
    );
    return html`<div class="grid" role="radiogroup" aria-label=${msg('Skin')} data-variant=${variant}>
      ${SKINS.map((s) => {
        const text = skinText()[s.id] ?? s;
        const [bg, panel, fg, accent] = swatches.get(s.id) ?? [];
        return html`<label class="skin" data-skin-option=${s.id} title=${text.hint}>
          <input type="radio" name="skin" value=${s.id} .checked=${s.id === current} @change=${() => this.#pick(s.id)} />
          <span class="swatch" aria-hidden="true" style=${styleMap({ '--sw-bg': bg, '--sw-panel': panel, '--sw-fg': fg, '--sw-accent': accent })}>
            <span class="side"></span>
            <span class="body"><span class="aa">${SAMPLE}</span><span class="pill"></span></span>
          </span>
          <span class="name">${text.label}</span>
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
