import { css } from 'lit';
import { popoverMenuStyles } from './popover-menu.js';
import { baseStyles } from '../shared/styles.js';

/**
 * The workspace chip's menu, loaded with it on first use: the popover box and search of
 * popover-menu.ts, and the list, completion and "Add folder…" rows of its own.
 */
export const workspaceMenuStyles = [
  baseStyles,
  popoverMenuStyles,
  css`
    .search {
      padding: var(--hermes-space-xs) var(--hermes-space-sm);
    }
    .search input {
      flex: 1;
      min-width: 0;
      border: 0;
      background: transparent;
      padding: var(--hermes-space-xs) 0;
      font-size: var(--hermes-text-label);
      outline: none;
    }
    .search input::-webkit-search-cancel-button {
      appearance: none;
    }
    .list {
      flex: 1;
      min-height: 0;
      overflow-y: auto;
      padding: var(--hermes-space-xs);
    }
    .option {
      display: flex;
      align-items: center;
      gap: var(--hermes-space-xs);
      min-height: 34px;
      padding: var(--hermes-space-xs) var(--hermes-space-sm);
      font-size: var(--hermes-text-label);
      border-radius: var(--hermes-radius-sm);
      cursor: pointer;
    }
    .option[data-active] {
      background: var(--hermes-hover);
    }
    .option[data-current] {
      background: var(--hermes-selected);
    }
    .option .text {
      display: flex;
      flex-direction: column;
      flex: 1;
      min-width: 0;
    }
    .option .name,
    .option .path {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .option .path {
      color: var(--hermes-fg-faint);
      font-family: var(--hermes-font-mono);
      font-size: var(--hermes-text-meta);
    }
    .check {
      display: inline-grid;
      width: 16px;
      flex: none;
    }
    .here {
      flex: none;
      color: var(--hermes-fg-muted);
    }
    .foot {
      display: flex;
      flex-wrap: wrap;
      gap: var(--hermes-space-xs);
      padding: var(--hermes-space-xs);
      border-top: var(--hermes-border-width) solid var(--hermes-border);
    }
    .foot button {
      display: inline-flex;
      align-items: center;
      gap: var(--hermes-space-xs);
      font-size: var(--hermes-text-label);
    }
    .add {
      display: flex;
      flex-direction: column;
      gap: var(--hermes-space-xs);
      padding: var(--hermes-space-sm);
      border-top: var(--hermes-border-width) solid var(--hermes-border);
    }
    .add .row {
      display: flex;
      gap: var(--hermes-space-xs);
    }
    .add input {
      flex: 1;
      min-width: 0;
      font-family: var(--hermes-font-mono);
      font-size: var(--hermes-text-label);
    }
    .suggestion {
      padding: var(--hermes-space-xs) var(--hermes-space-sm);
      font-family: var(--hermes-font-mono);
      font-size: var(--hermes-text-meta);
      border-radius: var(--hermes-radius-sm);
      cursor: pointer;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .suggestion[data-active] {
      background: var(--hermes-hover);
    }
    .error {
      color: var(--hermes-color-error);
      font-size: var(--hermes-text-meta);
    }
    .empty {
      padding: var(--hermes-space-sm);
    }
    @media (max-width: 639px) {
      .option {
        min-height: var(--hermes-touch-target);
      }
      .search input,
      .add input {
        font-size: 16px; /* no zoom-on-focus on iOS */
      }
    }
  `,
];
