import { html, nothing, svg } from 'lit';
import { msg, str } from '@lit/localize';
import { formatDate, formatNumber } from '../../i18n/format.js';
import type { InsightsReport } from '../../api/insights.js';
import { formatCost, formatTokens } from '../../chat/usage-format.js';

/**
 * Insights' charts: our own small SVG and CSS grids (no chart library). One accent hue: output
 * tokens in the accent, input tokens in a lighter mix of it, cost as a muted line.
 */

const BAR = 10;
const HEIGHT = 100;

type Day = InsightsReport['daily_tokens'][number];

/** The server's weekday words (Mon…Sun) in the app's language; 2024-01-01 was a Monday. */
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
export function weekdayName(day: string): string {
  const i = WEEKDAYS.indexOf(day);
  return i < 0 ? day : formatDate(Date.UTC(2024, 0, 1 + i), { weekday: 'short', timeZone: 'UTC' });
}

/** A server calendar day (`YYYY-MM-DD`) as the language writes dates; read as UTC so no zone shifts it. */
export const calendarDay = (iso: string) => {
  const at = Date.parse(`${iso}T00:00:00Z`);
  return Number.isNaN(at) ? iso : formatDate(at, { dateStyle: 'medium', timeZone: 'UTC' });
};

/** A percentage the server gives as 0–100. */
export const percent = (value: number) => formatNumber(value / 100, { style: 'percent', maximumFractionDigits: 1 });

/** One and many sessions are two messages, so each language words both. */
const sessionsText = (n: number) => (n === 1 ? msg('1 session') : msg(str`${formatNumber(n)} sessions`));

const dayLabel = (d: Day) =>
  msg(
    str`${calendarDay(d.date)}: ${formatTokens(d.input_tokens)} in, ${formatTokens(d.output_tokens)} out, ${formatCost(d.cost)}, ${sessionsText(d.sessions)}`,
  );

/** Daily tokens (stacked input/output bars) and cost (a line on its own scale), with a table of the values. */
export function dailyChart(days: Day[]) {
  const maxTokens = Math.max(1, ...days.map((d) => d.input_tokens + d.output_tokens));
  const maxCost = Math.max(0, ...days.map((d) => d.cost));
  const width = Math.max(days.length, 1) * BAR;
  const y = (v: number, max: number) => HEIGHT - (max > 0 ? (v / max) * (HEIGHT - 4) : 0);
  const costPoints = days.map((d, i) => `${i * BAR + BAR / 2},${y(d.cost, maxCost).toFixed(2)}`).join(' ');
  const busy = days.filter((d) => d.sessions > 0).length;
  const active = busy === 1 ? msg('1 active day') : msg(str`${formatNumber(busy)} active days`);
  const summary = msg(
    str`Daily tokens and cost, ${calendarDay(days[0]?.date ?? '')} to ${calendarDay(days.at(-1)?.date ?? '')}: ${active}, peak ${formatTokens(maxTokens)} tokens`,
  );
  return html`<figure class="chart" data-role="insights-daily-chart" data-days=${days.length}>
    <div class="chart-scale muted"><span>${msg(str`${formatTokens(maxTokens)} tokens`)}</span>${maxCost > 0 ? html`<span>${formatCost(maxCost)}</span>` : nothing}</div>
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
    <div class="chart-axis muted"><span>${calendarDay(days[0]?.date ?? '')}</span><span>${calendarDay(days.at(-1)?.date ?? '')}</span></div>
    <figcaption class="legend muted">
      <span><i class="swatch input"></i>${msg('Input tokens')}</span><span><i class="swatch output"></i>${msg('Output tokens')}</span
      >${maxCost > 0 ? html`<span><i class="swatch cost"></i>${msg('Cost')}</span>` : nothing}
    </figcaption>
    <details class="values">
      <summary>${msg('Daily values')}</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">${msg('Day')}</th><th scope="col">${msg('Sessions')}</th><th scope="col">${msg('Input')}</th><th scope="col">${msg('Output')}</th><th scope="col">${msg('Cost')}</th>
          </tr>
        </thead>
        <tbody>
          ${days
            .filter((d) => d.sessions > 0)
            .map(
              (d) =>
                html`<tr><th scope="row">${calendarDay(d.date)}</th><td>${formatNumber(d.sessions)}</td><td>${formatTokens(d.input_tokens)}</td><td>${formatTokens(d.output_tokens)}</td><td>${formatCost(d.cost)}</td></tr>`,
            )}
        </tbody>
      </table>
    </details>
  </figure>`;
}

/** Sessions by weekday or by hour: one row of cells, each as strong as its share of the busiest. */
export function heatmap(kind: 'weekday' | 'hour', cells: Array<{ label: string; sessions: number }>) {
  const max = Math.max(0, ...cells.map((c) => c.sessions));
  const title = kind === 'weekday' ? msg('Sessions by weekday') : msg('Sessions by hour of day');
  const peak = max > 0 ? cells.find((c) => c.sessions === max) : undefined;
  return html`<section class="heat" data-role="insights-heatmap" data-kind=${kind} aria-label=${title}>
    <h3>${title}${peak ? html` <span class="muted">· ${msg(str`busiest ${peak.label}`)}</span>` : nothing}</h3>
    <ol class="cells ${kind}">
      ${cells.map((c) => {
        const label = `${c.label}: ${sessionsText(c.sessions)}`;
        const level = max > 0 ? c.sessions / max : 0;
        return html`<li class="cell" style="--level:${level.toFixed(3)}" title=${label} aria-label=${label} data-sessions=${c.sessions}>
          <span class="cell-label">${c.label}</span>
        </li>`;
      })}
    </ol>
  </section>`;
}
