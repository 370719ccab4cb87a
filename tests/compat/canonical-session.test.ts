import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import type { Session } from '../../src/shared/session.js';
import { LAST_ACTIVE_KEY, canonicalTarget, continuationTip, requestedSession, withoutSupersededSnapshots } from '../../src/shared/canonical-session.js';

const T0 = 1_780_000_000;

/** A stored session as the incumbent writes one (a snapshot, a continuation, a plain chat). */
function session(id: string, fields: Partial<Session> = {}): Session {
  return {
    session_id: id,
    title: `Session ${id}`,
    workspace: null,
    model: null,
    created_at: T0,
    updated_at: T0,
    profile: 'default',
    messages: [
      { role: 'user', content: `hello from ${id}`, timestamp: T0 },
      { role: 'assistant', content: `reply in ${id}`, timestamp: T0 + 1 },
    ],
    tool_calls: [],
    ...fields,
  };
}

/**
 * The lineage: root (snapshot) → mid (snapshot, compressed again) → tip (live); an older live
 * child `stale` of root; `plain` (no lineage); `lonely` (a snapshot whose continuation is gone);
 * `foreign` in another profile naming root as its parent (never a continuation of it).
 */
const LINEAGE = [
  session('root00000001', { pre_compression_snapshot: true, updated_at: T0 + 10 }),
  session('stale0000001', { parent_session_id: 'root00000001', updated_at: T0 + 20 }),
  session('mid000000001', { parent_session_id: 'root00000001', pre_compression_snapshot: true, updated_at: T0 + 30 }),
  session('tip000000001', { parent_session_id: 'mid000000001', updated_at: T0 + 40 }),
  session('foreign00001', { parent_session_id: 'root00000001', profile: 'work', updated_at: T0 + 99 }),
  session('plain0000001', { updated_at: T0 + 5 }),
  session('lonely000001', { pre_compression_snapshot: true, updated_at: T0 + 6 }),
];

describe('canonical session resolution: the resolver module', () => {
  it('URL route: /session/<id> is the requested id, decoded', () => {
    expect(requestedSession({ path: '/session/abc%2Ddef', stored: 'other' })).toEqual({ id: 'abc-def', source: 'route', inspect: false });
  });

  it('query parameter: ?session= and ?session_id= request the same id as the route', () => {
    const route = requestedSession({ path: '/session/abc' })!;
    const q1 = requestedSession({ path: '/', search: '?session=abc' })!;
    const q2 = requestedSession({ path: '/', search: '?session_id=abc' })!;
    expect([q1.id, q2.id]).toEqual([route.id, route.id]);
    expect([q1.source, q2.source]).toEqual(['query', 'query']);
    // The same resolver gives the same target whatever the spelling.
    const answer = { canonical_visible_session_id: 'tip' };
    expect(new Set([route, q1, q2].map((r) => canonicalTarget(r.id, answer, r.inspect)))).toEqual(new Set(['tip']));
  });

  it('localStorage: the incumbent key, advisory (URL and query win; never an inspection)', () => {
    expect(LAST_ACTIVE_KEY).toBe('hermes-webui-session');
    expect(requestedSession({ path: '/', stored: 'saved' })).toEqual({ id: 'saved', source: 'stored', inspect: false });
    expect(requestedSession({ path: '/', search: '?inspect=1', stored: 'saved' })!.inspect).toBe(false);
    expect(requestedSession({ path: '/', search: '?session=q', stored: 'saved' })!.id).toBe('q');
    expect(requestedSession({ path: '/session/r', search: '?session=q', stored: 'saved' })!.id).toBe('r');
    expect(requestedSession({ path: '/', search: '?session=', stored: '' })).toBeNull();
  });

  it('direct open: inspection opts out of canonicalisation; an older server’s continuation_session_id is the fallback', () => {
    expect(canonicalTarget('root', { canonical_visible_session_id: 'tip' }, true)).toBe('root');
    expect(canonicalTarget('root', { continuation_session_id: 'tip' })).toBe('tip');
    expect(canonicalTarget('root', {})).toBe('root');
    expect(requestedSession({ path: '/session/root', search: '?inspect=1' })!.inspect).toBe(true);
    expect(requestedSession({ path: '/session/root', search: '?inspect=0' })!.inspect).toBe(false);
  });

  it('lineage: the newest live descendant through snapshot hops, in the snapshot’s profile only', () => {
    expect(continuationTip(LINEAGE[0]!, LINEAGE)).toBe('tip000000001');
    expect(continuationTip(LINEAGE[2]!, LINEAGE)).toBe('tip000000001');
    expect(continuationTip(LINEAGE[3]!, LINEAGE)).toBeNull();
    expect(continuationTip(LINEAGE[6]!, LINEAGE)).toBeNull();
    // A cycle of snapshots ends (bounded hops), with no tip.
    const a = { session_id: 'a', parent_session_id: 'b', pre_compression_snapshot: true, updated_at: 1 };
    const b = { session_id: 'b', parent_session_id: 'a', pre_compression_snapshot: true, updated_at: 1 };
    expect(continuationTip(a, [a, b])).toBeNull();
  });
});

describe('canonical session resolution: the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    for (const s of LINEAGE) await t.deps.sessions.create(s);
  });
  afterAll(async () => t?.close());

  const open = async (id: string) => (await t.call('GET', `/api/session?session_id=${id}&msg_limit=30`)).body.session;

  it('a snapshot parent names its live tip: canonical_visible_session_id beside the incumbent’s continuation_session_id', async () => {
    for (const id of ['root00000001', 'mid000000001']) {
      const s = await open(id);
      // The snapshot itself is answered (history inspection reads it); the fields say where navigation goes.
      expect(s.session_id).toBe(id);
      expect(s.pre_compression_snapshot).toBe(true);
      expect(s.canonical_visible_session_id).toBe('tip000000001');
      expect(s.continuation_session_id).toBe('tip000000001');
    }
  });

  it('a directly valid non-snapshot id stays itself; a snapshot without continuation too', async () => {
    for (const id of ['plain0000001', 'tip000000001', 'stale0000001', 'lonely000001']) {
      const s = await open(id);
      expect(s.canonical_visible_session_id).toBe(id);
      expect(s).not.toHaveProperty('continuation_session_id');
    }
  });

  it('sidebar: the lineage’s row is the tip loading resolves to; superseded snapshots are not listed twice', async () => {
    const { body } = await t.call('GET', '/api/sessions');
    const ids: string[] = body.sessions.map((r: { session_id: string }) => r.session_id);
    expect(ids).not.toContain('root00000001');
    expect(ids).not.toContain('mid000000001');
    expect(ids).toContain('tip000000001');
    // Still reachable: a snapshot whose continuation is gone.
    expect(ids).toContain('lonely000001');
    for (const id of ids) expect((await open(id)).canonical_visible_session_id).toBe(id);
    // The list's own filter, over every profile's rows: only the two superseded snapshots go.
    expect(withoutSupersededSnapshots(LINEAGE).map((r) => r.session_id)).toEqual([
      'stale0000001',
      'tip000000001',
      'foreign00001',
      'plain0000001',
      'lonely000001',
    ]);
  });

  it('browser boot restore: the stored id and the URL canonicalise alike through the answer', async () => {
    const answer = await open('root00000001');
    const fromUrl = requestedSession({ path: '/session/root00000001', stored: 'plain0000001' })!;
    const fromStore = requestedSession({ path: '/', stored: 'root00000001' })!;
    expect(canonicalTarget(fromUrl.id, answer, fromUrl.inspect)).toBe('tip000000001');
    expect(canonicalTarget(fromStore.id, answer, fromStore.inspect)).toBe('tip000000001');
  });

  it('a missing session is the 404 path, not a canonicalisation', async () => {
    const r = await t.call('GET', '/api/session?session_id=gone00000001');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: expect.any(String) });
  });
});

describe('canonical session resolution: a superseded snapshot is read-only', () => {
  let t: ChatHarness;
  beforeAll(async () => {
    t = await makeChatApp();
    for (const s of LINEAGE) await t.deps.sessions.create(s);
  });
  afterAll(async () => t?.close());

  it('POST /api/chat/start on a snapshot with a live continuation is a 409 naming it; nothing is stored', async () => {
    for (const id of ['root00000001', 'mid000000001']) {
      const r = await t.start(id, 'one more question');
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ error: expect.stringContaining('archived snapshot'), continuation_session_id: 'tip000000001' });
      expect((await t.deps.sessions.get(id))!.messages).toHaveLength(2);
    }
  });

  it('a snapshot whose continuation is gone, and the tip itself, still take turns', async () => {
    for (const id of ['lonely000001', 'tip000000001']) {
      t.model.enqueue([{ text: `answered in ${id}` }]);
      const r = await t.start(id, 'go on');
      expect(r.status).toBe(200);
      const frames = await t.stream(r.body.stream_id);
      expect(frames.map((f) => f.event)).toContain('done');
    }
  });
});
