import { css } from 'lit';

/** What every element shares: box sizing, focus rings, quiet buttons, inputs. Tokens only. */
export const baseStyles = css`
  :host {
    box-sizing: border-box;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  :focus-visible {
    outline: 2px solid var(--hermes-focus-ring);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    color: inherit;
    background: transparent;
    border: var(--hermes-border-width) solid transparent;
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    cursor: pointer;
    transition: background var(--hermes-duration);
  }
  button:hover:not(:disabled) {
    background: var(--hermes-hover);
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  button.primary {
    background: var(--hermes-accent);
    color: var(--hermes-on-accent);
  }
  button.primary:hover:not(:disabled) {
    background: color-mix(in srgb, var(--hermes-accent) 85%, var(--hermes-fg));
  }
  button.outline {
    border-color: var(--hermes-border);
  }
  button.danger {
    color: var(--hermes-color-error);
  }
  .icon-button {
    display: inline-grid;
    place-items: center;
    min-width: 32px;
    min-height: 32px;
    padding: var(--hermes-space-xs);
  }
  input,
  textarea,
  select {
    font: inherit;
    color: var(--hermes-fg);
    background: var(--hermes-panel-subtle);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
  }
  input::placeholder,
  textarea::placeholder {
    color: var(--hermes-fg-faint);
  }
  .meta {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
  }
  .mono {
    font-family: var(--hermes-font-mono);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  .spin {
    transform-origin: 12px 12px;
    animation: hermes-spin 0.9s linear infinite;
  }
  @keyframes hermes-spin {
    to {
      transform: rotate(360deg);
    }
  }
  /* Reduced motion: every animation and transition (SVG ones included) ends at once. */
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0.01s !important;
      animation-iteration-count: 1 !important;
      transition-duration: 0.01s !important;
      scroll-behavior: auto !important;
    }
  }
  @media (max-width: 639px) {
    .icon-button {
      min-width: var(--hermes-touch-target);
      min-height: var(--hermes-touch-target);
    }
  }
`;

/** A quiet line across the transcript with a label in the middle (compression, interruptions). */
export const dividerStyles = css`
  .divider {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-md);
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-faint);
    user-select: none;
  }
  .divider::before,
  .divider::after {
    content: '';
    flex: 1;
    border-top: var(--hermes-border-width) solid var(--hermes-border);
  }
`;
