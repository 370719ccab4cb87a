import { css } from 'lit';

/** <hermes-onboarding>'s look: one quiet panel on the app's background, compact rows, one accent. */
export const onboardingStyles = css`
  :host {
    display: block;
    min-height: 100%;
    overflow-y: auto;
    background: var(--hermes-bg);
    color: var(--hermes-fg);
  }
  .page {
    display: flex;
    justify-content: center;
    align-items: flex-start;
    min-height: 100%;
    padding: max(var(--hermes-space-xl), 8vh) var(--hermes-space-lg) var(--hermes-space-xl);
  }
  .card {
    width: min(600px, 100%);
    background: var(--hermes-panel);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-lg);
    padding: var(--hermes-space-lg) var(--hermes-space-xl) var(--hermes-space-md);
  }
  header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    flex-wrap: wrap;
    gap: var(--hermes-space-sm) var(--hermes-space-lg);
    padding-bottom: var(--hermes-space-md);
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
  }
  .eyebrow {
    margin: 0;
    letter-spacing: 0.06em;
    text-transform: uppercase;
  }
  .steps {
    display: flex;
    gap: var(--hermes-space-md);
    margin: 0;
    padding: 0;
    list-style: none;
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
  }
  .steps li {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
  }
  .dot {
    display: inline-grid;
    place-items: center;
    width: 18px;
    height: 18px;
    border-radius: var(--hermes-radius-pill);
    border: var(--hermes-border-width) solid var(--hermes-border);
    font-family: var(--hermes-font-mono);
    font-size: 10px;
  }
  .dot svg {
    width: 12px;
    height: 12px;
  }
  .steps li[data-done] {
    color: var(--hermes-fg-muted);
  }
  .steps li[aria-current='step'] {
    color: var(--hermes-fg);
  }
  .steps li[aria-current='step'] .dot {
    border-color: var(--hermes-accent);
    color: var(--hermes-accent);
  }
  .step {
    display: flex;
    flex-direction: column;
    gap: var(--hermes-space-md);
    padding: var(--hermes-space-lg) 0 var(--hermes-space-sm);
    margin: 0;
  }
  h2 {
    margin: 0;
    font-size: var(--hermes-text-h1);
    font-weight: 600;
    letter-spacing: -0.005em;
  }
  h2:focus {
    outline: none;
  }
  h3 {
    display: flex;
    align-items: baseline;
    flex-wrap: wrap;
    gap: var(--hermes-space-sm);
    margin: 0 0 var(--hermes-space-sm);
    font-size: var(--hermes-text-meta);
    font-weight: 500;
    letter-spacing: 0.06em;
    text-transform: uppercase;
    color: var(--hermes-fg-muted);
  }
  h3 .meta {
    text-transform: none;
    letter-spacing: 0;
    color: var(--hermes-fg-muted);
  }
  .lead {
    margin: 0;
    font-family: var(--hermes-font-serif);
    font-size: var(--hermes-text-prose);
    line-height: var(--hermes-leading-prose);
    color: var(--hermes-fg-muted);
  }
  .lead a {
    color: var(--hermes-accent);
  }
  .options-list {
    margin: 0;
    padding-left: var(--hermes-space-lg);
    line-height: var(--hermes-leading-user);
  }
  .muted {
    color: var(--hermes-fg-muted);
  }

  /* What the server sees. */
  .facts {
    display: grid;
    margin: 0;
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    background: var(--hermes-panel-subtle);
  }
  .facts > div {
    display: grid;
    grid-template-columns: 108px minmax(0, 1fr);
    gap: var(--hermes-space-md);
    padding: var(--hermes-space-sm) var(--hermes-space-md);
  }
  .facts > div + div {
    border-top: var(--hermes-border-width) solid var(--hermes-border);
  }
  dt {
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
  }
  dd {
    margin: 0;
    min-width: 0;
    font-size: var(--hermes-text-label);
    overflow-wrap: anywhere;
  }
  .path {
    font-size: var(--hermes-text-meta);
  }
  .state {
    display: inline-flex;
    align-items: center;
    gap: 2px;
    margin-left: var(--hermes-space-xs);
    font-size: var(--hermes-text-meta);
  }
  .state svg {
    width: 12px;
    height: 12px;
  }
  .state.ok {
    color: var(--hermes-color-success);
  }
  .state.warn {
    color: var(--hermes-color-warning);
    margin-left: 0;
  }

  /* Something needs attention: allowed to be prominent. */
  .problem,
  .alert {
    margin: 0;
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    border: var(--hermes-border-width) solid color-mix(in srgb, var(--hermes-color-error) 60%, var(--hermes-border));
    border-radius: var(--hermes-radius-md);
    background: var(--hermes-error-bg);
    font-size: var(--hermes-text-label);
    line-height: var(--hermes-leading-user);
  }
  .problem p {
    margin: 0;
  }
  .problem p + p,
  .problem pre + p {
    margin-top: var(--hermes-space-xs);
  }
  .problem-title {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    color: var(--hermes-color-error);
  }
  .problem pre {
    margin: var(--hermes-space-xs) 0 0;
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    border-radius: var(--hermes-radius-sm);
    background: var(--hermes-code-bg);
    font-size: var(--hermes-text-meta);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .problem .detail {
    overflow-wrap: anywhere;
  }
  .alert {
    display: flex;
    gap: var(--hermes-space-sm);
    align-items: flex-start;
    margin: var(--hermes-space-sm) 0 0;
  }
  .alert svg {
    flex: none;
    margin-top: 2px;
    color: var(--hermes-color-error);
  }

  /* Providers. */
  .group + .group {
    margin-top: var(--hermes-space-xs);
  }
  .options {
    display: grid;
    grid-template-columns: repeat(3, minmax(0, 1fr));
    gap: var(--hermes-space-sm);
  }
  .option {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 2px;
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    text-align: left;
    border-color: var(--hermes-border);
    background: var(--hermes-panel-subtle);
  }
  .option:hover:not(:disabled) {
    border-color: color-mix(in srgb, var(--hermes-accent) 50%, var(--hermes-border));
    background: var(--hermes-panel-subtle);
  }
  .option[aria-pressed='true'] {
    border-color: var(--hermes-accent);
    background: var(--hermes-selected);
  }
  .option-title {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-sm);
    font-size: var(--hermes-text-body);
  }
  .option-blurb {
    line-height: var(--hermes-leading-ui);
  }
  .badge {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-color-success);
  }

  /* Fields. */
  .fields {
    display: flex;
    flex-direction: column;
    gap: var(--hermes-space-md);
  }
  .field {
    display: flex;
    flex-direction: column;
    gap: var(--hermes-space-xs);
    min-width: 0;
  }
  .field label,
  legend {
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
  }
  .field input,
  .field select {
    width: 100%;
    min-height: 34px;
  }
  .field input.mono {
    font-size: var(--hermes-text-label);
  }
  .field input.mono::placeholder {
    font-family: var(--hermes-font-sans);
  }
  .lead .mono,
  .options-list .mono {
    font-size: 0.88em;
  }
  .field select + input {
    margin-top: var(--hermes-space-xs);
  }
  input:focus-visible,
  select:focus-visible {
    outline: none;

    border-color: var(--hermes-accent);

    /* A ring, not only a border colour: focus must show as clearly as the outline elsewhere. */

    box-shadow: 0 0 0 1px var(--hermes-focus-ring);
  }
  [aria-invalid='true'] {
    border-color: var(--hermes-color-error);
  }
  .hint {
    margin: 0;
    line-height: var(--hermes-leading-ui);
  }
  .field-error {
    margin: 0;
    font-size: var(--hermes-text-label);
    color: var(--hermes-color-error);
  }
  .field-error:empty {
    display: none;
  }
  fieldset.password {
    display: flex;
    flex-direction: column;
    gap: var(--hermes-space-sm);
    margin: 0;
    padding: var(--hermes-space-sm) var(--hermes-space-md) var(--hermes-space-md);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
  }
  legend {
    padding: 0 var(--hermes-space-xs);
  }
  .probe-row {
    display: flex;
    align-items: center;
    flex-wrap: wrap;
    gap: var(--hermes-space-sm);
  }
  .probe-row button {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    font-size: var(--hermes-text-label);
  }
  .probe-row .state {
    margin-left: 0;
    font-size: var(--hermes-text-label);
  }
  /* What a tested Hermes Agent is: its model, then (quietly) what its path cannot do. */
  .agent-facts {
    display: flex;
    flex-direction: column;
    gap: var(--hermes-space-xs);
    margin-top: calc(-1 * var(--hermes-space-xs));
    line-height: var(--hermes-leading-ui);
  }
  .agent-facts p {
    margin: 0;
  }
  .limits {
    margin: 0;
    padding-left: var(--hermes-space-lg);
  }
  .summary {
    margin: 0;
    overflow-wrap: anywhere;
  }

  /* Buttons. */
  .actions {
    display: flex;
    justify-content: flex-end;
    align-items: center;
    flex-wrap: wrap;
    gap: var(--hermes-space-sm);
    margin-top: var(--hermes-space-xs);
  }
  .actions [data-role='onboarding-back'] {
    margin-right: auto;
    color: var(--hermes-fg-muted);
  }
  .actions button.primary {
    padding: var(--hermes-space-xs) var(--hermes-space-lg);
    min-height: 34px;
  }
  .actions button.outline {
    min-height: 34px;
  }
  footer.quiet {
    display: flex;
    justify-content: center;
    padding-top: var(--hermes-space-sm);
    border-top: var(--hermes-border-width) solid var(--hermes-border);
    margin-top: var(--hermes-space-sm);
  }
  footer.quiet:empty {
    display: none;
  }
  button.link {
    border: 0;
    padding: var(--hermes-space-xs);
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
  }
  button.link:hover:not(:disabled) {
    background: transparent;
    color: var(--hermes-fg);
    text-decoration: underline;
  }

  @media (max-width: 639px) {
    .page {
      padding: 0;
    }
    .card {
      min-height: 100dvh;
      border: 0;
      border-radius: 0;
      padding: max(var(--hermes-space-md), env(safe-area-inset-top)) var(--hermes-space-lg) max(var(--hermes-space-md), env(safe-area-inset-bottom));
    }
    .step-label {
      display: none;
    }
    .steps li[aria-current='step'] .step-label {
      display: inline;
    }
    .options {
      grid-template-columns: minmax(0, 1fr);
    }
    .facts > div {
      grid-template-columns: minmax(0, 1fr);
      gap: 2px;
    }
    .field input,
    .field select,
    .actions button,
    .actions button.primary,
    .actions button.outline,
    .option,
    .probe-row button,
    button.link {
      min-height: var(--hermes-touch-target);
    }
    .field input,
    .field input.mono,
    .field select {
      font-size: 16px; /* no zoom-on-focus on iOS */
    }
    .actions button.primary {
      flex: 1;
    }
  }
  @media (min-width: 640px) and (max-width: 720px) {
    .options {
      grid-template-columns: repeat(2, minmax(0, 1fr));
    }
  }
`;
