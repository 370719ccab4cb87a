import { LitElement, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../../i18n/format.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';
import { panelState } from '../panel-state.js';
import { insightsApi, type InsightsRange, type InsightsReport } from '../../api/insights.js';
import { formatCost, formatTokens } from '../../chat/usage-format.js';
import { calendarDay, dailyChart, heatmap, percent, weekdayName } from './insights-charts.js';
import { insightsStyles } from './insights-styles.js';

const PRESETS = ['7', '30', '90', '365'] as const;
type Preset = (typeof PRESETS)[number] | 'custom';

const pad = (n: number) => String(n).padStart(2, '0');
const isoLocal = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const count = (n: number) => formatNumber(n);

/**
 * The Insights panel: usage over a trailing preset (7/30/90/365 days) or a custom range of two
 * calendar days, sent as raw `YYYY-MM-DD` so the server reads them in its own calendar. The
 * preset and the range are kept per tab (panel-state), so a reload shows the same window.
 */
@customElement('hermes-insights-panel')
@localized()
export class HermesInsightsPanel extends LitElement {
  static override styles = [baseStyles, panelStyles, insightsStyles];

  #state = panelState<{ preset: Preset; start: string; end: string }>('insights', { preset: '30', start: '', end: '' });
  /** Only the newest request may render (date inputs fire one per change). */
  #request = 0;
  @state() private view = this.#state.get();
  @state() private report: InsightsReport | null = null;
  @state() private error = '';
  @state() private loading = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** Asks for the chosen window again (a preset click, a date change, the refresh button). */
  async load(): Promise<void> {
    const v = this.view;
    const range: InsightsRange = v.preset === 'custom' ? { start: v.start, end: v.end } : { days: Number(v.preset) };
    const mine = ++this.#request;
    this.loading = true;
    try {
      const report = await insightsApi.get(range);
      if (mine !== this.#request) return;
      this.report = report;
      this.error = '';
    } catch (err) {
      if (mine !== this.#request) return;
      this.error = (err as Error)?.message || msg('Insights could not be loaded');
    } finally {
      if (mine === this.#request) this.loading = false;
    }
  }

  #choose(preset: Preset) {
    let patch: Partial<typeof this.view> = { preset };
    // The last 30 calendar days, only while no range has been picked: preset → Custom keeps a chosen one.
    if (preset === 'custom' && !this.view.start && !this.view.end) {
      const end = new Date();
      const start = new Date();
      start.setDate(start.getDate() - 29);
      patch = { ...patch, start: isoLocal(start), end: isoLocal(end) };
    }
    this.view = this.#state.set(patch);
    void this.load();
  }

  #date(which: 'start' | 'end', e: Event) {
    this.view = this.#state.set({ [which]: (e.target as HTMLInputElement).value });
    void this.load();
  }

  override render() {
    const v = this.view;
    return html`<section data-role="panel" data-panel="insights" aria-busy=${String(this.loading)}>
      <header class="panel-head">
        <h2>${msg('Insights')}</h2>
        <div class="presets" role="group" aria-label=${msg('Period')}>
          ${PRESETS.map(
            (p) =>
              html`<button type="button" data-role="insights-preset" data-days=${p} aria-pressed=${String(v.preset === p)} @click=${() => this.#choose(p)}>
                ${formatNumber(Number(p), { style: 'unit', unit: 'day', unitDisplay: 'narrow' })}
              </button>`,
          )}
          <button type="button" data-role="insights-preset" data-days="custom" aria-pressed=${String(v.preset === 'custom')} @click=${() => this.#choose('custom')}>
            ${msg('Custom')}
          </button>
        </div>
      </header>
      <div class="panel-body">
        ${
          v.preset === 'custom'
            ? html`<div class="range" role="group" aria-label=${msg('Custom range')}>
              <label>${msg('From')} <input type="date" data-role="insights-start" .value=${v.start} max=${v.end || nothing} @change=${(e: Event) => this.#date('start', e)} /></label>
              <label>${msg('to')} <input type="date" data-role="insights-end" .value=${v.end} min=${v.start || nothing} @change=${(e: Event) => this.#date('end', e)} /></label>
            </div>`
            : nothing
        }
        ${this.error ? html`<p class="empty" role="alert">${this.error}</p>` : nothing}
        ${this.report ? this.#body(this.report) : this.error ? nothing : html`<p class="empty">${msg('Loading…')}</p>`}
      </div>
    </section>`;
  }

  #body(r: InsightsReport) {
    const wantedCustom = this.view.preset === 'custom';
    const served =
      r.mode === 'custom' && r.effective_start && r.effective_end
        ? `${calendarDay(r.effective_start)} – ${calendarDay(r.effective_end)}`
        : r.period_days === 1
          ? msg('Last day')
          : msg(str`Last ${formatNumber(r.period_days)} days`);
    return html`
      ${wantedCustom && r.mode !== 'custom' ? html`<p class="note" role="status">${msg(str`That range cannot be shown (a future or impossible day); showing the last ${formatNumber(r.period_days)} days.`)}</p>` : nothing}
      <dl class="totals" data-role="insights-totals">
        <div><dt>${msg('Sessions')}</dt><dd data-total="sessions">${count(r.total_sessions)}</dd></div>
        <div><dt>${msg('Messages')}</dt><dd data-total="messages">${count(r.total_messages)}</dd></div>
        <div><dt>${msg('Input tokens')}</dt><dd data-total="input" title=${count(r.total_input_tokens)}>${formatTokens(r.total_input_tokens)}</dd></div>
        <div><dt>${msg('Output tokens')}</dt><dd data-total="output" title=${count(r.total_output_tokens)}>${formatTokens(r.total_output_tokens)}</dd></div>
        <div><dt>${msg('Cost')}</dt><dd data-total="cost">${r.total_cost > 0 ? formatCost(r.total_cost) : '—'}</dd></div>
        <div><dt>${msg('Cache hits')}</dt><dd data-total="cache">${r.total_cache_hit_percent === null ? '—' : percent(r.total_cache_hit_percent)}</dd></div>
      </dl>
      <section class="block" aria-label=${msg('Daily tokens and cost')}>
        <h3>${msg('Daily tokens and cost')}</h3>
        ${dailyChart(r.daily_tokens)}
      </section>
      <section class="block" aria-label=${msg('Models')}>
        <h3>${msg('Models')}</h3>
        ${
          r.models.length
            ? html`<table>
              <thead>
                <tr>
                  <th scope="col">${msg('Model')}</th><th scope="col">${msg('Sessions')}</th><th scope="col">${msg('Input')}</th><th scope="col">${msg('Output')}</th>
                  <th scope="col">${msg('Cache')}</th><th scope="col">${msg('Cost')}</th><th scope="col">${msg('Share')}</th>
                </tr>
              </thead>
              <tbody>
                ${r.models.map(
                  (m) => html`<tr data-role="insights-model-row" data-model=${m.model}>
                    <th scope="row" class="model">${m.model}</th>
                    <td>${count(m.sessions)}</td>
                    <td title=${count(m.input_tokens)}>${formatTokens(m.input_tokens)}</td>
                    <td title=${count(m.output_tokens)}>${formatTokens(m.output_tokens)}</td>
                    <td>${m.cache_hit_percent === null ? '—' : percent(m.cache_hit_percent)}</td>
                    <td>${m.cost > 0 ? formatCost(m.cost) : '—'}</td>
                    <td title=${msg('Share of tokens')}>${percent(m.token_share)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
            : html`<p class="empty">${msg('No sessions in this period.')}</p>`
        }
      </section>
      <div class="heats block">
        ${heatmap(
          'weekday',
          r.activity_by_day.map((d) => ({ label: weekdayName(d.day), sessions: d.sessions })),
        )}
        ${heatmap(
          'hour',
          r.activity_by_hour.map((h) => ({ label: pad(h.hour), sessions: h.sessions })),
        )}
      </div>
      <p class="footer muted" data-role="insights-window" data-mode=${r.mode}>${served} · ${msg('server calendar')}</p>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-insights-panel': HermesInsightsPanel;
  }
}
