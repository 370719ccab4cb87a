import { css } from 'lit';

/** Every typed word of `query` appears somewhere in `texts` (case-insensitive): the menus' search. */
export function matchesWords(query: string, ...texts: string[]): boolean {
  const hay = texts.join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.includes(word));
}

/**
 * The composer chips' popover menus (model, workspace), each a chunk loaded on first use: a box
 * above the bar against the chip's wrapper (the host has none), search on top.
 */
export const popoverMenuStyles = css`
  :host {
    display: contents;
  }
  .menu {
    position: absolute;
    bottom: calc(100% + var(--hermes-space-xs));
    left: 0;
    z-index: 5;
    display: flex;
    flex-direction: column;
    width: min(var(--hermes-panel-width), calc(100vw - 2 * var(--hermes-space-lg)));
    max-height: min(60vh, 460px);
    background: var(--hermes-panel);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    box-shadow: var(--hermes-shadow-popover);
    overflow: hidden;
  }
  .search {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
    color: var(--hermes-fg-muted);
  }
`;
