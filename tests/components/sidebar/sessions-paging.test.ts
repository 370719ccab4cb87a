import { expect, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import { SessionsStore, PAGE_ROWS, type SessionListRow } from '../../../components/state/sessions-store.js';
import { offlineCache } from '../../../components/offline/cache.js';
import { ago, mountSidebar, row, type Mounted } from './setup.js';

/**
 * A paged GET /api/sessions over `rows` as the server answers it (docs/session-list-api.md):
 * unpinned rows by cursor, pinned ones beside the first page, one ETag per list state.
 */
function pagedServer(all: SessionListRow[]) {
  const state = { rows: all, etag: 'W/"rev-1"' };
  const handler = (call: FetchCall) => {
    const url = new URL(call.url, location.href);
    if (call.headers['if-none-match'] === state.etag) return new Response(null, { status: 304, headers: { ETag: state.etag } });
    const limit = Number(url.searchParams.get('limit'));
    const cursor = url.searchParams.get('cursor');
    const pinned = state.rows.filter((r) => r.pinned);
    const unpinned = state.rows.filter((r) => !r.pinned);
    const start = cursor ? unpinned.findIndex((r) => r.session_id === cursor) + 1 : 0;
    const page = unpinned.slice(start, start + limit);
    const body = {
      sessions: page,
      ...(cursor ? {} : { pinned }),
      next_cursor: start + limit < unpinned.length ? page.at(-1)!.session_id : null,
      total: state.rows.length,
      archived_count: 0,
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ETag: state.etag } });
  };
  return { state, handler };
}

const listCalls = (calls: FetchCall[]) => calls.filter((c) => new URL(c.url, location.href).pathname === '/api/sessions');
const param = (c: FetchCall, name: string) => new URL(c.url, location.href).searchParams.get(name);

/** 350 sessions a minute apart, three of them pinned. */
const ROWS = Array.from({ length: 350 }, (_, i) =>
  row(`r${i}`, { title: `Session ${i}`, updated_at: ago(10) - i * 60, pinned: i === 5 || i === 200 || i === 349 }),
);
const UNPINNED = ROWS.filter((r) => !r.pinned).map((r) => r.session_id);

describe('sidebar paging', () => {
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

  it('loads the first page with every pinned row on top, then pages in as the list scrolls to the end', async () => {
    const server = pagedServer(ROWS);
    // mountSidebar's own list stub is replaced by the paged one.
    m = await mountSidebar([], { 'GET /api/sessions': server.handler });
    const first = listCalls(m.calls)[0]!;
    expect(param(first, 'limit')).to.equal(String(PAGE_ROWS));
    expect(param(first, 'cursor')).to.equal(null);
    const store = m.host.sessions;
    expect(store.rows).to.have.length(PAGE_ROWS + 3);
    expect(store.hasMore).to.equal(true);
    // The footer counts the server's list, not the rows loaded so far.
    expect(m.$('[data-role="session-count"]')!.textContent).to.contain('350 chats');
    // Pinned rows lead the list, although two of them are far down the order.
    const list = m.sidebar.shadowRoot!.querySelector('hermes-session-list')!;
    const header = list.shadowRoot!.querySelector('[data-role="bucket-header"]');
    expect(header?.textContent).to.equal('Pinned');
    const firstRows = m
      .$$('[data-role="session-row"]')
      .slice(0, 3)
      .map((el) => el.dataset.sessionId);
    expect(firstRows).to.deep.equal(['r5', 'r200', 'r349']);

    const viewport = list.shadowRoot!.querySelector<HTMLElement>('.viewport')!;
    // Scrolled to the bottom, the list asks for the next page; nothing else asks here.
    for (let i = 0; i < 10 && store.hasMore; i++) {
      const had = store.rows.length;
      viewport.scrollTop = viewport.scrollHeight;
      await waitFor(() => !store.loadingMore && store.rows.length > had);
    }
    expect(store.hasMore).to.equal(false);
    expect(store.rows).to.have.length(ROWS.length);
    expect(new Set(store.rows.map((r) => r.session_id)).size).to.equal(ROWS.length);
    const cursors = listCalls(m.calls)
      .slice(1)
      .map((c) => param(c, 'cursor'));
    expect(cursors).to.deep.equal([UNPINNED[99], UNPINNED[199], UNPINNED[299]]);
    viewport.scrollTop = viewport.scrollHeight;
    await waitFor(() => m!.$$('[data-role="session-row"]').some((el) => el.dataset.sessionId === 'r348'));
  });

  it('revalidates every loaded row with the ETag: a 304 keeps them, a change reloads as many', async () => {
    const server = pagedServer(ROWS);
    m = await mountSidebar([], { 'GET /api/sessions': server.handler });
    const store = m.host.sessions;
    await store.loadMore();
    expect(store.rows).to.have.length(2 * PAGE_ROWS + 3);
    await store.refresh();
    let last = listCalls(m.calls).at(-1)!;
    expect(last.headers['if-none-match']).to.equal('W/"rev-1"');
    expect(param(last, 'limit')).to.equal(String(2 * PAGE_ROWS));
    expect(store.rows).to.have.length(2 * PAGE_ROWS + 3);

    server.state.rows = [row('new', { title: 'Brand new', updated_at: ago(0) }), ...ROWS];
    server.state.etag = 'W/"rev-2"';
    await store.refresh();
    last = listCalls(m.calls).at(-1)!;
    expect(param(last, 'limit')).to.equal(String(2 * PAGE_ROWS));
    expect(store.rows[3]!.session_id).to.equal('new');
    expect(store.rows).to.have.length(2 * PAGE_ROWS + 3);
    await store.refresh();
    expect(listCalls(m.calls).at(-1)!.headers['if-none-match']).to.equal('W/"rev-2"');
  });

  it('paints from IndexedDB at start, sends the stored ETag, and keeps the stored rows on a 304', async () => {
    const server = pagedServer(ROWS);
    const stub = stubFetch({ 'GET /api/sessions': server.handler, 'GET /api/projects': { projects: [] } });
    try {
      const before = new SessionsStore();
      await before.refresh();
      await before.loadMore();
      await offlineCache.flush();

      // A new start: the stored ETag goes out at once, the stored 203 rows paint, the server
      // confirms them all with one 304.
      const after = new SessionsStore();
      const painted: number[] = [];
      after.addEventListener('change', () => painted.push(after.rows.length));
      await after.refresh();
      expect(painted[0]).to.equal(2 * PAGE_ROWS + 3);
      const revalidate = listCalls(stub.calls).at(-1)!;
      expect(revalidate.headers['if-none-match']).to.equal('W/"rev-1"');
      expect(after.rows).to.have.length(2 * PAGE_ROWS + 3);
      expect(after.cached).to.equal(false);
      expect(after.hasMore).to.equal(true);
      // Paging goes on from where the stored rows end.
      const from = listCalls(stub.calls).length;
      while (after.hasMore) await after.loadMore();
      expect(param(listCalls(stub.calls)[from]!, 'cursor')).to.equal(UNPINNED[199]);
      expect(after.rows).to.have.length(ROWS.length);

      // Changed meanwhile: the first page replaces what was stored, and paging starts over.
      await offlineCache.flush();
      server.state.rows = ROWS.slice(0, 150);
      server.state.etag = 'W/"rev-3"';
      const third = new SessionsStore();
      await third.refresh();
      expect(listCalls(stub.calls).at(-1)!.headers['if-none-match']).to.equal('W/"rev-1"');
      expect(third.rows.map((r) => r.session_id)).to.deep.equal([
        'r5',
        ...ROWS.slice(0, 150)
          .filter((r) => !r.pinned)
          .slice(0, PAGE_ROWS)
          .map((r) => r.session_id),
      ]);
      expect(third.hasMore).to.equal(true);
      await third.loadMore();
      expect(third.rows).to.have.length(150);
      expect(third.hasMore).to.equal(false);

      // A tag in localStorage whose rows never reached IndexedDB (a reload inside a write
      // batch) is not trusted: the 304 is followed by a plain request.
      await offlineCache.wipe();
      localStorage.setItem('hermes:list-etag', 'W/"rev-3"');
      const fourth = new SessionsStore();
      const before4 = listCalls(stub.calls).length;
      await fourth.refresh();
      const asked = listCalls(stub.calls).slice(before4);
      expect(asked.map((c) => c.headers['if-none-match'] ?? null)).to.deep.equal(['W/"rev-3"', null]);
      expect(fourth.rows).to.have.length(PAGE_ROWS + 1);
    } finally {
      stub.restore();
    }
  });

  it('an older server (or stub) that answers every row at once still fills the list', async () => {
    const rows = [row('a', { pinned: true }), row('b'), row('c')];
    m = await mountSidebar(rows);
    expect(m.host.sessions.rows.map((r) => r.session_id)).to.deep.equal(['a', 'b', 'c']);
    expect(m.host.sessions.hasMore).to.equal(false);
  });
});
