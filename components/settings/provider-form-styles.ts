import { css } from 'lit';

/**
 * A settings row's own control: its buttons (with a quiet "done" line beside them), hidden
 * while the host is `open` with a form. Shared by the Providers rows and the password control.
 */
export const inlineControlStyles = css`
  :host {
    display: block;
    max-width: 100%;
  }
  button {
    font-size: var(--hermes-text-label);
  }
  .actions {
    display: flex;
    align-items: center;
    justify-content: flex-end;
    flex-wrap: wrap;
    gap: var(--hermes-space-sm);
  }
  .done {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    color: var(--hermes-color-success);
  }
  .done:empty {
    display: none;
  }
  :host([open]) .actions {
    display: none;
  }
`;

/** The Providers rows' small inline forms (a key, an endpoint, a confirmation), like the password form. */
export const providerFormStyles = css`
  ${inlineControlStyles}
  .key {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
  }
  form,
  .confirm {
    display: flex;
    flex-direction: column;
    gap: var(--hermes-space-sm);
    padding: var(--hermes-space-sm) 0 var(--hermes-space-xs);
  }
  .fields {
    display: grid;
    grid-template-columns: max-content minmax(0, 300px);
    justify-content: end;
    align-items: center;
    gap: var(--hermes-space-sm) var(--hermes-space-md);
  }
  .fields label {
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    text-align: right;
  }
  .fields input {
    width: 100%;
    font-size: var(--hermes-text-label);
  }
  input[aria-invalid='true'] {
    border-color: var(--hermes-color-error);
  }
  input:focus-visible {
    outline: none;

    border-color: var(--hermes-accent);

    /* A ring, not only a border colour: focus must show as clearly as the outline elsewhere. */

    box-shadow: 0 0 0 1px var(--hermes-focus-ring);
  }
  .note,
  .field-error,
  .probe {
    margin: 0;
    text-align: right;
    font-size: var(--hermes-text-label);
  }
  .note {
    color: var(--hermes-fg-muted);
  }
  .field-error,
  .probe[data-ok='false'] {
    color: var(--hermes-color-error);
  }
  .probe[data-ok='true'] {
    color: var(--hermes-color-success);
  }
  .field-error:empty,
  .probe:empty {
    display: none;
  }
  .buttons {
    display: flex;
    justify-content: flex-end;
    flex-wrap: wrap;
    gap: var(--hermes-space-sm);
  }
  .buttons .test {
    margin-right: auto;
  }
  @media (max-width: 639px) {
    .fields {
      grid-template-columns: minmax(0, 1fr);
      gap: var(--hermes-space-xs);
    }
    .fields label {
      text-align: left;
    }
    .fields input + label {
      margin-top: var(--hermes-space-xs);
    }
    .fields input,
    button {
      min-height: var(--hermes-touch-target);
    }
    .fields input {
      font-size: 16px;
    }
    .note,
    .field-error,
    .probe {
      text-align: left;
    }
  }
`;
