import { css } from 'lit';

/**
 * The quiet disclosures under a turn (Activity, "Changed N files"): a muted summary row with a
 * caret that turns when `[data-open='true']`, and a body indented behind a hairline.
 */
export const disclosureStyles = css`
  .summary {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    margin-left: calc(-1 * var(--hermes-space-sm));
    color: var(--hermes-fg-muted);
  }
  .summary:hover {
    color: var(--hermes-fg);
  }
  .caret {
    display: inline-grid;
    transition: transform var(--hermes-duration);
  }
  [data-open='true'] .caret {
    transform: rotate(90deg);
  }
  .body {
    display: flex;
    flex-direction: column;
    margin-top: var(--hermes-space-xs);
    padding-left: var(--hermes-space-md);
    border-left: var(--hermes-border-width) solid var(--hermes-border);
  }
`;
