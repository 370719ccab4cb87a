import { css } from 'lit';

/** The composer's chips (model, workspace): a muted label that ellipsises, in a positioned wrapper for its menu. */
export const chipStyles = css`
  .wrap {
    position: relative;
    min-width: 0;
  }
  .chip {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    max-width: 100%;
    min-height: 32px;
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
  }
  .chip .label {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    min-width: 0;
  }
`;
