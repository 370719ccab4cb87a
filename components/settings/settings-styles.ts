import { css } from 'lit';

/** <hermes-settings-dialog>'s look: a modal card of label/control rows, grouped in sections. */
export const settingsStyles = css`
  dialog {
    width: min(560px, calc(100vw - 2 * var(--hermes-space-lg)));
    max-width: none;
    max-height: min(680px, calc(100dvh - 2 * var(--hermes-space-lg)));
    padding: 0;
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-lg);
    background: var(--hermes-panel);
    color: var(--hermes-fg);
    box-shadow: var(--hermes-shadow-popover);
    overflow: hidden;
    /* Anchored near the top, so filtering rows does not make the box jump. */
    margin-top: min(12vh, 96px);
  }
  dialog::backdrop {
    background: var(--hermes-scrim);
  }
  .box {
    display: flex;
    flex-direction: column;
    max-height: inherit;
  }
  header {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-sm);
    padding: var(--hermes-space-md) var(--hermes-space-md) var(--hermes-space-sm) var(--hermes-space-lg);
  }
  h2 {
    margin: 0;
    flex: 1;
    font-size: var(--hermes-text-h2);
    font-weight: 600;
  }
  .saved {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    color: var(--hermes-color-success);
    opacity: 0;
    transition: opacity var(--hermes-duration);
  }
  .saved[data-on] {
    opacity: 1;
  }
  .search {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-sm);
    margin: 0 var(--hermes-space-lg) var(--hermes-space-sm);
    padding: 0 var(--hermes-space-sm);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    background: var(--hermes-panel-subtle);
    color: var(--hermes-fg-muted);
  }
  .search:focus-within {
    border-color: var(--hermes-accent);
  }
  .search input {
    flex: 1;
    border: 0;
    background: transparent;
    padding: var(--hermes-space-sm) 0;
    outline: none;
  }
  .search input::-webkit-search-cancel-button {
    appearance: none;
  }
  .content {
    overflow: auto;
    padding: 0 var(--hermes-space-lg) var(--hermes-space-lg);
  }
  section + section {
    margin-top: var(--hermes-space-sm);
  }
  h3 {
    margin: var(--hermes-space-md) 0 var(--hermes-space-xs);
    font-size: var(--hermes-text-meta);
    font-weight: 500;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: var(--hermes-fg-muted);
  }
  .row {
    display: flex;
    align-items: center;
    justify-content: space-between;
    flex-wrap: wrap;
    gap: var(--hermes-space-sm) var(--hermes-space-lg);
    padding: var(--hermes-space-sm) 0;
    border-top: var(--hermes-border-width) solid var(--hermes-border);
  }
  section h3 + .row {
    border-top: 0;
  }
  .text {
    flex: 1 1 180px;
    min-width: 0;
  }
  .text label {
    font-size: var(--hermes-text-body);
  }
  .hint {
    margin: 2px 0 0;
  }
  .state {
    display: flex;
    align-items: center;
    flex-wrap: wrap;
    gap: var(--hermes-space-xs);
    margin: 2px 0 0;
  }
  .state svg {
    width: 12px;
    height: 12px;
    flex: none;
  }
  .state.ok {
    color: var(--hermes-color-success);
  }
  .state.error {
    color: var(--hermes-color-error);
    overflow-wrap: anywhere;
  }
  .tag {
    padding: 0 var(--hermes-space-xs);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-sm);
    color: var(--hermes-fg-muted);
  }
  .hint {
    overflow-wrap: anywhere;
  }
  .control {
    flex: 0 1 auto;
    display: flex;
    flex-direction: column;
    align-items: flex-end;
    gap: var(--hermes-space-xs);
    max-width: 100%;
  }
  /* An open password, key or endpoint form takes the row's whole width, under its label. */
  .control:has(> hermes-password-settings[open]),
  .control:has(> hermes-provider-row[open]),
  .control:has(> hermes-endpoint-form[open]),
  .control:has(> hermes-provider-add[open]),
  .control:has(> hermes-gateway-settings),
  .control:has(> hermes-skin-picker) {
    flex: 1 1 100%;
    align-items: stretch;
  }
  .control:has(> hermes-gateway-settings) > .segmented {
    align-self: flex-end;
  }
  .control > button {
    font-size: var(--hermes-text-label);
  }
  .segmented {
    display: inline-flex;
    padding: 2px;
    gap: 2px;
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    background: var(--hermes-panel-subtle);
  }
  .segmented input {
    position: absolute;
    opacity: 0;
    pointer-events: none;
  }
  .segmented span {
    display: inline-block;
    padding: var(--hermes-space-xs) var(--hermes-space-md);
    border-radius: var(--hermes-radius-sm);
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    cursor: pointer;
  }
  .segmented span:hover {
    color: var(--hermes-fg);
  }
  .segmented input:checked + span {
    background: var(--hermes-selected);
    color: var(--hermes-fg);
  }
  .segmented input:focus-visible + span {
    outline: 2px solid var(--hermes-focus-ring);
  }
  select {
    min-width: 140px;
  }
  .path {
    width: 280px;
    max-width: 100%;
    font-size: var(--hermes-text-label);
  }
  .path[aria-invalid='true'] {
    border-color: var(--hermes-color-error);
  }
  .field-error {
    margin: 0;
    max-width: 280px;
    color: var(--hermes-color-error);
    font-size: var(--hermes-text-label);
    text-align: right;
  }
  .readonly {
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    border: var(--hermes-border-width) dashed var(--hermes-border);
    border-radius: var(--hermes-radius-md);
  }
  .switch {
    appearance: none;
    position: relative;
    width: 36px;
    height: 20px;
    margin: 0;
    padding: 0;
    border-radius: var(--hermes-radius-pill);
    background: var(--hermes-panel-subtle);
    cursor: pointer;
    transition: background var(--hermes-duration);
  }
  .switch::after {
    content: '';
    position: absolute;
    top: 2px;
    left: 2px;
    width: 14px;
    height: 14px;
    border-radius: var(--hermes-radius-pill);
    background: var(--hermes-fg-muted);
    transition: transform var(--hermes-duration);
  }
  .switch:checked {
    background: var(--hermes-accent);
    border-color: var(--hermes-accent);
  }
  .switch:checked::after {
    transform: translateX(16px);
    background: var(--hermes-color-ink);
  }
  .links {
    display: flex;
    gap: var(--hermes-space-sm);
  }
  a.button {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    color: inherit;
    text-decoration: none;
    font-size: var(--hermes-text-label);
  }
  a.button:hover {
    background: var(--hermes-hover);
  }
  .empty {
    padding: var(--hermes-space-lg) 0;
    text-align: center;
  }
  footer {
    padding: var(--hermes-space-sm) var(--hermes-space-lg);
    border-top: var(--hermes-border-width) solid var(--hermes-border);
  }
  @media (max-width: 639px) {
    dialog {
      width: 100vw;
      max-height: 100dvh;
      height: 100dvh;
      border: 0;
      border-radius: 0;
    }
    .box {
      height: 100%;
      padding-top: env(safe-area-inset-top);
      padding-bottom: env(safe-area-inset-bottom);
    }
    dialog {
      margin: 0;
    }
    .content {
      flex: 1;
    }
    .control:has(.path),
    .path,
    .field-error {
      flex: 1 1 100%;
      width: 100%;
      max-width: none;
    }
    header .icon-button,
    .segmented span,
    .control > button,
    a.button,
    select,
    .path {
      min-height: var(--hermes-touch-target);
    }
    .segmented span {
      display: inline-grid;
      place-items: center;
    }
  }
`;
