import { css } from 'lit';
import { baseStyles } from '../shared/styles.js';

/** hermes-composer's styles: a quiet frame, transparent chips, one accent (the Send button). */
export const composerStyles = [
  baseStyles,
  css`
    :host {
      display: block;
    }
    .import-cli {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: var(--hermes-space-sm);
      padding: var(--hermes-space-xs) var(--hermes-space-sm);
      color: var(--hermes-fg-muted);
      font-size: var(--hermes-text-meta);
    }
    .frame {
      position: relative;
      display: flex;
      flex-direction: column;
      gap: var(--hermes-space-xs);
      padding: var(--hermes-space-sm) var(--hermes-space-sm) var(--hermes-space-xs);
      background: var(--hermes-panel-subtle);
      border: var(--hermes-border-width) solid var(--hermes-border);
      border-radius: var(--hermes-radius-lg);
      transition: border-color var(--hermes-duration);
    }
    .frame:focus-within {
      border-color: color-mix(in srgb, var(--hermes-accent) 55%, var(--hermes-border));
    }
    .frame[data-dragging] {
      border-style: dashed;
      border-color: var(--hermes-accent);
    }
    .prompts-wrap {
      position: relative;
      display: inline-flex;
    }
    .menu {
      position: absolute;
      left: 0;
      right: 0;
      bottom: calc(100% + var(--hermes-space-xs));
      z-index: 5;
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: var(--hermes-space-xs);
      padding: 0 var(--hermes-space-xs);
    }
    textarea {
      display: block;
      width: 100%;
      min-height: calc(var(--hermes-text-body) * var(--hermes-leading-user) + 2 * var(--hermes-space-xs));
      max-height: 40vh;
      resize: none;
      overflow-y: auto;
      border: none;
      background: transparent;
      padding: var(--hermes-space-xs);
      font-family: var(--hermes-font-sans);
      font-size: var(--hermes-text-body);
      line-height: var(--hermes-leading-user);
      color: var(--hermes-fg);
    }
    textarea:focus {
      outline: none;
    }
    /* The shared ring, inset to the frame (a text box is focus-visible however it was focused). */
    textarea:focus-visible {
      outline: 2px solid var(--hermes-focus-ring);
      outline-offset: 0;
      border-radius: var(--hermes-radius-sm);
    }
    .bar {
      display: flex;
      align-items: center;
      gap: var(--hermes-space-xs);
      min-width: 0;
    }
    .bar > * {
      flex: none;
    }
    .bar .icon-button {
      color: var(--hermes-fg-muted);
    }
    .chip {
      display: inline-flex;
      align-items: center;
      gap: var(--hermes-space-xs);
      min-height: 32px;
      font-size: var(--hermes-text-label);
      color: var(--hermes-fg-muted);
      min-width: 0;
    }
    .chip .label {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      min-width: 0;
    }
    .chip svg {
      flex: none;
    }
    .chip[aria-pressed='true'] {
      color: var(--hermes-fg);
    }
    .workspace {
      flex: 0 1 auto;
      max-width: 22ch;
    }
    .bar hermes-model-picker {
      flex: 0 1 auto;
      min-width: 0;
    }
    .spacer {
      flex: 1 1 0;
    }
    .send,
    .stop {
      border-radius: var(--hermes-radius-md);
    }
    .send.primary,
    .send.primary:hover:not(:disabled) {
      color: var(--hermes-color-ink);
    }
    .send:disabled {
      background: var(--hermes-hover);
      color: var(--hermes-fg-faint);
      opacity: 1;
    }
    .stop {
      color: var(--hermes-fg);
      border-color: var(--hermes-border);
    }
    .drop {
      position: absolute;
      inset: 0;
      display: grid;
      place-items: center;
      border-radius: var(--hermes-radius-lg);
      background: color-mix(in srgb, var(--hermes-panel-subtle) 94%, transparent);
      color: var(--hermes-fg-muted);
      font-size: var(--hermes-text-label);
      pointer-events: none;
    }
    @media (max-width: 639px) {
      .chip {
        min-height: var(--hermes-touch-target);
      }
      .workspace {
        max-width: 14ch;
      }
    }
    /* A phone's bar has room for attach, the mic, the chips and the ring: saved prompts stay in the / menu (/prompts). */
    @media (max-width: 480px) {
      .prompts-wrap {
        display: none;
      }
    }
  `,
];
