import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/panels/tasks/hermes-tasks-panel.js';
import '../../../components/panels/insights/hermes-insights-panel.js';
import type { HermesTasksPanel } from '../../../components/panels/tasks/hermes-tasks-panel.js';
import type { HermesInsightsPanel } from '../../../components/panels/insights/hermes-insights-panel.js';
import { applyLanguage, loadMessages } from '../../../components/i18n/localization.js';

const one = (el: Element, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel)!;
const words = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

const NEXT = Date.now() + 3_700_000;
const job = {
  id: 'a1',
  name: 'Inbox',
  prompt: 'Do Inbox',
  schedule: { kind: 'interval', minutes: 120, display: 'every 120m' },
  schedule_text: 'Every 2 hours',
  skills: [],
  model: null,
  deliver: 'local',
  state: 'scheduled',
  enabled: true,
  next_run_at: new Date(NEXT).toISOString(),
  last_run_at: null,
  last_status: null,
};

/** One busy Friday: 30 sessions, a third of the input read from the cache. */
const report = {
  period_days: 30,
  mode: 'trailing',
  effective_start: null,
  effective_end: null,
  total_sessions: 30,
  total_messages: 1234,
  total_input_tokens: 1200,
  total_output_tokens: 300,
  total_cache_read_tokens: 600,
  total_cache_hit_percent: 33,
  total_tokens: 1500,
  total_cost: 0.5,
  models: [],
  daily_tokens: [{ date: '2026-04-10', input_tokens: 1200, output_tokens: 300, cache_read_tokens: 0, sessions: 30, cost: 0.5 }],
  activity_by_day: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((day) => ({ day, sessions: day === 'Fri' ? 30 : 0 })),
  activity_by_hour: Array.from({ length: 24 }, (_, hour) => ({ hour, sessions: hour === 9 ? 30 : 0 })),
};

describe('the control center in another language', () => {
  // The app loads these screens through loadScreen, which brings their messages ('panels') with them.
  before(() => Promise.all([loadMessages('panels')]));
  let stub: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    sessionStorage.clear();
    stub = stubFetch({
      'GET /api/crons': { jobs: [job], scheduler: { kind: 'webui', via: 'files' } },
      'GET /api/crons/status': { running: {} },
      'GET /api/crons/recent': { completions: [] },
      'GET /api/crons/history': { job_id: 'a1', runs: [], total: 0 },
      'GET /api/insights': report,
    });
  });
  afterEach(async () => {
    cleanup();
    stub.restore();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('Tasks: the words, the state chip and the relative and exact times follow a switch to German and back', async () => {
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await waitFor(() => !!one(el, '[data-job-id="a1"]'));
    const row = () => one(el, '[data-role="task-row"][data-job-id="a1"]');
    expect(words(one(el, 'h2'))).to.equal('Tasks');
    expect(words(row())).to.contain('Next in 1 hour · Last never');

    await applyLanguage('de');
    await waitFor(() => words(one(el, 'h2')) === 'Aufgaben');
    expect(words(row())).to.contain('Nächster Lauf in 1 Stunde · Letzter Lauf nie');
    expect(words(row().querySelector('[data-role="task-state"]'))).to.equal('geplant');
    expect(row().querySelector<HTMLElement>('[data-role="task-state"]')!.dataset.state).to.equal('scheduled');
    // The exact time on hover is written the German way (day before month, "Dez." / "Jan." …).
    const exact = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeStyle: 'short' }).format(NEXT);
    expect(row().querySelector('time')!.title).to.equal(exact);
    expect(words(one(el, '[data-role="tasks-scheduler"]'))).to.equal('Dieser Server führt diese Aufgaben aus.');

    await applyLanguage('en');
    await waitFor(() => words(one(el, 'h2')) === 'Tasks');
    expect(words(row())).to.contain('Next in 1 hour');
  });

  it('Insights: labels, counts, percentages and weekday names in German; Arabic turns the page right-to-left', async () => {
    await applyLanguage('de');
    const el = await fixture<HermesInsightsPanel>('hermes-insights-panel');
    await waitFor(() => !!el.shadowRoot!.querySelector('[data-role="insights-totals"]'));
    expect(words(one(el, 'h2'))).to.equal('Einblicke');
    const totals = one(el, '[data-role="insights-totals"]');
    expect([...totals.querySelectorAll('dt')].map(words)).to.include.members(['Sitzungen', 'Nachrichten', 'Cache-Treffer']);
    // 1234 → "1.234", 33 % with the German non-breaking space.
    expect(words(totals.querySelector('[data-total="messages"]'))).to.equal('1.234');
    expect(totals.querySelector('[data-total="cache"]')!.textContent!.trim()).to.equal('33\u00a0%');
    const weekdays = one(el, '[data-role="insights-heatmap"][data-kind="weekday"]');
    // The server says "Fri"; the cell names the day as German writes it ("Fr" or "Fr.", by the browser's ICU).
    const friday = new Intl.DateTimeFormat('de', { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 5));
    expect(friday.startsWith('Fr')).to.equal(true);
    expect(weekdays.querySelector(`[aria-label="${friday}: 30 Sitzungen"]`)).to.not.equal(null);
    expect(words(one(el, '[data-role="insights-window"]'))).to.equal('Letzte 30 Tage · Serverkalender');
    // The server's 2026-04-10, as German writes a date.
    expect(words(one(el, '[data-role="insights-daily-chart"] tbody th'))).to.equal('10.04.2026');

    await applyLanguage('ar');
    await waitFor(() => words(one(el, 'h2')) === 'الإحصاءات');
    expect(document.documentElement.dir).to.equal('rtl');
    expect(words(one(el, '[data-role="insights-window"]'))).to.contain('تقويم الخادم');
  });
});
