import { css } from 'lit';

/** The Skills panel's own layout: a list column beside the open skill (stacked on phones). */
export const skillsStyles = css`
  .panel-head input[type='search'],
  .panel-head select {
    font: inherit;
    color: inherit;
    background: var(--hermes-panel-subtle);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
  }
  .panel-head {
    flex-wrap: wrap;
  }
  .panel-head input[type='search'] {
    width: min(16rem, 40vw);
  }
  @media (max-width: 720px) {
    .panel-head input[type='search'] {
      flex: 1;
      min-width: 8rem;
    }
  }
  .category {
    display: flex;
    width: 100%;
    gap: var(--hermes-space-xs);
    align-items: center;
    padding: var(--hermes-space-xs) var(--hermes-space-lg);
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    text-transform: uppercase;
    letter-spacing: 0.04em;
    border-radius: 0;
    text-align: left;
  }
  .row {
    display: grid;
    grid-template-columns: auto 1fr auto;
    gap: 0 var(--hermes-space-sm);
    align-items: center;
    padding: var(--hermes-space-xs) var(--hermes-space-lg);
    cursor: pointer;
  }
  .row:hover {
    background: var(--hermes-hover);
  }
  .row[aria-current='true'] {
    background: var(--hermes-selected);
  }
  /* On the selected tint only the full text colour keeps 4.5:1. */
  .row[aria-current='true'] .desc {
    color: var(--hermes-fg);
  }
  .row.off .name,
  .row.off .desc {
    opacity: 0.55;
  }
  .row .name {
    font-weight: 500;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .row .desc {
    grid-column: 2 / 4;
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .row .uses {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-faint);
    font-variant-numeric: tabular-nums;
  }
  .row input {
    accent-color: var(--hermes-accent);
    margin: 0;
  }
  .detail-head {
    display: flex;
    gap: var(--hermes-space-sm);
    align-items: baseline;
    flex-wrap: wrap;
  }
  .detail-head h3 {
    margin: 0;
    flex: 1;
    font-size: var(--hermes-text-h3);
  }
  .chip {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-pill);
    padding: 0 var(--hermes-space-sm);
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
  details.fm pre,
  pre.file {
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-meta);
    background: var(--hermes-code-bg);
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    overflow: auto;
    white-space: pre-wrap;
  }
  .files h4 {
    margin: var(--hermes-space-md) 0 var(--hermes-space-xs);
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    text-transform: uppercase;
  }
  .files button {
    display: block;
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-meta);
    color: var(--hermes-accent);
  }
  form {
    display: grid;
    gap: var(--hermes-space-sm);
    max-width: 48rem;
  }
  label {
    display: grid;
    gap: var(--hermes-space-xs);
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
  }
  form input,
  form textarea {
    font: inherit;
    color: var(--hermes-fg);
    background: var(--hermes-panel-subtle);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
  }
  form textarea {
    font-family: var(--hermes-font-mono);
    min-height: 16rem;
    resize: vertical;
  }
  .actions {
    display: flex;
    gap: var(--hermes-space-sm);
    justify-content: flex-end;
  }
`;
