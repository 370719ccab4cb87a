import { css } from 'lit';
import { baseStyles } from '../shared/styles.js';

/** Assistant prose: editorial serif, quiet code blocks, syntax colours from tokens only. */
export const proseStyles = [
  baseStyles,
  css`
    :host {
      display: block;
      min-width: 0;
      font-family: var(--hermes-font-serif);
      font-size: var(--hermes-text-prose);
      line-height: var(--hermes-leading-prose);
      color: var(--hermes-fg);
      overflow-wrap: anywhere;
    }
    .prose > :first-child {
      margin-top: 0;
    }
    .prose > :last-child {
      margin-bottom: 0;
    }
    p,
    ul,
    ol,
    blockquote,
    table,
    .code-block {
      margin: 0 0 var(--hermes-space-md);
    }
    h1,
    h2,
    h3,
    h4,
    h5,
    h6 {
      font-family: var(--hermes-font-sans);
      font-weight: 600;
      line-height: var(--hermes-leading-ui);
      margin: var(--hermes-space-xl) 0 var(--hermes-space-sm);
    }
    h1 {
      font-size: var(--hermes-text-h1);
    }
    h2 {
      font-size: var(--hermes-text-h2);
    }
    h3,
    h4,
    h5,
    h6 {
      font-size: var(--hermes-text-h3);
    }
    ul,
    ol {
      padding-left: var(--hermes-space-xl);
    }
    li + li {
      margin-top: var(--hermes-space-xs);
    }
    li > p {
      margin: 0;
    }
    a {
      color: var(--hermes-accent);
      text-underline-offset: 2px;
    }
    blockquote {
      padding: 0 var(--hermes-space-md);
      border-left: 2px solid var(--hermes-border);
      color: var(--hermes-fg-muted);
    }
    hr {
      border: none;
      border-top: var(--hermes-border-width) solid var(--hermes-border);
      margin: var(--hermes-space-xl) 0;
    }
    img {
      max-width: 100%;
    }
    table {
      display: block;
      max-width: 100%;
      overflow-x: auto;
      border-collapse: collapse;
      font-family: var(--hermes-font-sans);
      font-size: var(--hermes-text-body);
      line-height: var(--hermes-leading-ui);
    }
    th,
    td {
      border: var(--hermes-border-width) solid var(--hermes-border);
      padding: var(--hermes-space-xs) var(--hermes-space-sm);
      text-align: left;
      vertical-align: top;
    }
    th {
      font-weight: 600;
      background: var(--hermes-panel-subtle);
    }
    code {
      font-family: var(--hermes-font-mono);
      font-size: 0.86em;
    }
    :not(pre) > code {
      padding: 1px var(--hermes-space-xs);
      border-radius: var(--hermes-radius-sm);
      background: var(--hermes-code-bg);
      border: var(--hermes-border-width) solid var(--hermes-border);
    }
    .code-block {
      border: var(--hermes-border-width) solid var(--hermes-border);
      border-radius: var(--hermes-radius-md);
      background: var(--hermes-code-bg);
      overflow: hidden;
    }
    .code-head {
      display: flex;
      align-items: center;
      justify-content: space-between;
      padding: 2px var(--hermes-space-xs) 2px var(--hermes-space-md);
      border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      font-family: var(--hermes-font-mono);
      font-size: var(--hermes-text-meta);
      line-height: var(--hermes-leading-ui);
      color: var(--hermes-fg-muted);
    }
    .code-head .copy {
      font-family: var(--hermes-font-sans);
      font-size: var(--hermes-text-meta);
      color: var(--hermes-fg-muted);
      padding: 2px var(--hermes-space-sm);
    }
    pre {
      margin: 0;
      padding: var(--hermes-space-md);
      overflow-x: auto;
      font-size: var(--hermes-text-label);
      line-height: 1.55;
      tab-size: 2;
    }
    pre code {
      font-size: inherit;
    }
    .math-display {
      display: block;
      overflow-x: auto;
      overflow-y: hidden;
    }
    .hljs-keyword,
    .hljs-built_in,
    .hljs-literal,
    .hljs-type,
    .hljs-selector-tag,
    .hljs-meta {
      color: var(--hermes-syntax-keyword);
    }
    .hljs-string,
    .hljs-regexp,
    .hljs-symbol,
    .hljs-addition,
    .hljs-template-tag {
      color: var(--hermes-syntax-string);
    }
    .hljs-number,
    .hljs-variable.constant_,
    .hljs-attr,
    .hljs-attribute {
      color: var(--hermes-syntax-number);
    }
    .hljs-comment,
    .hljs-quote,
    .hljs-doctag {
      color: var(--hermes-syntax-comment);
      font-style: italic;
    }
    .hljs-title,
    .hljs-section,
    .hljs-name,
    .hljs-selector-class,
    .hljs-selector-id {
      color: var(--hermes-syntax-title);
    }
    .hljs-deletion {
      color: var(--hermes-color-error);
    }
  `,
];
