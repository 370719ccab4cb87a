import { css } from 'lit';

/** Insights: quiet figures, hairline tables, one accent for the charts (tokens only). */
export const insightsStyles = css`
  .presets {
    display: flex;
    gap: 2px;
    padding: 2px;
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
  }
  .presets button {
    font: inherit;
    font-size: var(--hermes-text-label);
    color: var(--hermes-fg-muted);
    background: transparent;
    border: 0;
    border-radius: var(--hermes-radius-sm);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    cursor: pointer;
  }
  .presets button:hover {
    background: var(--hermes-hover);
  }
  .presets button[aria-pressed='true'] {
    color: var(--hermes-fg);
    background: var(--hermes-selected);
  }
  button:focus-visible,
  input:focus-visible,
  summary:focus-visible {
    outline: 2px solid var(--hermes-focus-ring);
    outline-offset: 1px;
  }
  .range {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--hermes-space-sm);
    margin-bottom: var(--hermes-space-md);
    font-size: var(--hermes-text-label);
  }
  .range input {
    font: inherit;
    color: var(--hermes-fg);
    background: var(--hermes-panel-subtle);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-sm);
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    color-scheme: inherit;
  }
  .totals {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(120px, 1fr));
    gap: var(--hermes-space-sm);
    margin: 0 0 var(--hermes-space-lg);
  }
  .totals div {
    padding: var(--hermes-space-sm) var(--hermes-space-md);
    border: var(--hermes-border-width) solid var(--hermes-border);
    border-radius: var(--hermes-radius-md);
  }
  .totals dt {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
  }
  .totals dd {
    margin: 2px 0 0;
    font-size: var(--hermes-text-h3);
    font-variant-numeric: tabular-nums;
  }
  h3 {
    margin: 0 0 var(--hermes-space-sm);
    font-size: var(--hermes-text-label);
    font-weight: 600;
  }
  .block {
    margin-bottom: var(--hermes-space-lg);
  }
  .chart {
    margin: 0;
  }
  .chart svg {
    display: block;
    width: 100%;
    height: 140px;
  }
  .chart .hit {
    fill: transparent;
  }
  .chart .day:hover .hit {
    fill: var(--hermes-hover);
  }
  .chart .output,
  .swatch.output {
    fill: var(--hermes-accent);
    background: var(--hermes-accent);
  }
  .chart .input,
  .swatch.input {
    fill: color-mix(in srgb, var(--hermes-accent) 45%, transparent);
    background: color-mix(in srgb, var(--hermes-accent) 45%, transparent);
  }
  .chart .cost {
    fill: none;
    stroke: var(--hermes-fg-muted);
    stroke-width: 1.5;
  }
  .swatch.cost {
    height: 2px;
    background: var(--hermes-fg-muted);
  }
  .chart-scale,
  .chart-axis,
  .legend {
    display: flex;
    justify-content: space-between;
    gap: var(--hermes-space-md);
    font-size: var(--hermes-text-meta);
  }
  .legend {
    justify-content: flex-start;
    margin-top: var(--hermes-space-xs);
  }
  .swatch {
    display: inline-block;
    width: 10px;
    height: 10px;
    margin-right: 4px;
    border-radius: 2px;
    vertical-align: middle;
  }
  .values summary {
    cursor: pointer;
    font-size: var(--hermes-text-meta);
    color: var(--hermes-fg-muted);
    margin-top: var(--hermes-space-xs);
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: var(--hermes-text-label);
    font-variant-numeric: tabular-nums;
  }
  th,
  td {
    text-align: right;
    padding: var(--hermes-space-xs) var(--hermes-space-sm);
    border-bottom: var(--hermes-border-width) solid var(--hermes-border);
    font-weight: 400;
  }
  th:first-child,
  td:first-child {
    text-align: left;
  }
  thead th {
    color: var(--hermes-fg-muted);
    font-size: var(--hermes-text-meta);
  }
  .model {
    font-family: var(--hermes-font-mono);
    font-size: var(--hermes-text-meta);
    overflow-wrap: anywhere;
  }
  .heats {
    display: grid;
    grid-template-columns: minmax(0, 1fr) minmax(0, 2fr);
    gap: var(--hermes-space-lg);
  }
  @media (max-width: 640px) {
    .heats {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  .cells {
    display: grid;
    gap: 2px;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .cells.weekday {
    grid-template-columns: repeat(7, minmax(0, 1fr));
  }
  .cells.hour {
    grid-template-columns: repeat(24, minmax(0, 1fr));
  }
  .cell {
    display: flex;
    flex-direction: column;
    justify-content: flex-end;
    min-height: 36px;
    border-radius: var(--hermes-radius-sm);
    background: color-mix(in srgb, var(--hermes-accent) calc(var(--level) * 85%), var(--hermes-panel-subtle));
    border: var(--hermes-border-width) solid var(--hermes-border);
  }
  .cell-label {
    font-size: 10px;
    text-align: center;
    color: var(--hermes-fg-muted);
    /* Its own ground: the cell's accent tint would take the label under 4.5:1. */
    background: var(--hermes-panel-subtle);
    padding-bottom: 2px;
  }
  .footer {
    font-size: var(--hermes-text-meta);
    text-align: center;
    margin-top: var(--hermes-space-md);
  }
  .note {
    font-size: var(--hermes-text-meta);
    color: var(--hermes-color-warning);
  }
`;
