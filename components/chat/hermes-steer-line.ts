import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { resumedLine, type AssistantTurn } from '../state/turns.js';
import { baseStyles } from '../shared/styles.js';
import './hermes-markdown.js';

/**
 * One steer in an assistant turn (the incumbent's steer badge): what the user typed while the
 * turn ran, drawn where it joined the conversation.
 */
@customElement('hermes-steer-line')
@localized()
export class HermesSteerLine extends LitElement {
  @property() text = '';

  override render() {
    return html`<div class="steer" data-role="steer" role="note">
      <span class="badge">${msg('Steer')}</span><span class="body">${this.text}</span>
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
 * The turn's prose with its steers and "resumed after a restart" lines between: the text up to
 * each line's offset, the line, then the rest. Only the last piece streams, so settled pieces are
 * never re-parsed. A resumed line is the quiet divider (the turn's dividerStyles), not an alert.
 */
export function proseWithLines(turn: AssistantTurn, live: boolean): TemplateResult | typeof nothing {
  const lines = [
    ...(turn.steers ?? []).map((s) => ({ at: s.at, line: html`<hermes-steer-line .text=${s.text}></hermes-steer-line>` })),
    ...(turn.resumes ?? []).map((r) => ({
      at: r.at,
      line: html`<div class="divider" data-role="resumed" role="note" title=${r.message}>${resumedLine()}</div>`,
    })),
  ].sort((a, b) => a.at - b.at);
  if (!lines.length) return turn.text ? html`<hermes-markdown .text=${turn.text} ?streaming=${live}></hermes-markdown>` : nothing;
  const parts: TemplateResult[] = [];
  let from = 0;
  for (const { at: wanted, line } of lines) {
    const at = Math.min(Math.max(wanted, from), turn.text.length);
    const piece = turn.text.slice(from, at);
    if (piece.trim()) parts.push(html`<hermes-markdown .text=${piece}></hermes-markdown>`);
    parts.push(line);
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
