import { html, nothing, svg } from 'lit';
import type { InsightsReport } from '../../api/insights.js';
import { formatCost, formatTokens } from '../../chat/usage-format.js';

/**
 * Insights' charts: our own small SVG and CSS grids (no chart library). One accent hue: output
 * tokens in the accent, input tokens in a lighter mix of it, cost as a muted line.
 */

const BAR = 10;
const HEIGHT = 100;

type Day = InsightsReport['daily_tokens'][number];

const dayLabel = (d: Day) =>
  `${d.date}: ${formatTokens(d.input_tokens)} in, ${formatTokens(d.output_tokens)} out, ${formatCost(d.cost)}, ${d.sessions} session${d.sessions === 1 ? '' : 's'}`;

/** Daily tokens (stacked input/output bars) and cost (a line on its own scale), with a table of the values. */
export function dailyChart(days: Day[]) {
  const maxTokens = Math.max(1, ...days.map((d) => d.input_tokens + d.output_tokens));
  const maxCost = Math.max(0, ...days.map((d) => d.cost));
  const width = Math.max(days.length, 1) * BAR;
  const y = (v: number, max: number) => HEIGHT - (max > 0 ? (v / max) * (HEIGHT - 4) : 0);
  const costPoints = days.map((d, i) => `${i * BAR + BAR / 2},${y(d.cost, maxCost).toFixed(2)}`).join(' ');
  const busy = days.filter((d) => d.sessions > 0).length;
  const summary = `Daily tokens and cost, ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}: ${busy} active day${busy === 1 ? '' : 's'}, peak ${formatTokens(maxTokens)} tokens`;
  return html`<figure class="chart" data-role="insights-daily-chart" data-days=${days.length}>
    <div class="chart-scale muted"><span>${formatTokens(maxTokens)} tokens</span>${maxCost > 0 ? html`<span>${formatCost(maxCost)}</span>` : nothing}</div>
    <svg viewBox="0 0 ${width} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label=${summary}>
      <title>${summary}</title>
      ${days.map((d, i) => {
        const out = HEIGHT - y(d.output_tokens, maxTokens);
        const inp = HEIGHT - y(d.input_tokens, maxTokens);
        return svg`<g class="day" data-date=${d.date}>
          <title>${dayLabel(d)}</title>
          <rect class="hit" x=${i * BAR} y="0" width=${BAR} height=${HEIGHT}></rect>
          <rect class="input" x=${i * BAR + 1} y=${HEIGHT - inp - out} width=${BAR - 2} height=${inp}></rect>
          <rect class="output" x=${i * BAR + 1} y=${HEIGHT - out} width=${BAR - 2} height=${out}></rect>
        </g>`;
      })}
      ${maxCost > 0 ? svg`<polyline class="cost" points=${costPoints} vector-effect="non-scaling-stroke"></polyline>` : nothing}
    </svg>
    <div class="chart-axis muted"><span>${days[0]?.date ?? ''}</span><span>${days.at(-1)?.date ?? ''}</span></div>
    <figcaption class="legend muted">
      <span><i class="swatch input"></i>Input tokens</span><span><i class="swatch output"></i>Output tokens</span
      >${maxCost > 0 ? html`<span><i class="swatch cost"></i>Cost</span>` : nothing}
    </figcaption>
    <details class="values">
      <summary>Daily values</summary>
      <table>
        <thead><tr><th scope="col">Day</th><th scope="col">Sessions</th><th scope="col">Input</th><th scope="col">Output</th><th scope="col">Cost</th></tr></thead>
        <tbody>
          ${days
            .filter((d) => d.sessions > 0)
            .map(
              (d) =>
                html`<tr><th scope="row">${d.date}</th><td>${d.sessions}</td><td>${formatTokens(d.input_tokens)}</td><td>${formatTokens(d.output_tokens)}</td><td>${formatCost(d.cost)}</td></tr>`,
            )}
        </tbody>
      </table>
    </details>
  </figure>`;
}

/** Sessions by weekday or by hour: one row of cells, each as strong as its share of the busiest. */
export function heatmap(kind: 'weekday' | 'hour', cells: Array<{ label: string; sessions: number }>) {
  const max = Math.max(0, ...cells.map((c) => c.sessions));
  const title = kind === 'weekday' ? 'Sessions by weekday' : 'Sessions by hour of day';
  const peak = max > 0 ? cells.find((c) => c.sessions === max) : undefined;
  return html`<section class="heat" data-role="insights-heatmap" data-kind=${kind} aria-label=${title}>
    <h3>${title}${peak ? html` <span class="muted">· busiest ${peak.label}</span>` : nothing}</h3>
    <ol class="cells ${kind}">
      ${cells.map((c) => {
        const label = `${c.label}: ${c.sessions} session${c.sessions === 1 ? '' : 's'}`;
        const level = max > 0 ? c.sessions / max : 0;
        return html`<li class="cell" style="--level:${level.toFixed(3)}" title=${label} aria-label=${label} data-sessions=${c.sessions}>
          <span class="cell-label">${c.label}</span>
        </li>`;
      })}
    </ol>
  </section>`;
}
