import { css } from 'lit';

/** <hermes-git-panel>'s look: dense rows like the file tree, quiet group headers, tokens only. */
export const gitPanelStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 0;
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg);
  }
  .panel {
    display: flex;
    flex-direction: column;
    flex: 1;
    min-height: 0;
  }
  .branch-bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--hermes-space-xs) var(--hermes-space-sm);
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
  }
  .branch,
  select {
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-label);
    max-width: 10em;
    min-width: 0;
  }
  .upstream {
    flex: 1 1 6em;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .remote-actions {
    margin-left: auto;
    display: flex;
    gap: var(--hermes-space-xs);
  }
  .remote-actions button,
  .commit-actions button,
  .group-action {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    padding: 2px var(--hermes-space-sm);
    font-size: var(--hermes-text-label);
  }
  .notice {
    margin: var(--hermes-space-sm) var(--hermes-space-md) 0;
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    border-radius: var(--hermes-radius-sm);
    color: var(--hermes-fg-muted);
    background: var(--hermes-panel-subtle);
    overflow-wrap: anywhere;
  }
  .notice.error {
    color: var(--hermes-color-error);
    background: var(--hermes-error-bg);
  }
  .notice code {
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-meta);
  }
  .changes {
    flex: 1;
    min-height: 0;
    overflow: auto;
    padding: var(--hermes-space-xs) var(--hermes-space-xs) var(--hermes-space-sm);
  }
  .note {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    margin: 0;
    padding: var(--hermes-space-md);
  }
  .group + .group {
    margin-top: var(--hermes-space-sm);
  }
  h3 {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    margin: 0;
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    font-size: var(--hermes-text-meta);
    font-weight: 500;
    letter-spacing: 0.04em;
    text-transform: uppercase;
    color: var(--hermes-fg-muted);
  }
  .group-action {
    margin-left: auto;
    text-transform: none;
    letter-spacing: 0;
    color: var(--hermes-fg-muted);
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .file {
    display: flex;
    align-items: center;
    min-height: 28px;
    border-radius: var(--hermes-radius-sm);
  }
  .file:hover {
    background: var(--hermes-hover);
  }
  .file-main {
    flex: 1;
    min-width: 0;
    display: flex;
    align-items: center;
    gap: var(--hermes-space-sm);
    padding: 2px var(--hermes-space-sm);
    border-radius: var(--hermes-radius-sm);
    text-align: left;
  }
  .file-main:hover:not(:disabled) {
    background: none;
  }
  .file-main[aria-expanded='true'] {
    background: var(--hermes-selected);
  }
  .letter {
    flex: none;
    width: 1.2em;
    text-align: center;
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-meta);
    font-weight: 600;
  }
  .file-name {
    flex: none;
    max-width: 60%;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .file-dir {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    direction: rtl;
    text-align: left;
  }
  .counts {
    margin-left: auto;
    flex: none;
    font-size: var(--hermes-text-meta);
  }
  .add {
    color: var(--hermes-color-success);
  }
  .del {
    color: var(--hermes-color-error);
  }
  .file-actions {
    display: flex;
    visibility: hidden;
  }
  .file:hover .file-actions,
  .file:focus-within .file-actions {
    visibility: visible;
  }
  .file-actions .icon-button {
    min-width: 24px;
    min-height: 24px;
    padding: 0;
    font-family: var(--hermes-font-mono);
    color: var(--hermes-fg-muted);
  }
  .file-actions .icon-button:hover {
    color: var(--hermes-fg);
  }
  .confirm {
    gap: var(--hermes-space-sm);
    padding: 0 var(--hermes-space-xs) 0 var(--hermes-space-sm);
    background: var(--hermes-error-bg);
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
  li.diff {
    padding: var(--hermes-space-xs) var(--hermes-space-xs) var(--hermes-space-sm);
    --hermes-diff-max-height: 320px;
  }
  .diff-note {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    margin: var(--hermes-space-xs) var(--hermes-space-sm);
  }
  .diff-note.error {
    color: var(--hermes-color-error);
  }
  .commit {
    display: flex;
    flex-direction: column;
    gap: var(--hermes-space-xs);
    padding: var(--hermes-space-sm) var(--hermes-space-md) max(var(--hermes-space-sm), env(safe-area-inset-bottom));
    border-top: var(--hermes-border-width) solid var(--hermes-border);
  }
  textarea {
    resize: vertical;
    min-height: 3.5em;
    font-family: var(--hermes-font-sans);
    font-size: var(--hermes-text-label);
  }
  .commit-actions {
    display: flex;
    justify-content: flex-end;
    gap: var(--hermes-space-xs);
  }
  @media (max-width: 639px) {
    .file {
      min-height: 40px;
      font-size: var(--hermes-text-body);
    }
    /* No hover on a phone: the row's actions are always there. */
    .file-actions {
      visibility: visible;
    }
    .file-actions .icon-button {
      min-width: 36px;
      min-height: 36px;
    }
  }
`;
