import { css } from 'lit';
import { emit } from '../events.js';

/** What a message's action buttons ask the transcript to do (it owns the session and the API). */
export interface MessageActionDetail {
  action: 'edit' | 'retry' | 'fork';
  /** Transcript index of the message (user) or the turn's first message (assistant). */
  index: number;
  /** Index just past the assistant turn ("fork from here" keeps this many messages). */
  end?: number;
  /** The new text, for `edit`. */
  text?: string;
}

export function messageAction(from: EventTarget, detail: MessageActionDetail): void {
  emit(from, 'hermes-message-action', detail);
}

/** The hover/focus action row under a message; always visible where there is no hover. */
export const actionStyles = css`
  .actions {
    display: flex;
    gap: 2px;
    min-height: 24px;
    margin-top: 2px;
    opacity: 0;
    transition: opacity var(--hermes-duration);
    color: var(--hermes-fg-muted);
  }
  :host(:hover) .actions,
  :host(:focus-within) .actions {
    opacity: 1;
  }
  @media (hover: none) {
    .actions {
      opacity: 1;
    }
  }
  .actions button {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    min-height: 24px;
    padding: 2px var(--hermes-space-xs);
    font-family: var(--hermes-font-sans);
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
  }
  .actions button:hover:not(:disabled) {
    color: var(--hermes-fg);
  }
`;
