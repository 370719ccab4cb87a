import { css, html } from 'lit';
import { msg } from '@lit/localize';
import { icons } from '../shared/icons.js';

/** A message whose top is within this many pixels of the view's top counts as "here". */
const HERE = 8;

/**
 * The user message to jump to from where the reader is: the nearest one above the top of the
 * view (`prev`) or below it (`next`), among the rendered turns (in document order). Null: none.
 */
export function userJumpTarget(scroller: HTMLElement, messages: ArrayLike<HTMLElement>, dir: 'prev' | 'next'): HTMLElement | null {
  const top = scroller.getBoundingClientRect().top;
  let found: HTMLElement | null = null;
  for (let i = 0; i < messages.length; i++) {
    const el = messages[i]!;
    const at = el.getBoundingClientRect().top - top;
    if (dir === 'prev' && at < -HERE) found = el;
    if (dir === 'next' && at > HERE) return el;
  }
  return found;
}

/** The `session_jump_buttons` pair: previous and next question of the conversation. */
export function userJumpButtons(jump: (dir: 'prev' | 'next') => void) {
  return html`<div class="user-jumps" data-role="session-jump-buttons">
    <button class="icon-button" data-role="jump-prev-user" aria-label=${msg('Previous message of yours')} title=${msg('Previous message of yours')} @click=${() => jump('prev')}>
      <span class="up">${icons.chevron()}</span>
    </button>
    <button class="icon-button" data-role="jump-next-user" aria-label=${msg('Next message of yours')} title=${msg('Next message of yours')} @click=${() => jump('next')}>
      <span class="down">${icons.chevron()}</span>
    </button>
  </div>`;
}

export const userJumpStyles = css`
      .user-jumps {
        position: absolute;
        right: var(--hermes-space-md);
        bottom: var(--hermes-space-md);
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
      }
      .user-jumps button {
        border: var(--hermes-border-width) solid var(--hermes-border);
        background: var(--hermes-panel);
        box-shadow: var(--hermes-shadow-popover);
      }
      .user-jumps .up svg {
        transform: rotate(-90deg);
      }
      .user-jumps .down svg {
        transform: rotate(90deg);
      }
`;
