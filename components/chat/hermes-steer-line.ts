import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { AssistantTurn } from '../state/turns.js';
import { baseStyles } from '../shared/styles.js';
import './hermes-markdown.js';

/**
 * One steer in an assistant turn (the incumbent's steer badge): what the user typed while the
 * turn ran, drawn where it joined the conversation.
 */
@customElement('hermes-steer-line')
export class HermesSteerLine extends LitElement {
  @property() text = '';

  override render() {
    return html`<div class="steer" data-role="steer" role="note">
      <span class="badge">Steer</span><span class="body">${this.text}</span>
    </div>`;
  }

  static override styles = [
    baseStyles,
    css`
      .steer {
        display: flex;
        align-items: baseline;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-left: 2px solid var(--hermes-accent);
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-label);
      }
      .badge {
        flex: none;
        font-weight: 600;
        text-transform: uppercase;
        letter-spacing: 0.04em;
        color: var(--hermes-accent);
      }
      .body {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
    `,
  ];
}

/**
 * The turn's prose with its steers between: the text up to each steer's offset, the steer line,
 * then the rest. Only the last piece streams, so settled pieces are never re-parsed.
 */
export function proseWithSteers(turn: AssistantTurn, live: boolean): TemplateResult | typeof nothing {
  const steers = [...(turn.steers ?? [])].sort((a, b) => a.at - b.at);
  if (!steers.length) return turn.text ? html`<hermes-markdown .text=${turn.text} ?streaming=${live}></hermes-markdown>` : nothing;
  const parts: TemplateResult[] = [];
  let from = 0;
  for (const steer of steers) {
    const at = Math.min(Math.max(steer.at, from), turn.text.length);
    const piece = turn.text.slice(from, at);
    if (piece.trim()) parts.push(html`<hermes-markdown .text=${piece}></hermes-markdown>`);
    parts.push(html`<hermes-steer-line .text=${steer.text}></hermes-steer-line>`);
    from = at;
  }
  const rest = turn.text.slice(from);
  if (rest.trim()) parts.push(html`<hermes-markdown .text=${rest} ?streaming=${live}></hermes-markdown>`);
  return html`${parts}`;
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-steer-line': HermesSteerLine;
  }
}
