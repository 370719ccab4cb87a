import { css } from 'lit';

/** The Tasks panel: the job list beside the open job (stacked on phones), its form and history. */
export const tasksStyles = css`
  .who {
    margin: 0;
    padding: var(--hermes-space-xs) var(--hermes-space-lg);
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
  }
  .row {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 2px var(--hermes-space-sm);
    padding: var(--hermes-space-xs) var(--hermes-space-lg);
    cursor: pointer;
  }
  .row:hover {
    background: var(--hermes-hover);
  }
  .row[aria-selected='true'] {
    background: var(--hermes-selected);
  }
  .name {
    font-weight: 500;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .meta {
    grid-column: 1 / 3;
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .dot {
    display: inline-block;
    width: 6px;
    height: 6px;
    margin-right: var(--hermes-space-xs);
    border-radius: var(--hermes-radius-pill);
    background: var(--hermes-accent);
    vertical-align: middle;
  }
  .chip {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-pill);
    padding: 0 var(--hermes-space-sm);
    white-space: nowrap;
    align-self: center;
  }
  .chip[data-state='running'] {
    color: var(--hermes-accent);
  }
  .chip[data-state='error'] {
    color: var(--hermes-color-error);
  }
  .head {
    display: flex;
    gap: var(--hermes-space-sm);
    align-items: center;
    flex-wrap: wrap;
  }
  .head h3 {
    margin: 0;
    flex: 1;
    font-size: var(--hermes-text-h3);
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: var(--hermes-space-xs) var(--hermes-space-md);
    font-size: var(--hermes-text-meta);
  }
  dt {
    color: var(--hermes-fg-muted);
  }
  dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  pre.prompt {
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-meta);
    background: var(--hermes-code-bg);
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    white-space: pre-wrap;
    margin: 0;
  }
  h4 {
    margin: var(--hermes-space-lg) 0 var(--hermes-space-xs);
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    text-transform: uppercase;
    letter-spacing: 0.04em;
  }
  .runs {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .runs button {
    display: grid;
    grid-template-columns: auto 1fr auto;
    gap: var(--hermes-space-sm);
    width: 100%;
    text-align: left;
    font-size: var(--hermes-text-meta);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    border-radius: var(--hermes-radius-md);
  }
  .runs button:hover,
  .runs button[aria-current='true'] {
    background: var(--hermes-hover);
  }
  .output {
    margin-top: var(--hermes-space-sm);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-sm) var(--hermes-space-md);
  }
  .confirm,
  .error {
    margin: var(--hermes-space-sm) 0;
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    border-radius: var(--hermes-radius-md);
    display: flex;
    gap: var(--hermes-space-sm);
    align-items: center;
  }
  .confirm {
    background: var(--hermes-warning-bg);
  }
  .error {
    background: var(--hermes-error-bg);
    color: var(--hermes-color-error);
  }
  form {
    display: grid;
    gap: var(--hermes-space-sm);
    max-width: 44rem;
  }
  label,
  legend {
    display: grid;
    gap: var(--hermes-space-xs);
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
  }
  fieldset {
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    display: flex;
    flex-wrap: wrap;
    gap: var(--hermes-space-xs) var(--hermes-space-md);
    max-height: 10rem;
    overflow: auto;
  }
  label.check {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    color: var(--hermes-fg);
  }
  form textarea {
    resize: vertical;
  }
  .hint {
    margin: 0;
    font-size: var(--hermes-text-meta);
  }
  .hint.bad {
    color: var(--hermes-color-error);
  }
  .next-runs {
    margin: var(--hermes-space-xs) 0 0;
    padding-left: var(--hermes-space-lg);
  }
  .actions {
    display: flex;
    gap: var(--hermes-space-sm);
    justify-content: flex-end;
  }
`;
