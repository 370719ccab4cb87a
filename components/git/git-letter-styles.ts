import { css } from 'lit';

/** A status letter's colour, shared by the Git panel and the file tree's badges. */
export const gitLetterStyles = css`
  [data-letter='M'] {
    color: var(--hermes-color-warning);
  }
  [data-letter='A'],
  [data-letter='?'] {
    color: var(--hermes-color-success);
  }
  [data-letter='D'],
  [data-letter='U'] {
    color: var(--hermes-color-error);
  }
  [data-letter='R'] {
    color: var(--hermes-color-info);
  }
`;
