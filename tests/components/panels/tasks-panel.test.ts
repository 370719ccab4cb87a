import { expect, fixture, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import '../../../components/panels/tasks/hermes-tasks-panel.js';
import '../../../components/rail/hermes-rail.js';
import type { HermesTasksPanel } from '../../../components/panels/tasks/hermes-tasks-panel.js';
import type { HermesTaskForm } from '../../../components/panels/tasks/hermes-task-form.js';
import { markTaskSeen, refreshUnseen, unseenTasks } from '../../../components/rail/tasks-unseen.js';

const all = (root: ParentNode, sel: string) => [...root.querySelectorAll<HTMLElement>(sel)];
const one = <T extends HTMLElement = HTMLElement>(root: ParentNode, sel: string) => root.querySelector<T>(sel)!;
const sr = (el: Element) => el.shadowRoot!;
const form = (el: HermesTasksPanel) => one<HermesTaskForm>(sr(el), 'hermes-task-form');

const job = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  prompt: `Do ${name}`,
  schedule: { kind: 'interval', minutes: 120, display: 'every 120m' },
  schedule_text: 'Every 2 hours',
  skills: [],
  model: null,
  provider: null,
  deliver: 'local',
  repeat: { times: null, completed: 0 },
  state: 'scheduled',
  enabled: true,
  next_run_at: new Date(Date.now() + 3_700_000).toISOString(),
  last_run_at: null,
  last_status: null,
  created_at: new Date().toISOString(),
  ...extra,
});

/** A small /api/crons over an in-memory list (what the server would answer). */
function server(initial: ReturnType<typeof job>[], options: { running?: string[] } = {}) {
  let jobs = [...initial];
  let n = 0;
  const body = (c: FetchCall) => c.body as Record<string, any>;
  const found = (id: string) => jobs.find((j) => j.id === id);
  const notFound = () => new Response(JSON.stringify({ error: 'Job not found' }), { status: 404 });
  const stub = stubFetch({
    'GET /api/crons': () => ({ jobs, scheduler: { kind: 'webui', via: 'files' } }),
    'GET /api/crons/status': () => ({ running: Object.fromEntries((options.running ?? []).map((id) => [id, 3])) }),
    'GET /api/crons/recent': { completions: [] },
    'GET /api/crons/delivery-options': { platforms: [{ value: 'local', label: 'Local (save output only)' }] },
    'GET /api/models': { models: [{ id: 'gpt-test', label: 'GPT Test', provider: 'openai' }] },
    'GET /api/skills': { skills: [{ name: 'inbox', disabled: false }], categories: [] },
    'GET /api/crons/preview': (c) => {
      const s = new URL(c.url, location.href).searchParams.get('schedule')!;
      if (s === 'bogus') return new Response(JSON.stringify({ error: "Invalid schedule 'bogus'" }), { status: 400 });
      const at = (h: number) => new Date(Date.UTC(2026, 11, 2, h)).toISOString();
      return { ok: true, schedule: {}, display: `parsed ${s}`, next_runs: [at(9), at(11), at(13)] };
    },
    'GET /api/crons/history': (c) => {
      const id = new URL(c.url, location.href).searchParams.get('job_id');
      if (id !== 'a1') return { job_id: id, runs: [], total: 0 };
      const run = (f: string, t: number, status: string) => ({
        filename: f,
        size: 10,
        modified: t,
        status,
        usage: { model: 'gpt-test', duration_seconds: 12.5 },
      });
      return { job_id: id, runs: [run('2026-12-01_10-00-00.md', 1_764_583_200, 'ok'), run('2026-12-01_08-00-00.md', 1_764_576_000, 'error')], total: 2 };
    },
    'GET /api/crons/run': (c) => {
      const f = new URL(c.url, location.href).searchParams.get('filename');
      return {
        job_id: 'a1',
        filename: f,
        content: '# Cron Job: Inbox\n\n## Response\n\n**Summary** of the inbox',
        snippet: '',
        usage: {},
        session_id: 'sess-9',
      };
    },
    'POST /api/crons/create': (c) => {
      if (body(c).prompt === 'refuse me') return new Response(JSON.stringify({ error: 'Schedule is in the past' }), { status: 400 });
      const created = job(`n${++n}`, body(c).name ?? 'unnamed', { prompt: body(c).prompt });
      jobs.push(created);
      return { ok: true, job: created };
    },
    'POST /api/crons/update': (c) => {
      const j = found(body(c).job_id);
      if (!j) return notFound();
      Object.assign(j, { name: body(c).name ?? j.name, prompt: body(c).prompt ?? j.prompt });
      return { ok: true, job: j };
    },
    'POST /api/crons/pause': (c) => {
      const j = found(body(c).job_id)!;
      Object.assign(j, { state: 'paused', enabled: false });
      return { ok: true, job: j };
    },
    'POST /api/crons/resume': (c) => {
      const j = found(body(c).job_id)!;
      Object.assign(j, { state: 'scheduled', enabled: true });
      return { ok: true, job: j };
    },
    'POST /api/crons/delete': (c) => {
      jobs = jobs.filter((j) => j.id !== body(c).job_id);
      return { ok: true, job_id: body(c).job_id };
    },
    'POST /api/crons/run': (c) => ({ ok: false, job_id: body(c).job_id, status: 'already_running', elapsed: 2 }),
  });
  return { ...stub, jobs: () => jobs, posts: (path: string) => stub.calls.filter((c) => c.method === 'POST' && c.url.startsWith(path)).map(body) };
}

async function openJob(el: HermesTasksPanel, id: string) {
  await waitFor(() => !!sr(el).querySelector(`[data-role="task-row"][data-job-id="${id}"]`));
  one(sr(el), `[data-role="task-row"][data-job-id="${id}"]`).click();
  await waitFor(() => !!sr(el).querySelector(`[data-role="task-detail"][data-job-id="${id}"]`));
}

async function typeSchedule(el: HermesTasksPanel, text: string) {
  await waitFor(() => !!form(el)?.shadowRoot?.querySelector('[data-role="task-form-schedule"]'));
  const input = one<HTMLInputElement>(sr(form(el)), '[data-role="task-form-schedule"]');
  input.value = text;
  input.dispatchEvent(new Event('input'));
}

describe('hermes-tasks-panel', () => {
  let stub: ReturnType<typeof server>;
  beforeEach(() => {
    sessionStorage.removeItem('hermes:panel:tasks');
    localStorage.removeItem('hermes:tasks:seen');
  });
  afterEach(() => {
    cleanup();
    stub.restore();
  });

  it('lists each job with its state, schedule in words, next and last run, and says who runs them', async () => {
    stub = server(
      [
        job('a1', 'Inbox', { last_run_at: new Date(Date.now() - 7_200_000).toISOString(), last_status: 'ok' }),
        job('b2', 'Paused one', { state: 'paused', enabled: false }),
        job('c3', 'Broken', { last_status: 'error' }),
        job('d4', 'Busy'),
      ],
      { running: ['d4'] },
    );
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await waitFor(() => all(sr(el), '[data-role="task-row"]').length === 4);
    const states = all(sr(el), '[data-role="task-row"]').map((r) => [r.dataset.jobId, one(r, '[data-role="task-state"]').dataset.state]);
    expect(states).to.deep.equal([
      ['a1', 'scheduled'],
      ['b2', 'paused'],
      ['c3', 'error'],
      ['d4', 'running'],
    ]);
    const first = one(sr(el), '[data-job-id="a1"]');
    expect(one(first, '[data-role="task-schedule"]').textContent).to.equal('Every 2 hours');
    const text = first.textContent!.replace(/\s+/g, ' ');
    expect(text, text).to.match(/Next in 1 hour · Last 2 hours ago · ok/);
    expect(all(first, 'time').every((t) => t.title.length > 0)).to.equal(true);
    expect(one(sr(el), '[data-role="tasks-scheduler"]').textContent).to.equal('This server runs these tasks.');
  });

  it('shows an honest empty state whose button opens the form', async () => {
    stub = server([]);
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await waitFor(() => !!sr(el).querySelector('[data-role="tasks-empty"]'));
    one(sr(el), '[data-role="tasks-empty-new"]').click();
    await waitFor(() => !!form(el));
    await waitFor(() => !!form(el).shadowRoot?.querySelector('[data-role="task-form"][data-mode="create"]'));
  });

  it('previews the next 3 runs as the schedule is typed, refuses an invalid one with the reason, and creates', async () => {
    stub = server([]);
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await waitFor(() => !!sr(el).querySelector('[data-role="tasks-empty-new"]'));
    one(sr(el), '[data-role="tasks-empty-new"]').click();
    await typeSchedule(el, 'bogus');
    const f = () => sr(form(el));
    await waitFor(() => !!f().querySelector('[data-role="task-schedule-error"]'));
    expect(one(f(), '[data-role="task-schedule-error"]').textContent).to.equal("Invalid schedule 'bogus'");
    expect(one<HTMLButtonElement>(f(), '[data-role="task-form-save"]').disabled).to.equal(true);
    await typeSchedule(el, 'every 2h');
    await waitFor(() => all(f(), '[data-role="task-next-run"]').length === 3);
    expect(one<HTMLButtonElement>(f(), '[data-role="task-form-save"]').disabled).to.equal(false);
    // Typed quickly: only the last text was asked about (debounced).
    expect(
      stub.calls.filter((c) => c.url.startsWith('/api/crons/preview')).map((c) => new URL(c.url, location.href).searchParams.get('schedule')),
    ).to.deep.equal(['bogus', 'every 2h']);
    await waitFor(() => all(f(), '[data-role="task-form-model"] option').length === 2);
    one<HTMLTextAreaElement>(f(), '[data-role="task-form-prompt"]').value = 'Summarise the inbox';
    one<HTMLInputElement>(f(), '[data-role="task-form-name"]').value = 'Inbox';
    one<HTMLSelectElement>(f(), '[data-role="task-form-model"]').value = 'gpt-test';
    one<HTMLInputElement>(f(), '[data-role="task-form-skills"] input[value="inbox"]').click();
    one(f(), '[data-role="task-form-save"]').click();
    await waitFor(() => !!sr(el).querySelector('[data-role="task-detail"]'));
    expect(stub.posts('/api/crons/create')).to.deep.equal([
      { prompt: 'Summarise the inbox', schedule: 'every 2h', name: 'Inbox', model: 'gpt-test', skills: ['inbox'], deliver: 'local' },
    ]);
    expect(all(sr(el), '[data-role="task-row"]').length).to.equal(1);
  });

  it('keeps the form as typed when the server refuses it', async () => {
    stub = server([]);
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await waitFor(() => !!sr(el).querySelector('[data-role="tasks-empty-new"]'));
    one(sr(el), '[data-role="tasks-empty-new"]').click();
    await typeSchedule(el, '30m');
    const f = () => sr(form(el));
    await waitFor(() => all(f(), '[data-role="task-next-run"]').length === 3);
    one<HTMLTextAreaElement>(f(), '[data-role="task-form-prompt"]').value = 'refuse me';
    one<HTMLInputElement>(f(), '[data-role="task-form-name"]').value = 'Kept';
    one(f(), '[data-role="task-form-save"]').click();
    await waitFor(() => !!f().querySelector('[data-role="task-form-error"]'));
    expect(one(f(), '[data-role="task-form-error"]').textContent).to.equal('Schedule is in the past');
    expect(one<HTMLTextAreaElement>(f(), '[data-role="task-form-prompt"]').value).to.equal('refuse me');
    expect(one<HTMLInputElement>(f(), '[data-role="task-form-name"]').value).to.equal('Kept');
    expect(one<HTMLInputElement>(f(), '[data-role="task-form-schedule"]').value).to.equal('30m');
  });

  it('edits without sending an unchanged schedule, pauses and resumes, duplicates, and deletes after confirming', async () => {
    stub = server([job('a1', 'Inbox', { schedule: { kind: 'cron', expr: '0 9 * * *', display: '0 9 * * *' } })]);
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await openJob(el, 'a1');
    one(sr(el), '[data-role="task-edit"]').click();
    await waitFor(() => !!form(el)?.shadowRoot?.querySelector('[data-role="task-form"][data-mode="edit"]'));
    const f = () => sr(form(el));
    expect(one<HTMLInputElement>(f(), '[data-role="task-form-schedule"]').value).to.equal('0 9 * * *');
    await waitFor(() => all(f(), '[data-role="task-next-run"]').length === 3);
    one<HTMLInputElement>(f(), '[data-role="task-form-name"]').value = 'Inbox daily';
    one(f(), '[data-role="task-form-save"]').click();
    await waitFor(() => one(sr(el), '[data-role="task-detail"] h3')?.textContent === 'Inbox daily');
    const update = stub.posts('/api/crons/update')[0]!;
    expect(update.job_id).to.equal('a1');
    expect(update.name).to.equal('Inbox daily');
    expect('schedule' in update).to.equal(false);

    one(sr(el), '[data-role="task-pause"]').click();
    await waitFor(() => one(sr(el), '[data-role="task-pause"]').textContent!.trim() === 'Resume');
    // The list row follows its own reload, which may land after the detail's.
    await waitFor(() => one(sr(el), '[data-job-id="a1"] [data-role="task-state"]')?.dataset.state === 'paused');
    // The button stays disabled while the pause's reloads finish: a click then would be lost.
    await waitFor(() => !one<HTMLButtonElement>(sr(el), '[data-role="task-pause"]').disabled);
    one(sr(el), '[data-role="task-pause"]').click();
    await waitFor(() => one(sr(el), '[data-role="task-pause"]').textContent!.trim() === 'Pause');
    expect(stub.posts('/api/crons/pause')).to.deep.equal([{ job_id: 'a1' }]);
    expect(stub.posts('/api/crons/resume')).to.deep.equal([{ job_id: 'a1' }]);

    one(sr(el), '[data-role="task-duplicate"]').click();
    await waitFor(() => all(sr(el), '[data-role="task-row"]').length === 2);
    const copy = stub.posts('/api/crons/create')[0]!;
    expect(copy).to.deep.include({ name: 'Inbox daily (copy)', schedule: '0 9 * * *', prompt: 'Do Inbox', deliver: 'local' });

    one(sr(el), '[data-role="task-delete"]').click();
    await waitFor(() => !!sr(el).querySelector('[data-role="task-delete-confirm"]'));
    one(sr(el), '[data-role="task-delete-no"]').click();
    await waitFor(() => !sr(el).querySelector('[data-role="task-delete-confirm"]'));
    expect(stub.posts('/api/crons/delete')).to.deep.equal([]);
    one(sr(el), '[data-role="task-delete"]').click();
    await waitFor(() => !!sr(el).querySelector('[data-role="task-delete-yes"]'));
    one(sr(el), '[data-role="task-delete-yes"]').click();
    await waitFor(() => all(sr(el), '[data-role="task-row"]').length === 1);
    expect(stub.jobs().map((j) => j.name)).to.deep.equal(['Inbox daily']);
  });

  it('says so when a run is already in progress', async () => {
    stub = server([job('a1', 'Inbox')]);
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await openJob(el, 'a1');
    one(sr(el), '[data-role="task-run-now"]').click();
    await waitFor(() => !!sr(el).querySelector('[data-role="task-notice"]'));
    expect(one(sr(el), '[data-role="task-notice"]').textContent).to.equal('A run of this task is already in progress.');
    expect(one(sr(el), '[data-role="task-run-now"]').textContent!.trim()).to.equal('Running…');
  });

  it('lists runs newest first, renders one as markdown, downloads it and opens its session; restored after a reload', async () => {
    stub = server([job('a1', 'Inbox')]);
    const el = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await openJob(el, 'a1');
    await waitFor(() => all(sr(el), '[data-role="task-history-item"]').length === 2);
    const items = all(sr(el), '[data-role="task-history-item"]');
    expect(items.map((i) => i.dataset.filename)).to.deep.equal(['2026-12-01_10-00-00.md', '2026-12-01_08-00-00.md']);
    expect(items[0]!.textContent).to.match(/ok/);
    expect(items[0]!.textContent).to.match(/12\.5s · gpt-test/);
    items[0]!.click();
    await waitFor(() => !!sr(el).querySelector('[data-role="task-run-body"]')?.shadowRoot?.querySelector('strong'));
    const md = one(sr(el), '[data-role="task-run-body"]');
    expect(md.shadowRoot!.querySelector('strong')!.textContent).to.equal('Summary');

    let downloaded: HTMLAnchorElement | null = null;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      downloaded = this;
    };
    try {
      one(sr(el), '[data-role="task-run-download"]').click();
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    expect(downloaded!.download).to.equal('2026-12-01_10-00-00.md');
    expect(downloaded!.href.startsWith('blob:')).to.equal(true);

    let opened: string | null = null;
    el.addEventListener('hermes-open-session', (e) => (opened = e.detail.sessionId));
    one(sr(el), '[data-role="task-run-session"]').click();
    expect(opened).to.equal('sess-9');

    cleanup();
    const again = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await waitFor(() => one(sr(again), '[data-role="task-run-output"]')?.dataset.filename === '2026-12-01_10-00-00.md');
  });
});

describe('unseen task completions', () => {
  let stub: ReturnType<typeof stubFetch>;
  afterEach(() => {
    cleanup();
    stub.restore();
  });

  it('badges the rail from /api/crons/recent since this browser started counting, and clears when the job is opened', async () => {
    localStorage.setItem('hermes:tasks:seen', JSON.stringify({ since: 1000, jobs: { old: 5000 } }));
    sessionStorage.removeItem('hermes:panel:tasks');
    const completions = [
      { job_id: 'a1', name: 'Inbox', status: 'ok', completed_at: 2000 },
      { job_id: 'old', name: 'Seen', status: 'ok', completed_at: 4000 },
    ];
    stub = stubFetch({
      'GET /api/crons/recent': () => ({ completions }),
      'GET /api/crons': { jobs: [job('a1', 'Inbox')], scheduler: { kind: 'gateway', via: 'api' } },
      'GET /api/crons/status': { running: {} },
      'GET /api/crons/history': { job_id: 'a1', runs: [], total: 0 },
    });
    const rail = await fixture<HTMLElement>('hermes-rail');
    await refreshUnseen();
    await waitFor(() => sr(rail).querySelector('[data-role="rail-badge"]')?.textContent === '1');
    expect(stub.calls.some((c) => c.url === '/api/crons/recent?since=1000')).to.equal(true);

    // A task completes elsewhere: live sync says so, the badge counts it.
    completions.push({ job_id: 'b2', name: 'Other', status: 'error', completed_at: 3000 });
    window.dispatchEvent(new CustomEvent('hermes-sessions-changed', { detail: { type: 'sessions_changed', reason: 'cron_complete' } }));
    await waitFor(() => sr(rail).querySelector('[data-role="rail-badge"]')?.textContent === '2');

    const panel = await fixture<HermesTasksPanel>('hermes-tasks-panel');
    await waitFor(() => !!sr(panel).querySelector('[data-job-id="a1"] [data-role="task-unseen"]'));
    expect(one(sr(panel), '[data-role="tasks-scheduler"]').textContent).to.equal("Hermes' gateway runs these tasks.");
    await openJob(panel, 'a1');
    await waitFor(() => sr(rail).querySelector('[data-role="rail-badge"]')?.textContent === '1');
    expect(sr(panel).querySelector('[data-job-id="a1"] [data-role="task-unseen"]')).to.equal(null);
    expect(JSON.parse(localStorage.getItem('hermes:tasks:seen')!).jobs.a1).to.be.at.least(2000);
  });
  it('keeps a job opened while /recent was answering seen, and asks again when asked mid-request', async () => {
    localStorage.setItem('hermes:tasks:seen', JSON.stringify({ since: 1000, jobs: {} }));
    const completions = [{ job_id: 'a1', name: 'Inbox', status: 'ok', completed_at: 2000 }];
    let release = () => {};
    // The answer is what the server knew when asked, held until the test lets it go.
    stub = stubFetch({
      'GET /api/crons/recent': async () => {
        const known = [...completions];
        await new Promise<void>((resolve) => (release = resolve));
        return { completions: known };
      },
    });
    const rail = await fixture<HTMLElement>('hermes-rail');
    const badge = () => sr(rail).querySelector('[data-role="rail-badge"]')?.textContent ?? null;
    const start = refreshUnseen();
    await waitFor(() => stub.calls.length === 1);
    release();
    await start;
    await waitFor(() => badge() === '1');

    // Another tab's panel opens the job while this tab's question is on its way.
    const asked = refreshUnseen();
    await waitFor(() => stub.calls.length === 2);
    markTaskSeen('a1');
    release();
    await asked;
    expect(unseenTasks.jobs.has('a1')).to.equal(false);
    expect(badge()).to.equal(null);

    // A completion lands while a question is on its way: the answer predates it, so it is asked again.
    const first = refreshUnseen();
    await waitFor(() => stub.calls.length === 3);
    completions.push({ job_id: 'b2', name: 'Other', status: 'ok', completed_at: Date.now() / 1000 + 60 });
    const second = refreshUnseen();
    release();
    await first;
    await waitFor(() => stub.calls.length === 4);
    release();
    await second;
    await waitFor(() => badge() === '1');
    expect([...unseenTasks.jobs.keys()]).to.deep.equal(['b2']);
  });
});
