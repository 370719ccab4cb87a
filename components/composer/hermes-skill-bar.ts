import { LitElement, css, html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { withMarkup } from '../i18n/markup.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { skillCommands } from './skill-commands.js';

/**
 * Above the composer input: the `/use` chip (the skill the next message carries, removable) and
 * the `/skills` card (matching skills; choosing one is `/use` for it). State lives in
 * `skillCommands`, so commands and the composer's send share it.
 */
@customElement('hermes-skill-bar')
@localized()
export class HermesSkillBar extends LitElement {
  #off: (() => void) | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#off = skillCommands.subscribe(() => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#off?.();
  }

  #card() {
    const card = skillCommands.card;
    if (!card) return nothing;
    const count = formatNumber(card.skills.length);
    const title = card.query ? msg(str`Skills matching “${card.query}” (${count})`) : msg(str`Skills (${count})`);
    return html`<section class="card" data-role="skills-card" aria-label=${title}>
      <header>
        <span>${title}</span>
        <button class="icon" data-role="skills-card-close" aria-label=${msg('Close the skills list')} @click=${() => skillCommands.showCard(null)}>${icons.close()}</button>
      </header>
      ${
        card.skills.length
          ? html`<ul>
            ${card.skills.map(
              (s) => html`<li>
                <button data-role="skills-card-row" data-skill=${s.name} title=${msg('Use this skill for the next message')} @click=${() => (skillCommands.setForced(s.name), skillCommands.showCard(null))}>
                  <span class="name">${s.name}</span>${s.category ? html`<span class="cat">${s.category}</span>` : nothing}
                  <span class="desc">${s.description}</span>
                </button>
              </li>`,
            )}
          </ul>`
          : html`<p class="empty">${card.query ? msg(str`No skills matching “${card.query}”.`) : msg('No skills found.')}</p>`
      }
    </section>`;
  }

  override render() {
    const forced = skillCommands.forced;
    return html`${this.#card()}${
      forced
        ? html`<div class="chip" data-role="skill-chip" data-skill=${forced}>
          <span>${withMarkup((v) => msg(str`Skill for the next message: ${v}`), html`<strong>${forced}</strong>`)}</span>
          <button class="icon" data-role="skill-chip-remove" aria-label=${msg(str`Do not use ${forced}`)} @click=${() => skillCommands.setForced(null)}>${icons.close()}</button>
        </div>`
        : nothing
    }`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      .chip,
      .card {
        margin: 0 var(--hermes-space-xs) var(--hermes-space-xs);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        background: var(--hermes-panel);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .chip {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-height: 32px;
        padding: 0 var(--hermes-space-xs);
      }
      .chip strong {
        color: var(--hermes-fg);
      }
      header {
        display: flex;
        align-items: center;
        justify-content: space-between;
        padding: var(--hermes-space-xs);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        max-height: 240px;
        overflow-y: auto;
      }
      li button {
        display: flex;
        flex-wrap: wrap;
        gap: var(--hermes-space-xs);
        width: 100%;
        min-height: 36px;
        padding: var(--hermes-space-xs);
        text-align: left;
        background: none;
        border: 0;
        color: inherit;
        cursor: pointer;
      }
      li button:hover,
      li button:focus-visible {
        background: var(--hermes-hover, var(--hermes-border));
      }
      .name {
        color: var(--hermes-fg);
        font-family: var(--hermes-font-mono, monospace);
      }
      .cat {
        opacity: 0.8;
      }
      .desc {
        flex-basis: 100%;
      }
      .empty {
        margin: 0;
        padding: var(--hermes-space-xs);
      }
      button.icon {
        display: inline-grid;
        place-items: center;
        width: 32px;
        height: 32px;
        background: none;
        border: 0;
        color: inherit;
        cursor: pointer;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-skill-bar': HermesSkillBar;
  }
}
