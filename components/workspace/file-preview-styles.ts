import { css } from 'lit';

/** <hermes-file-preview>'s look: a quiet header, then code, prose, an image or a note. */
export const previewStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 0;
    font-size: var(--hermes-text-label);
  }
  header {
    display: flex;
    align-items: center;
    gap: var(--hermes-space-xs);
    padding: var(--hermes-space-xs) var(--hermes-space-sm) var(--hermes-space-xs) var(--hermes-space-md);
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
  }
  .title {
    flex: 1;
    min-width: 0;
    display: flex;
    align-items: baseline;
    gap: var(--hermes-space-sm);
    overflow: hidden;
    white-space: nowrap;
  }
  .name {
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg);
    overflow: hidden;
    text-overflow: ellipsis;
    flex: none;
    max-width: 100%;
  }
  .dir {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-faint);
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .size {
    flex: none;
    font-variant-numeric: tabular-nums;
  }
  header .icon-button {
    color: var(--hermes-fg-muted);
    border-radius: var(--hermes-radius-md);
  }
  header .icon-button:hover {
    color: var(--hermes-fg);
    background: var(--hermes-hover);
  }
  a {
    color: inherit;
  }
  .code,
  .markdown,
  .image,
  .note {
    flex: 1;
    min-height: 0;
    overflow: auto;
  }
  .code {
    display: flex;
    align-items: flex-start;
    background: var(--hermes-code-bg);
  }
  pre {
    margin: 0;
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-label);
    line-height: var(--hermes-leading-user);
  }
  .gutter {
    position: sticky;
    left: 0;
    flex: none;
    min-height: 100%;
    padding: var(--hermes-space-sm) var(--hermes-space-sm) var(--hermes-space-sm) var(--hermes-space-md);
    text-align: right;
    color: var(--hermes-fg-faint);
    background: var(--hermes-code-bg);
    border-right: var(--hermes-border-width) solid var(--hermes-border);
    user-select: none;
    font-variant-numeric: tabular-nums;
  }
  .source {
    flex: 1;
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    tab-size: 4;
  }
  .markdown {
    padding: var(--hermes-space-md) var(--hermes-space-lg);
  }
  .image {
    display: grid;
    place-items: center;
    padding: var(--hermes-space-lg);
    background: var(--hermes-code-bg);
  }
  .image img {
    max-width: 100%;
    max-height: 100%;
    object-fit: contain;
    border-radius: var(--hermes-radius-sm);
  }
  .note {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: var(--hermes-space-sm);
    padding: var(--hermes-space-lg);
  }
  .note p {
    margin: 0;
  }
  .error {
    color: var(--hermes-color-error);
  }
  .download {
    display: inline-flex;
    align-items: center;
    gap: var(--hermes-space-sm);
    padding: var(--hermes-space-xs) var(--hermes-space-md);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
    text-decoration: none;
  }
  .download:hover {
    background: var(--hermes-hover);
  }
  hermes-file-editor {
    flex: 1;
  }
  @media (max-width: 639px) {
    header {
      min-height: var(--hermes-touch-target);
    }
    .download {
      min-height: var(--hermes-touch-target);
    }
  }
`;
