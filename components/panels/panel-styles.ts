import { css } from 'lit';

/**
 * What every control-center panel shares: a header with the title and its actions, a body that
 * scrolls on its own, quiet rows. Calm Console: tokens only, one accent, hairline borders.
 */
export const panelStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 0;
    height: 100%;
    color: var(--hermes-fg);
  }
  section[data-role='panel'] {
    display: flex;
    flex-direction: column;
    min-height: 0;
    height: 100%;
  }
  .panel-head {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-sm);
    padding: var(--hermes-space-md) var(--hermes-space-lg);
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
  }
  .panel-head h2 {
    margin: 0;
    flex: 1;
    font-size: var(--hermes-text-h2);
    font-weight: 600;
  }
  /* A list beside the open item (Skills, Tasks); stacked on a phone. */
  .split {
    display: grid;
    grid-template-columns: minmax(16rem, 22rem) 1fr;
    flex: 1;
    min-height: 0;
  }
  .list {
    overflow: auto;
    border-right: var(--hermes-border-width) solid var(--hermes-border);
    padding: var(--hermes-space-sm) 0;
  }
  .detail {
    overflow: auto;
    min-width: 0;
    padding: var(--hermes-space-md) var(--hermes-space-lg);
  }
  @media (max-width: 720px) {
    .split {
      grid-template-columns: 1fr;
      grid-auto-rows: minmax(0, auto);
      overflow: auto;
    }
    .list {
      border-right: none;
      border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      max-height: 45vh;
    }
  }
  .panel-body {
    flex: 1;
    min-height: 0;
    overflow: auto;
    padding: var(--hermes-space-md) var(--hermes-space-lg);
  }
  .muted {
    color: var(--hermes-fg-muted);
  }
  .empty {
    padding: var(--hermes-space-xl) 0;
    text-align: center;
    color: var(--hermes-fg-muted);
  }
`;
