import { expect, cleanup, waitFor } from '../helpers.js';
import type { FetchCall } from '../helpers.js';
import { ago, earlierToday, mountSidebar, openChat, openMenu, row, titles, type Mounted } from './setup.js';

const ROWS = [
  row('a1', { title: 'Alpha plan', updated_at: ago(0), project_id: 'p1' }),
  row('b2', { title: 'Beta notes', updated_at: earlierToday(900) }),
  row('c3', { title: 'Gamma deploy', updated_at: ago(3), project_id: 'p2' }),
  row('d4', { title: 'Delta review', updated_at: ago(40), pinned: true }),
];

const posts = (calls: FetchCall[], path: string) => calls.filter((c) => c.method === 'POST' && new URL(c.url, location.href).pathname === path);

describe('hermes-sidebar', () => {
  let m: Mounted;
  afterEach(() => {
    m?.restore();
    cleanup();
  });

  it('lists sessions in buckets, pinned first', async () => {
    m = await mountSidebar(ROWS);
    expect(m.$$('[data-role="bucket-header"]').map((h) => h.textContent)).to.deep.equal(['Pinned', 'Today', 'This week']);
    expect(titles(m)).to.deep.equal(['Delta review', 'Alpha plan', 'Beta notes', 'Gamma deploy']);
    expect(m.$('[data-role="session-count"]')!.textContent).to.contain('4 chats');
  });

  it('"New chat" asks for the empty new-chat view', async () => {
    m = await mountSidebar(ROWS);
    let detail: unknown;
    m.host.addEventListener('hermes-open-session', (e) => (detail = e.detail));
    m.$('[data-role="new-chat"]')!.click();
    expect(detail).to.deep.equal({ sessionId: null });
  });

  it('filters titles at once, then shows the server’s content matches with their preview', async () => {
    m = await mountSidebar(ROWS, {
      'GET /api/sessions/search': { sessions: [{ ...ROWS[1]!, match_type: 'content', match_preview: 'we should deploy on friday' }] },
    });
    const input = m.$('[data-role="session-search"]') as HTMLInputElement;
    input.value = 'deploy';
    input.dispatchEvent(new Event('input'));
    await waitFor(() => titles(m).join() === 'Gamma deploy');
    await waitFor(() => titles(m).join() === 'Beta notes');
    expect(m.calls.some((c) => c.url.includes('/api/sessions/search') && c.url.includes('q=deploy'))).to.equal(true);
    const preview = m.rowEl('b2').shadowRoot.querySelector('[data-role="match-preview"]');
    expect(preview?.textContent).to.contain('deploy on friday');
    // Escape clears the search and brings every row back.
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await waitFor(() => titles(m).length === 4);
  });

  it('filters by project chip, and "All" clears the filter', async () => {
    m = await mountSidebar(ROWS);
    const chip = (id: string) => m.$(`[data-role="project-chip"][data-project-id="${id}"]`)!;
    expect(m.$$('[data-role="project-chip"]').map((c) => c.textContent!.trim())).to.deep.equal(['All', 'Atlas', 'Zephyr']);
    chip('p1').click();
    await waitFor(() => titles(m).join() === 'Alpha plan');
    expect(chip('p1').getAttribute('aria-pressed')).to.equal('true');
    chip('p2').click();
    await waitFor(() => titles(m).join() === 'Gamma deploy');
    chip('').click();
    await waitFor(() => titles(m).length === 4);
  });

  it('creates a project with a palette colour stored as a hex', async () => {
    m = await mountSidebar(ROWS, {
      'POST /api/projects/create': (c: FetchCall) => ({ project: { project_id: 'p3', name: c.body.name, color: c.body.color, created_at: 3 } }),
    });
    m.$('[data-role="new-project"]')!.click();
    await waitFor(() => !!m.$('[data-role="project-form"]'));
    (m.$('input[name="name"]') as HTMLInputElement).value = 'Orion';
    m.$$('.swatch')[2]!.click();
    await waitFor(() => m.$$('.swatch')[2]!.getAttribute('aria-checked') === 'true');
    m.$('[data-role="create-project"]')!.click();
    await waitFor(() => posts(m.calls, '/api/projects/create').length === 1);
    const body = posts(m.calls, '/api/projects/create')[0]!.body;
    expect(body.name).to.equal('Orion');
    // The third palette swatch is --hermes-color-success (dark theme).
    expect(body.color).to.equal('#86c08b');
    await waitFor(() => !!m.$('[data-role="project-chip"][data-project-id="p3"]'));
    expect(m.$('[data-role="project-form"]')).to.not.exist;
  });

  it('renames inline through the menu, and updates the open chat’s title', async () => {
    m = await mountSidebar(ROWS, {
      'POST /api/session/rename': (c: FetchCall) => ({ session: { ...ROWS[1]!, title: c.body.title, updated_at: ago(0) } }),
    });
    openChat(m.host.chat, ROWS[1]!);
    const menu = await openMenu(m, 'b2');
    menu.querySelector<HTMLElement>('[data-action="rename"]')!.click();
    await waitFor(() => !!m.rowEl('b2').shadowRoot.querySelector('[data-role="rename-input"]'));
    expect(m.menu()).to.not.exist;
    const input = m.rowEl('b2').shadowRoot.querySelector<HTMLInputElement>('[data-role="rename-input"]')!;
    input.value = 'Beta, renamed';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    await waitFor(() => posts(m.calls, '/api/session/rename').length === 1);
    expect(posts(m.calls, '/api/session/rename')[0]!.body).to.deep.equal({ session_id: 'b2', title: 'Beta, renamed' });
    await waitFor(() => titles(m).includes('Beta, renamed'));
    expect(m.host.chat.session?.title).to.equal('Beta, renamed');
  });

  it('Escape cancels an inline rename without a request', async () => {
    m = await mountSidebar(ROWS, { 'POST /api/session/rename': { session: ROWS[1] } });
    (await openMenu(m, 'b2')).querySelector<HTMLElement>('[data-action="rename"]')!.click();
    await waitFor(() => !!m.rowEl('b2').shadowRoot.querySelector('[data-role="rename-input"]'));
    m.rowEl('b2')
      .shadowRoot.querySelector('input')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await waitFor(() => !m.rowEl('b2').shadowRoot.querySelector('[data-role="rename-input"]'));
    expect(posts(m.calls, '/api/session/rename')).to.have.length(0);
  });

  it('pins a session and moves it to the Pinned bucket', async () => {
    m = await mountSidebar(ROWS, {
      'POST /api/session/pin': (c: FetchCall) => ({ ok: true, session: { ...ROWS[2]!, pinned: c.body.pinned } }),
    });
    (await openMenu(m, 'c3')).querySelector<HTMLElement>('[data-action="pin"]')!.click();
    await waitFor(() => posts(m.calls, '/api/session/pin').length === 1);
    expect(posts(m.calls, '/api/session/pin')[0]!.body).to.deep.equal({ session_id: 'c3', pinned: true });
    await waitFor(() => titles(m).slice(0, 2).includes('Gamma deploy'));
    expect(m.$$('[data-role="bucket-header"]').map((h) => h.textContent)).to.deep.equal(['Pinned', 'Today']);
    expect(m.menu()).to.not.exist;
  });

  it('archives a session (it leaves the list while archived rows are hidden)', async () => {
    m = await mountSidebar(ROWS, { 'POST /api/session/archive': (c: FetchCall) => ({ ok: true, session: { ...ROWS[0]!, archived: c.body.archived } }) });
    (await openMenu(m, 'a1')).querySelector<HTMLElement>('[data-action="archive"]')!.click();
    await waitFor(() => posts(m.calls, '/api/session/archive').length === 1);
    expect(posts(m.calls, '/api/session/archive')[0]!.body).to.deep.equal({ session_id: 'a1', archived: true });
    await waitFor(() => !titles(m).includes('Alpha plan'));
  });

  it('moves a session to a project from the submenu', async () => {
    m = await mountSidebar(ROWS, { 'POST /api/session/move': (c: FetchCall) => ({ ok: true, session: { ...ROWS[1]!, project_id: c.body.project_id } }) });
    const menu = await openMenu(m, 'b2');
    menu.querySelector<HTMLElement>('[data-action="move"]')!.click();
    await waitFor(() => !!menu.querySelector('[data-project-id="p2"]'));
    expect([...menu.querySelectorAll('[data-project-id]')].map((b) => b.textContent!.trim())).to.deep.equal(['No project', 'Atlas', 'Zephyr']);
    menu.querySelector<HTMLElement>('[data-project-id="p2"]')!.click();
    await waitFor(() => posts(m.calls, '/api/session/move').length === 1);
    expect(posts(m.calls, '/api/session/move')[0]!.body).to.deep.equal({ session_id: 'b2', project_id: 'p2' });
    await waitFor(() => m.host.sessions.rows.find((r) => r.session_id === 'b2')?.project_id === 'p2');
  });

  it('links the exports to the export endpoint as downloads', async () => {
    m = await mountSidebar(ROWS);
    const menu = await openMenu(m, 'a1');
    const md = menu.querySelector<HTMLAnchorElement>('[data-action="export-md"]')!;
    expect(md.hasAttribute('download')).to.equal(true);
    expect(md.getAttribute('href')).to.equal('/api/session/export?session_id=a1&format=md');
    expect(menu.querySelector('[data-action="export-json"]')!.getAttribute('href')).to.equal('/api/session/export?session_id=a1&format=json');
    expect(menu.querySelector('[data-action="export-html"]')!.getAttribute('href')).to.equal('/api/session/export?session_id=a1&format=html');
  });

  it('regenerates a title from the latest exchange and shows it in the row', async () => {
    m = await mountSidebar(ROWS, {
      'POST /api/session/title/regenerate': { session: { ...ROWS[1]!, title: 'Beta launch checklist' }, title: 'Beta launch checklist', status: 'generated' },
    });
    (await openMenu(m, 'b2')).querySelector<HTMLElement>('[data-action="regenerate-title"]')!.click();
    await waitFor(() => titles(m).includes('Beta launch checklist'));
    expect(posts(m.calls, '/api/session/title/regenerate')[0]!.body).to.deep.equal({ session_id: 'b2', prefer_latest: true });
  });

  it('deletes only after the confirm step, and leaves the deleted open chat', async () => {
    m = await mountSidebar(ROWS, { 'POST /api/session/delete': { ok: true } });
    openChat(m.host.chat, ROWS[0]!);
    let opened: unknown = 'never';
    m.host.addEventListener('hermes-open-session', (e) => (opened = e.detail.sessionId));
    const menu = await openMenu(m, 'a1');
    menu.querySelector<HTMLElement>('[data-action="delete"]')!.click();
    await waitFor(() => !!menu.querySelector('[data-role="confirm-delete"]'));
    expect(posts(m.calls, '/api/session/delete')).to.have.length(0);
    menu.querySelector<HTMLElement>('[data-role="confirm-delete"]')!.click();
    await waitFor(() => posts(m.calls, '/api/session/delete').length === 1);
    expect(posts(m.calls, '/api/session/delete')[0]!.body).to.deep.equal({ session_id: 'a1' });
    await waitFor(() => !titles(m).includes('Alpha plan'));
    expect(opened).to.equal(null);
  });

  it('cancelling the delete confirm sends nothing', async () => {
    m = await mountSidebar(ROWS, { 'POST /api/session/delete': { ok: true } });
    const menu = await openMenu(m, 'a1');
    menu.querySelector<HTMLElement>('[data-action="delete"]')!.click();
    await waitFor(() => !!menu.querySelector('[data-action="cancel-delete"]'));
    menu.querySelector<HTMLElement>('[data-action="cancel-delete"]')!.click();
    await waitFor(() => !!menu.querySelector('[data-action="rename"]'));
    expect(posts(m.calls, '/api/session/delete')).to.have.length(0);
  });

  it('closes the menu on Escape and on an outside click', async () => {
    m = await mountSidebar(ROWS);
    await openMenu(m, 'a1');
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await waitFor(() => !m.menu());
    await openMenu(m, 'a1');
    document.body.click();
    await waitFor(() => !m.menu());
    // The ⋯ button toggles its own menu.
    await openMenu(m, 'a1');
    m.rowEl('a1').shadowRoot.querySelector<HTMLElement>('[data-role="row-menu-button"]')!.click();
    await waitFor(() => !m.menu());
  });

  it('shows a failed action as an error toast', async () => {
    m = await mountSidebar(ROWS, { 'POST /api/session/pin': () => new Response(JSON.stringify({ error: 'You can pin at most 3 sessions' }), { status: 400 }) });
    (await openMenu(m, 'a1')).querySelector<HTMLElement>('[data-action="pin"]')!.click();
    await waitFor(() => m.host.toasts.length === 1);
    expect(m.host.toasts[0]).to.deep.equal({ message: 'You can pin at most 3 sessions', kind: 'error' });
  });

  it('toggles archived sessions through the store', async () => {
    m = await mountSidebar(ROWS);
    m.$('[data-role="archived-toggle"]')!.click();
    await waitFor(() => m.calls.some((c) => c.url.includes('include_archived=1')));
    expect(m.host.sessions.showArchived).to.equal(true);
    await waitFor(() => m.$('[data-role="archived-toggle"]')!.getAttribute('aria-pressed') === 'true');
  });
});
