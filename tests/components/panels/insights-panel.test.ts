import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/panels/insights/hermes-insights-panel.js';
import type { HermesInsightsPanel } from '../../../components/panels/insights/hermes-insights-panel.js';

const all = (el: Element, sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)];
const one = <T extends HTMLElement = HTMLElement>(el: Element, sel: string) => el.shadowRoot!.querySelector<T>(sel)!;

/** A report as the server answers, for `days` days ending 2026-04-10, with one busy day. */
function report(days: number, sessions: number, mode: 'trailing' | 'custom' = 'trailing', range: [string, string] | null = null) {
  const daily = Array.from({ length: days }, (_, i) => {
    const d = new Date(Date.UTC(2026, 3, 10 - (days - 1 - i)));
    const busy = i === days - 1;
    return {
      date: d.toISOString().slice(0, 10),
      input_tokens: busy ? 1200 : 0,
      output_tokens: busy ? 300 : 0,
      cache_read_tokens: 0,
      sessions: busy ? sessions : 0,
      cost: busy ? 0.5 : 0,
    };
  });
  return {
    period_days: days,
    mode,
    effective_start: range?.[0] ?? null,
    effective_end: range?.[1] ?? null,
    total_sessions: sessions,
    total_messages: sessions * 4,
    total_input_tokens: 1200,
    total_output_tokens: 300,
    total_cache_read_tokens: 600,
    total_cache_hit_percent: 33,
    total_tokens: 1500,
    total_cost: 0.5,
    models: [
      {
        model: 'anthropic/claude-sonnet-4.6',
        sessions,
        input_tokens: 1200,
        output_tokens: 300,
        cache_read_tokens: 600,
        cache_hit_percent: 33,
        total_tokens: 1500,
        cost: 0.5,
        session_share: 100,
        token_share: 100,
        cost_share: 100,
      },
    ],
    daily_tokens: daily,
    activity_by_day: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((day) => ({ day, sessions: day === 'Fri' ? sessions : 0 })),
    activity_by_hour: Array.from({ length: 24 }, (_, hour) => ({ hour, sessions: hour === 9 ? sessions : 0 })),
  };
}

describe('hermes-insights-panel', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    sessionStorage.removeItem('hermes:panel:insights');
    fetchStub = stubFetch({
      'GET /api/insights': (c) => {
        const q = new URL(c.url, location.href).searchParams;
        if (q.has('start') || q.has('end')) {
          if (q.get('start') === '2099-01-01') return report(30, 0);
          return report(3, 2, 'custom', [q.get('start') ?? '', q.get('end') ?? '']);
        }
        const days = Number(q.get('days'));
        return report(days, days);
      },
    });
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });
  const queries = () => fetchStub.calls.map((c) => new URL(c.url, location.href).search);
  const total = (el: Element, name: string) => one(el, `[data-role="insights-totals"] [data-total="${name}"]`).textContent?.trim();

  it('shows the last 30 days first: totals, the model rows, the daily chart and both heatmaps', async () => {
    const el = await fixture<HermesInsightsPanel>('hermes-insights-panel');
    await waitFor(() => total(el, 'sessions') === '30');
    expect(queries()).to.deep.equal(['?days=30']);
    expect(one(el, 'section[data-role="panel"]').dataset.panel).to.equal('insights');
    expect(total(el, 'input')).to.equal('1.2K');
    expect(total(el, 'cost')).to.equal('$0.50');
    expect(total(el, 'cache')).to.equal('33%');
    const rows = all(el, '[data-role="insights-model-row"]');
    expect(rows.map((r) => r.dataset.model)).to.deep.equal(['anthropic/claude-sonnet-4.6']);
    const chart = one(el, '[data-role="insights-daily-chart"]');
    expect(chart.dataset.days).to.equal('30');
    expect(chart.querySelectorAll('g.day')).to.have.length(30);
    expect(chart.querySelector('svg')!.getAttribute('aria-label')).to.contain('1 active day');
    // The busiest day's bar reaches the top; the others are empty.
    const bars = [...chart.querySelectorAll<SVGRectElement>('rect.output')].map((r) => Number(r.getAttribute('height')));
    expect(bars.filter((h) => h > 0)).to.have.length(1);
    // Days are written as the language writes dates (the server's 2026-04-10).
    expect(chart.querySelector('tbody')!.textContent).to.contain('Apr 10, 2026');
    const heat = all(el, '[data-role="insights-heatmap"]');
    expect(heat.map((h) => h.dataset.kind)).to.deep.equal(['weekday', 'hour']);
    expect(heat[0]!.querySelectorAll('li')).to.have.length(7);
    expect(heat[1]!.querySelectorAll('li')).to.have.length(24);
    expect(heat[0]!.querySelector('[aria-label="Fri: 30 sessions"]')).to.not.equal(null);
    expect(heat[1]!.querySelector<HTMLElement>('[data-sessions="30"]')!.style.getPropertyValue('--level')).to.equal('1.000');
  });

  it('asks again for each preset, marks the pressed one and keeps it for the next view', async () => {
    const el = await fixture<HermesInsightsPanel>('hermes-insights-panel');
    await waitFor(() => total(el, 'sessions') === '30');
    one(el, '[data-role="insights-preset"][data-days="7"]').click();
    await waitFor(() => total(el, 'sessions') === '7');
    one(el, '[data-role="insights-preset"][data-days="365"]').click();
    await waitFor(() => total(el, 'sessions') === '365');
    expect(queries()).to.deep.equal(['?days=30', '?days=7', '?days=365']);
    expect(all(el, '[data-role="insights-preset"][aria-pressed="true"]').map((b) => b.dataset.days)).to.deep.equal(['365']);
    expect(one(el, '[data-role="insights-daily-chart"]').dataset.days).to.equal('365');
    cleanup();
    const again = await fixture<HermesInsightsPanel>('hermes-insights-panel');
    await waitFor(() => total(again, 'sessions') === '365');
  });

  it('sends a custom range as raw calendar days, defaults it once, and keeps a chosen range', async () => {
    const el = await fixture<HermesInsightsPanel>('hermes-insights-panel');
    await waitFor(() => total(el, 'sessions') === '30');
    one(el, '[data-role="insights-preset"][data-days="custom"]').click();
    await waitFor(() => all(el, '[data-role="insights-start"]').length === 1);
    const start = one<HTMLInputElement>(el, '[data-role="insights-start"]');
    const end = one<HTMLInputElement>(el, '[data-role="insights-end"]');
    expect(start.value).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(queries().at(-1)).to.equal(`?start=${start.value}&end=${end.value}`);
    start.value = '2026-03-01';
    start.dispatchEvent(new Event('change'));
    end.value = '2026-03-03';
    end.dispatchEvent(new Event('change'));
    await waitFor(() => one(el, '[data-role="insights-window"]').textContent!.includes('Mar 1, 2026 – Mar 3, 2026'));
    expect(queries().at(-1)).to.equal('?start=2026-03-01&end=2026-03-03');
    // Preset, then Custom again: the chosen range is still there.
    one(el, '[data-role="insights-preset"][data-days="7"]').click();
    await waitFor(() => total(el, 'sessions') === '7');
    one(el, '[data-role="insights-preset"][data-days="custom"]').click();
    await waitFor(() => queries().at(-1) === '?start=2026-03-01&end=2026-03-03');
  });

  it('says so when the server could not serve the range and fell back to trailing days', async () => {
    sessionStorage.setItem('hermes:panel:insights', JSON.stringify({ preset: 'custom', start: '2099-01-01', end: '2099-01-05' }));
    const el = await fixture<HermesInsightsPanel>('hermes-insights-panel');
    await waitFor(() => one(el, '[data-role="insights-window"]')?.dataset.mode === 'trailing');
    expect(one(el, '.note').textContent).to.contain('last 30 days');
    expect(one(el, '[data-role="insights-window"]').textContent).to.contain('Last 30 days');
  });

  it('shows the error when the request fails', async () => {
    fetchStub.restore();
    fetchStub = stubFetch({ 'GET /api/insights': () => new Response(JSON.stringify({ error: 'boom' }), { status: 500 }) });
    const el = await fixture<HermesInsightsPanel>('hermes-insights-panel');
    await waitFor(() => all(el, '[role="alert"]').length === 1);
    expect(one(el, '[role="alert"]').textContent).to.contain('boom');
  });
});
