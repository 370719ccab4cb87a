import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { createApp } from '../../src/app.js';
import { D1SessionStore } from '../../src/adapters/storage/d1/d1-session-store.js';
import type { D1Database } from '../../src/adapters/storage/d1/d1-types.js';
import { applyMigrations } from '../../src/adapters/storage/d1/migrations.js';
import { NodeCompressor } from '../../src/adapters/platform/node-compression.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { sampleSession } from '../contracts/session-store.contract.js';

/**
 * The paged list over D1 (workerd's own, through Miniflare): the route pages the rows D1 lists,
 * and a write through another instance (another Worker isolate) between pages moves nothing
 * the cursor has not passed.
 */
describe('GET /api/sessions paging over D1', () => {
  let mf: Miniflare;
  let db: D1Database;
  let t: TestApp;
  let store: D1SessionStore;
  let other: D1SessionStore;
  let app: ReturnType<typeof createApp>;
  let tick = 1_800_000_000;
  const clock = { now: () => (tick += 1) };
  const ids: string[] = [];

  beforeAll(async () => {
    mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response() } }', d1Databases: ['DB'] });
    db = (await mf.getD1Database('DB')) as D1Database;
    await applyMigrations(db);
    store = new D1SessionStore(db, clock);
    other = new D1SessionStore(db, clock);
    await store.init();
    await other.init();
    for (let i = 0; i < 250; i++) {
      const at = clock.now();
      const s = await other.create(sampleSession({ title: `Session ${i}`, created_at: at, updated_at: at, pinned: i % 100 === 7 }));
      ids.push(s.session_id);
    }
    t = await makeTestApp();
    app = createApp({ ...t.deps, sessions: store, compression: new NodeCompressor() });
  });
  afterAll(async () => {
    await store?.dispose();
    await other?.dispose();
    await t?.close();
    await mf?.dispose();
  });

  it('walks every row once with a cursor while another instance writes', async () => {
    const pinned = ids.filter((_, i) => i % 100 === 7);
    const unpinned = [...ids].reverse().filter((id) => !pinned.includes(id));
    const seen: string[] = [];
    let cursor: string | null = null;
    let first: any = null;
    let pages = 0;
    do {
      const res = await app.request(`/api/sessions?limit=60${cursor ? `&cursor=${cursor}` : ''}`, { headers: { 'Accept-Encoding': 'br' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      const body = JSON.parse(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString());
      first ??= body;
      seen.push(...body.sessions.map((s: any) => s.session_id));
      cursor = body.next_cursor;
      if (++pages === 1) {
        // A row two pages down gets a message through the other instance: it moves to the top.
        await other.appendMessages(unpinned[150]!, [{ role: 'user', content: 'moved', timestamp: tick }]);
      }
    } while (cursor);
    expect(first.pinned.map((s: any) => s.session_id)).toEqual([...pinned].reverse());
    expect(first.total).toBe(250);
    expect(seen).toEqual(unpinned.filter((id) => id !== unpinned[150]));
    const top = await app.request('/api/sessions?limit=1');
    expect((await top.json()).sessions[0].session_id).toBe(unpinned[150]);
  });

  it('answers without paging parameters with every row, as before', async () => {
    const res = await app.request('/api/sessions');
    const body = await res.json();
    expect(Object.keys(body)).toEqual([
      'sessions',
      'total',
      'archived_count',
      'all_profiles',
      'active_profile',
      'other_profile_count',
      'server_time',
      'server_tz',
    ]);
    expect(body.sessions).toHaveLength(250);
    const etag = res.headers.get('etag')!;
    expect((await app.request('/api/sessions', { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });
});
