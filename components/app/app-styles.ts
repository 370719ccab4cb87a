import { css } from 'lit';

/** The application shell's layout: rail, sidebar, main view, workspace panel; phones stack them. */
export const appStyles = css`
  :host {
    display: block;
    height: 100dvh;
    background: var(--hermes-bg);
    color: var(--hermes-fg);
  }
  hermes-onboarding {
    height: 100%;
  }
  .layout {
    display: grid;
    grid-template-columns: 0 minmax(0, 1fr) 0;
    height: 100%;
  }
  .layout[data-sidebar] {
    grid-template-columns: var(--hermes-sidebar-width) minmax(0, 1fr) 0;
  }
  .layout[data-panel] {
    grid-template-columns: 0 minmax(0, 1fr) var(--hermes-panel-width);
  }
  .layout[data-sidebar][data-panel] {
    grid-template-columns: var(--hermes-sidebar-width) minmax(0, 1fr) var(--hermes-panel-width);
  }
  .sidebar {
    overflow: hidden;
    background: var(--hermes-panel);
    border-right: var(--hermes-border-width) solid var(--hermes-border);
    min-height: 0;
  }
  .layout:not([data-sidebar]) .sidebar {
    visibility: hidden;
  }
  .main {
    display: flex;
    flex-direction: column;
    min-width: 0;
    min-height: 0;
  }
  .topbar {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    padding-top: max(var(--hermes-space-xs), env(safe-area-inset-top));
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
    min-height: 44px;
  }
  .topbar .title {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: var(--hermes-text-body);
    color: var(--hermes-fg-muted);
  }
  .offline {
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    padding: 0 var(--hermes-space-sm);
  }
  .shell {
    display: flex;
    height: 100%;
  }
  .shell > .layout {
    flex: 1;
    min-width: 0;
  }
  /* Chat and panel share one cell; a hidden chat keeps its layout, so its scroll stays put. */
  .views {
    flex: 1;
    min-height: 0;
    display: grid;
  }
  .views > * {
    grid-area: 1 / 1;
    min-height: 0;
    min-width: 0;
  }
  hermes-chat-view[data-hidden] {
    visibility: hidden;
  }
  hermes-panel-host {
    background: var(--hermes-bg);
  }
  .panel {
    min-width: 0;
    min-height: 0;
    border-left: var(--hermes-border-width) solid var(--hermes-border);
    background: var(--hermes-panel-subtle);
  }
  .toast {
    position: fixed;
    left: 50%;
    /* Under the top bar: never over the composer or an approval card. */
    top: calc(56px + env(safe-area-inset-top));
    transform: translateX(-50%);
    background: var(--hermes-panel);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    box-shadow: var(--hermes-shadow-popover);
    max-width: min(90vw, 480px);
    /* /status and /help speak in a few lines. */
    white-space: pre-line;
    z-index: 30;
  }
  .toast[data-kind='error'] {
    border-color: var(--hermes-color-error);
  }
  .scrim {
    position: fixed;
    inset: 0;
    background: var(--hermes-scrim);
    z-index: 10;
  }
  @media (max-width: 639px) {
    .layout,
    .layout[data-sidebar],
    .layout[data-panel],
    .layout[data-sidebar][data-panel] {
      grid-template-columns: minmax(0, 1fr);
    }
    .sidebar {
      position: fixed;
      inset: 0 auto 0 0;
      width: min(86vw, var(--hermes-sidebar-width));
      z-index: 20;
      transform: translateX(-100%);
      transition: transform var(--hermes-duration);
      padding-top: env(safe-area-inset-top);
      padding-bottom: env(safe-area-inset-bottom);
    }
    .layout[data-sidebar] .sidebar {
      transform: none;
    }
    .main {
      grid-column: 1;
    }
    .panel {
      position: fixed;
      inset: 0;
      z-index: 20;
    }
  }
`;
