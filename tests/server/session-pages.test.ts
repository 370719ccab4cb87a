import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageRows } from '../../src/domain/session-pages.js';
import { compareRows } from '../../src/domain/session-rows.js';
import type { SessionRow } from '../../src/shared/session.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { KEY } from '../helpers/secrets.js';

const row = (id: string, updated_at: number, pinned = false): SessionRow => ({
  session_id: id,
  title: id,
  message_count: 0,
  created_at: 1,
  updated_at,
  pinned,
  archived: false,
  project_id: null,
});

describe('session list pages (domain)', () => {
  it('round-trips a cursor and refuses strings it did not make', () => {
    const cursor = { updatedAt: 1_780_000_000.123456, sessionId: 'abc_DEF-1.2' };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
    for (const bad of [
      '',
      'not-a-cursor',
      '!!!',
      btoa('12~../etc').replace(/=+$/, ''),
      btoa('NaN~abc').replace(/=+$/, ''),
      btoa('~abc').replace(/=+$/, ''),
      'x'.repeat(500),
    ]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
  });

  it('pages unpinned rows after the cursor; the first page carries every pinned row', () => {
    const rows = [row('p1', 90, true), row('a', 80), row('b', 70), row('p2', 65, true), row('c', 60), row('d', 60), row('e', 50)].sort(compareRows);
    const first = pageRows(rows, { limit: 2 });
    expect(first.pinned!.map((r) => r.session_id)).toEqual(['p1', 'p2']);
    expect(first.rows.map((r) => r.session_id)).toEqual(['a', 'b']);
    expect(first.next).toEqual({ updatedAt: 70, sessionId: 'b' });
    // Ties on updated_at are broken by id, so c and d are never split wrongly across pages.
    const second = pageRows(rows, { limit: 2, cursor: first.next! });
    expect(second.pinned).toBeNull();
    expect(second.rows.map((r) => r.session_id)).toEqual(['c', 'd']);
    const third = pageRows(rows, { limit: 2, cursor: second.next! });
    expect(third.rows.map((r) => r.session_id)).toEqual(['e']);
    expect(third.next).toBeNull();
    // A cursor whose row is gone still places the page: it is a position, not a row.
    expect(pageRows(rows, { limit: 5, cursor: { updatedAt: 65, sessionId: 'zz' } }).rows.map((r) => r.session_id)).toEqual(['c', 'd', 'e']);
    expect(pageRows(rows, { limit: 2, offset: 2 }).rows.map((r) => r.session_id)).toEqual(['c', 'd']);
    expect(pageRows(rows, { limit: 2, offset: 2 }).pinned).toBeNull();
  });
});

describe.each(['memory', 'fs'] as const)('GET /api/sessions paging (%s storage)', (storage) => {
  let t: TestApp;
  let now: number;

  beforeEach(async () => {
    t = await makeTestApp({ storage });
    now = 1_700_000_000;
    t.deps.clock.now = () => now;
  });
  afterEach(async () => t.close());

  /** `n` sessions one second apart (oldest first); returns their ids. */
  async function sessions(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      now += 1;
      ids.push(await t.newSession());
    }
    return ids;
  }

  async function pin(id: string) {
    now += 1;
    await t.deps.sessions.update(id, { pinned: true });
  }

  /** Every page from the first on, following next_cursor. */
  async function walk(limit: number, between?: (page: number) => Promise<void>) {
    const pages: any[] = [];
    let cursor: string | null = null;
    do {
      const r = await t.call('GET', `/api/sessions?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      pages.push(r.body);
      cursor = r.body.next_cursor;
      if (cursor && between) await between(pages.length);
    } while (cursor);
    return pages;
  }

  it('without paging parameters answers exactly as before: every row, pinned ones in place', async () => {
    const ids = await sessions(5);
    await pin(ids[1]!);
    const r = await t.call('GET', '/api/sessions');
    expect(Object.keys(r.body)).toEqual([
      'sessions',
      'total',
      'archived_count',
      'all_profiles',
      'active_profile',
      'other_profile_count',
      'server_time',
      'server_tz',
    ]);
    expect(r.body.sessions.map((s: any) => s.session_id)).toEqual([ids[1], ids[4], ids[3], ids[2], ids[0]]);
    expect(r.body.total).toBe(5);
    expect(r.res.headers.get('etag')).toMatch(/^W\/"[^"]+\.0\.\.\.r\.default"$/);
  });

  it('walks every unpinned row once, in order; pinned rows come beside the first page only', async () => {
    const ids = await sessions(23);
    for (const id of [ids[3]!, ids[10]!, ids[20]!, ids[0]!]) await pin(id);
    const pages = await walk(5);
    expect(pages).toHaveLength(4);
    // Four pinned rows although the page holds five: all of them, whatever the limit.
    expect(pages[0].pinned.map((s: any) => s.session_id)).toEqual([ids[0], ids[20], ids[10], ids[3]]);
    expect(pages.slice(1).every((p) => !('pinned' in p))).toBe(true);
    const seen = pages.flatMap((p) => p.sessions.map((s: any) => s.session_id));
    const unpinned = [...ids].reverse().filter((id) => ![ids[3], ids[10], ids[20], ids[0]].includes(id));
    expect(seen).toEqual(unpinned);
    expect(pages.every((p) => p.sessions.every((s: any) => !s.pinned))).toBe(true);
    expect(pages.map((p) => p.sessions.length)).toEqual([5, 5, 5, 4]);
    expect(pages.every((p) => p.total === 23 && p.archived_count === 0)).toBe(true);
    expect(pages.at(-1).next_cursor).toBeNull();
    expect(Object.keys(pages[0])).toEqual([
      'sessions',
      'pinned',
      'next_cursor',
      'total',
      'archived_count',
      'all_profiles',
      'active_profile',
      'other_profile_count',
      'server_time',
      'server_tz',
    ]);
  });

  it('a session added or updated between pages neither repeats nor pushes another row out', async () => {
    const ids = await sessions(12);
    const newestFirst = [...ids].reverse();
    let added = '';
    const pages = await walk(4, async (page) => {
      if (page !== 1) return;
      // A session on a later page gets a new message (moves to the top), and a new one appears.
      now += 10;
      await t.deps.sessions.appendMessages(newestFirst[9]!, [{ role: 'user', content: 'later', timestamp: now }]);
      now += 1;
      added = await t.newSession();
    });
    const seen = pages.flatMap((p) => p.sessions.map((s: any) => s.session_id));
    expect(new Set(seen).size).toBe(seen.length);
    // Every row that stayed in place is seen; the moved and the new one are above the cursor.
    expect(seen).toEqual(newestFirst.filter((id) => id !== newestFirst[9]));
    expect(seen).not.toContain(added);
    // Offsets would have repeated two rows here: the same change shifts everything below it.
    const fresh = await t.call('GET', '/api/sessions?limit=4&offset=4');
    expect(fresh.body.sessions.map((s: any) => s.session_id)).toEqual(newestFirst.slice(2, 6));
    // The next first page shows both at the top.
    const top = await t.call('GET', '/api/sessions?limit=4');
    expect(top.body.sessions.slice(0, 2).map((s: any) => s.session_id)).toEqual([added, newestFirst[9]]);
  });

  it('every page of one list state shares an ETag; any change gives a new one', async () => {
    await sessions(8);
    const first = await t.call('GET', '/api/sessions?limit=3');
    const etag = first.res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[^"]+\.0\.page\.r\.default"$/);
    const second = await t.call('GET', `/api/sessions?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.res.headers.get('etag')).toBe(etag);
    // The loaded rows (six) are revalidated in one request with that tag.
    const check = await t.app.request('/api/sessions?limit=6', { headers: { 'If-None-Match': etag } });
    expect(check.status).toBe(304);
    expect(check.headers.get('etag')).toBe(etag);
    // The unpaged list has its own tag: its body is another shape.
    expect((await t.app.request('/api/sessions', { headers: { 'If-None-Match': etag } })).status).toBe(200);
    now += 1;
    await t.newSession();
    const changed = await t.app.request('/api/sessions?limit=6', { headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('pages the archived view with include_archived', async () => {
    const ids = await sessions(6);
    now += 1;
    await t.deps.sessions.update(ids[2]!, { archived: true });
    const active = await t.call('GET', '/api/sessions?limit=10');
    expect(active.body.sessions.map((s: any) => s.session_id)).not.toContain(ids[2]);
    expect(active.body).toMatchObject({ total: 5, archived_count: 1, next_cursor: null });
    const all = await t.call('GET', '/api/sessions?limit=2&include_archived=1');
    expect(all.body.sessions.map((s: any) => s.session_id)).toEqual([ids[2], ids[5]]);
    expect(all.body.total).toBe(6);
    expect(all.res.headers.get('etag')).not.toBe(active.res.headers.get('etag'));
  });

  it('a cursor alone pages by 100; limits and cursors are validated (400 naming the parameter)', async () => {
    const ids = await sessions(3);
    const first = await t.call('GET', '/api/sessions?limit=1');
    const rest = await t.call('GET', `/api/sessions?cursor=${first.body.next_cursor}`);
    expect(rest.body.sessions.map((s: any) => s.session_id)).toEqual([ids[1], ids[0]]);
    for (const [query, name] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=%21%21', 'cursor'],
      [`cursor=${first.body.next_cursor}&offset=2`, 'cursor and offset'],
    ]) {
      const r = await t.call('GET', `/api/sessions?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error).toContain(name);
    }
    expect((await t.call('GET', '/api/sessions?limit=1000')).status).toBe(200);
  });

  it('redacts titles in pages and in the pinned list', async () => {
    const [a, b] = await sessions(2);
    await t.call('POST', '/api/session/rename', { session_id: a, title: `Deploy with ${KEY}` });
    await t.call('POST', '/api/session/rename', { session_id: b, title: `Pinned ${KEY}` });
    await pin(b!);
    const r = await t.call('GET', '/api/sessions?limit=5');
    expect(JSON.stringify(r.body)).not.toContain(KEY);
    expect(r.body.sessions[0].title).toBe('Deploy with sk-proj-***');
    expect(r.body.pinned[0].title).toBe('Pinned sk-proj-***');
  });
});
