import { expect, cleanup, waitFor } from '../helpers.js';
import type { FetchCall } from '../helpers.js';
import { mountSidebar, openMenu, row, type Mounted } from './setup.js';

const ROWS = [row('a1', { title: 'Alpha plan' }), row('b2', { title: 'Beta notes' })];
const SHARE = { token: 'Tok_en-123456789012345678', url: '/share/Tok_en-123456789012345678', created_at: 100 };

const posts = (calls: FetchCall[], path: string) => calls.filter((c) => c.method === 'POST' && new URL(c.url, location.href).pathname === path);
/** GET /api/session answers the share state of whichever session the menu asks about. */
const sessionWithShare = (shared: Record<string, typeof SHARE | null>) => (c: FetchCall) => {
  const id = new URL(c.url, location.href).searchParams.get('session_id')!;
  return { session: { ...row(id), messages: [], share: shared[id] ?? null } };
};

describe('session menu: share link', () => {
  let m: Mounted;
  afterEach(() => {
    m?.restore();
    cleanup();
  });

  it('offers "Share link" for an unshared session; making one posts it and tells the absolute link', async () => {
    m = await mountSidebar(ROWS, {
      'GET /api/session': sessionWithShare({}),
      'POST /api/share/create': { ok: true, share: { ...SHARE, title: 'Alpha plan', message_count: 2, updated_at: 100 } },
    });
    const menu = await openMenu(m, 'a1');
    await waitFor(() => !menu.querySelector<HTMLButtonElement>('[data-action="share"]')?.disabled);
    expect(menu.querySelector('[data-action="copy-share"]')).to.equal(null);
    expect(menu.querySelector('[data-action="unshare"]')).to.equal(null);
    const asked = m.calls.find((c) => c.method === 'GET' && c.url.includes('/api/session?'))!;
    expect(new URL(asked.url, location.href).searchParams.get('messages')).to.equal('0');
    menu.querySelector<HTMLElement>('[data-action="share"]')!.click();
    await waitFor(() => m.host.toasts.length > 0);
    expect(posts(m.calls, '/api/share/create')[0]!.body).to.deep.equal({ session_id: 'a1' });
    expect(m.host.toasts[0]!.message).to.contain(`${location.origin}/share/${SHARE.token}`);
  });

  it('offers copy and stop for a shared session; stopping posts revoke', async () => {
    m = await mountSidebar(ROWS, { 'GET /api/session': sessionWithShare({ b2: SHARE }), 'POST /api/share/revoke': { ok: true, session: row('b2') } });
    let menu = await openMenu(m, 'b2');
    await waitFor(() => !!menu.querySelector('[data-action="copy-share"]'));
    expect(menu.querySelector('[data-action="share"]')).to.equal(null);
    menu.querySelector<HTMLElement>('[data-action="copy-share"]')!.click();
    await waitFor(() => m.host.toasts.length === 1);
    expect(m.host.toasts[0]!.message).to.contain(`${location.origin}${SHARE.url}`);
    expect(posts(m.calls, '/api/share/create')).to.have.length(0);

    menu = await openMenu(m, 'b2');
    await waitFor(() => !!menu.querySelector('[data-action="unshare"]'));
    menu.querySelector<HTMLElement>('[data-action="unshare"]')!.click();
    await waitFor(() => posts(m.calls, '/api/share/revoke').length === 1);
    expect(posts(m.calls, '/api/share/revoke')[0]!.body).to.deep.equal({ session_id: 'b2' });
    await waitFor(() => m.host.toasts.length === 2);
    expect(m.host.toasts[1]!.message).to.contain('stopped');
  });

  it('shows the unshared state of another session after switching rows', async () => {
    m = await mountSidebar(ROWS, { 'GET /api/session': sessionWithShare({ b2: SHARE }) });
    const first = await openMenu(m, 'b2');
    await waitFor(() => !!first.querySelector('[data-action="copy-share"]'));
    const second = await openMenu(m, 'a1');
    await waitFor(() => !!second.querySelector('[data-action="share"]:not([disabled])'));
    expect(second.querySelector('[data-action="copy-share"]')).to.equal(null);
  });
});
