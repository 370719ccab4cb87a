import { css } from 'lit';

/** <hermes-file-tree>'s look: dense rows, indented by a `--depth` the row sets. */
export const treeStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 0;
    font-size: var(--hermes-text-label);
  }
  .alert {
    margin: var(--hermes-space-xs) var(--hermes-space-sm);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    border-radius: var(--hermes-radius-sm);
    background: var(--hermes-error-bg);
    color: var(--hermes-color-error);
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0 var(--hermes-space-xs) var(--hermes-space-sm);
    overflow: auto;
    flex: 1;
    min-height: 0;
  }
  .row {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    min-height: 28px;
    padding: 0 var(--hermes-space-xs) 0 calc(var(--hermes-space-xs) + var(--depth, 0) * var(--hermes-space-md));
    border-radius: var(--hermes-radius-sm);
    cursor: pointer;
    color: var(--hermes-fg);
    user-select: none;
  }
  .row:hover {
    background: var(--hermes-hover);
  }
  .row[aria-selected='true'] {
    background: var(--hermes-selected);
  }
  .row:focus-visible {
    outline-offset: -2px;
  }
  .row.empty,
  .row.error {
    cursor: default;
    padding-left: calc(var(--hermes-space-xl) + var(--hermes-space-xs) + var(--depth, 0) * var(--hermes-space-md));
  }
  .row.empty:hover,
  .row.error:hover {
    background: none;
  }
  .row.error {
    color: var(--hermes-color-error);
  }
  .twist {
    display: inline-grid;
    place-items: center;
    width: var(--hermes-space-lg);
    flex: none;
    color: var(--hermes-fg-faint);
    transition: transform var(--hermes-duration);
  }
  .twist[data-open] {
    transform: rotate(90deg);
  }
  .icon {
    display: inline-grid;
    flex: none;
    color: var(--hermes-fg-muted);
  }
  .name {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .git-mark {
    flex: none;
    min-width: 1.2em;
    text-align: center;
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-meta);
    font-weight: 600;
  }
  .git-dot {
    flex: none;
    width: 6px;
    height: 6px;
    margin: 0 calc(var(--hermes-space-xs) + 1px);
    border-radius: var(--hermes-radius-pill);
    background: var(--hermes-fg-faint);
  }
  .actions {
    display: flex;
    visibility: hidden;
  }
  .row:hover .actions,
  .row:focus-within .actions,
  .row[aria-selected='true'] .actions {
    visibility: visible;
  }
  .actions .icon-button {
    min-width: 24px;
    min-height: 24px;
    padding: 0;
    color: var(--hermes-fg-muted);
  }
  .actions .icon-button:hover {
    color: var(--hermes-fg);
  }
  .name-input {
    flex: 1;
    min-width: 0;
    padding: 0 var(--hermes-space-xs);
    font-size: var(--hermes-text-label);
    border-color: var(--hermes-accent);
  }
  .confirm {
    gap: var(--hermes-space-sm);
    background: var(--hermes-error-bg);
    padding-right: var(--hermes-space-xs);
  }
  .confirm-text {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .confirm button {
    padding: 0 var(--hermes-space-sm);
  }
  @media (max-width: 639px) {
    .row {
      min-height: 40px;
      font-size: var(--hermes-text-body);
    }
    .actions .icon-button {
      min-width: 36px;
      min-height: 36px;
    }
  }
`;
