import { expect, cleanup, waitFor, type FetchCall } from '../helpers.js';
import { offlineCache } from '../../../components/offline/cache.js';
import { mountSidebar, row, titles, type Mounted } from './setup.js';

/** GET /api/sessions as the server answers it: task runs only with ?source=cron, else left out and counted. */
function server(chats: ReturnType<typeof row>[], tasks: ReturnType<typeof row>[]) {
  return (call: FetchCall) => {
    const only = new URL(call.url, location.href).searchParams.get('source') === 'cron';
    const sessions = only ? tasks : chats;
    const body = { sessions, next_cursor: null, total: sessions.length, archived_count: 0, ...(tasks.length || only ? { cron_count: tasks.length } : {}) };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

const chip = (m: Mounted) => m.$('[data-role="sidebar-tasks-filter"]');
const sources = (m: Mounted) =>
  m.calls.filter((c) => new URL(c.url, location.href).pathname === '/api/sessions').map((c) => new URL(c.url, location.href).searchParams.get('source'));

describe('sidebar Tasks filter', () => {
  let m: Mounted | undefined;
  beforeEach(async () => {
    await offlineCache.wipe();
  });
  afterEach(async () => {
    m?.restore();
    m = undefined;
    cleanup();
    await offlineCache.wipe();
  });

  it('shows a Tasks chip when there are task runs; pressing it lists only them, each with a Task badge', async () => {
    const chats = [row('c1', { title: 'Plain chat' })];
    const tasks = [row('t1', { title: 'Inbox summary', session_source: 'cron' }), row('cron_abc_1', { title: 'Hermes cron run' })];
    m = await mountSidebar([], { 'GET /api/sessions': server(chats, tasks) });
    await waitFor(() => titles(m!).length === 1);
    const tasksChip = chip(m)!;
    expect(tasksChip).to.exist;
    expect(tasksChip.getAttribute('aria-pressed')).to.equal('false');
    expect(tasksChip.textContent).to.contain('Tasks').and.contain('2');
    expect(m.rowEl('c1').shadowRoot.querySelector('[data-role="task-badge"]')).to.equal(null);

    tasksChip.click();
    await waitFor(() => titles(m!).length === 2);
    expect(titles(m)).to.deep.equal(['Inbox summary', 'Hermes cron run']);
    expect(sources(m).at(-1)).to.equal('cron');
    await waitFor(() => chip(m!)?.getAttribute('aria-pressed') === 'true');
    expect(m.$('[data-role="project-chip"][data-project-id=""]')!.getAttribute('aria-pressed')).to.equal('false');
    for (const id of ['t1', 'cron_abc_1']) expect(m.rowEl(id).shadowRoot.querySelector('[data-role="task-badge"]')?.textContent).to.equal('Task');

    // Pressed again (or "All"): the normal list.
    chip(m)!.click();
    await waitFor(() => titles(m!).length === 1 && titles(m!)[0] === 'Plain chat');
    expect(sources(m).at(-1)).to.equal(null);
    expect(chip(m)!.getAttribute('aria-pressed')).to.equal('false');
    chip(m)!.click();
    await waitFor(() => titles(m!).length === 2);
    m.$('[data-role="project-chip"][data-project-id=""]')!.click();
    await waitFor(() => titles(m!).length === 1);
    expect(m.host.sessions.tasksOnly).to.equal(false);
  });

  it('has no Tasks chip while there are no task runs', async () => {
    m = await mountSidebar([row('c1')]);
    await waitFor(() => titles(m!).length === 1);
    expect(chip(m)).to.equal(null);
    expect(m.host.sessions.cronCount).to.equal(0);
  });

  it('with only task runs, the empty list says they are under Tasks', async () => {
    m = await mountSidebar([], { 'GET /api/sessions': server([], [row('t1', { title: 'Inbox summary', session_source: 'cron' })]) });
    await waitFor(() => chip(m!) !== null);
    await waitFor(() => (m!.$('.empty')?.textContent ?? '').includes('Task runs are under Tasks'));
    expect(m.$('.empty')!.textContent).to.contain('New chat');
  });
});
