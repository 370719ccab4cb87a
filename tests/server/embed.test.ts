import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { MemoryEmbedTokenStore } from '../../src/adapters/storage/memory/memory-embed-tokens.js';
import { FsEmbedTokenStore } from '../../src/adapters/storage/fs/fs-embed-tokens.js';
import { parseConfig } from '../../src/config.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const SELF = 'http://localhost';
const GOOD = 'http://127.0.0.1:5555';
const EVIL = 'http://127.0.0.1:6666';

describe('embedding: tokens and CORS', () => {
  let t: TestApp;
  let app: ReturnType<typeof createApp>;
  beforeEach(async () => {
    t = await makeTestApp();
    app = createApp({ ...t.deps, embed: { origins: [GOOD], tokens: new MemoryEmbedTokenStore() } });
  });
  afterEach(async () => t.close());

  const req = (method: string, path: string, o: { origin?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    app.request(SELF + path, {
      method,
      headers: {
        ...(o.origin ? { Origin: o.origin } : {}),
        ...(o.token ? { Authorization: `Bearer ${o.token}` } : {}),
        ...(o.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...o.headers,
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
  const mint = async (body: Record<string, unknown>) => {
    const res = await req('POST', '/api/embed/tokens', { body });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('mints an origin-bound token from a same-origin request, and lists it without its secret', async () => {
    const r = await mint({ origin: GOOD + '/', ttl_seconds: 600 });
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^hemb_[0-9a-f]{16}\.[0-9a-f]{64}$/);
    expect(r.body.origin).toBe(GOOD);
    expect(r.body.expires_at).toBeGreaterThan(Date.now() / 1000 + 500);
    const list = (await (await req('GET', '/api/embed/tokens')).json()) as any;
    expect(list.origins).toEqual([GOOD]);
    expect(list.tokens).toHaveLength(1);
    expect(list.tokens[0]).toMatchObject({ id: r.body.id, origin: GOOD, session_id: null, active: true, revoked_at: null });
    expect(JSON.stringify(list)).not.toContain(r.body.token.split('.')[1]);
    expect(list.tokens[0].secret_hash).toBeUndefined();
  });

  it('refuses tokens for origins not in the allowlist, bad ttl and unknown sessions', async () => {
    expect((await mint({ origin: EVIL })).status).toBe(400);
    expect((await mint({ origin: 'not a url' })).status).toBe(400);
    expect((await mint({ origin: GOOD, ttl_seconds: 5 })).status).toBe(400);
    expect((await mint({ origin: GOOD, session_id: 'abcdef123456' })).status).toBe(404);
  });

  it('never lets a foreign origin manage tokens, even with a valid token', async () => {
    const { body } = await mint({ origin: GOOD });
    for (const [method, path, b] of [
      ['POST', '/api/embed/tokens', { origin: GOOD }],
      ['GET', '/api/embed/tokens', undefined],
      ['POST', '/api/embed/tokens/revoke', { id: body.id }],
    ] as const) {
      const res = await req(method, path, { origin: GOOD, token: body.token, body: b });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await mint({ origin: GOOD })).status).toBe(200);
  });

  it('same-origin and Origin-less requests behave as before, with no CORS headers', async () => {
    const a = await req('GET', '/api/sessions');
    expect(a.status).toBe(200);
    expect(a.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const b = await req('POST', '/api/session/new', { origin: SELF, body: {} });
    expect(b.status).toBe(200);
    expect(b.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('answers 403 to an origin that is not allowlisted, token or not', async () => {
    const { body } = await mint({ origin: GOOD });
    for (const token of [undefined, body.token]) {
      const res = await req('GET', '/api/models', { origin: EVIL, token });
      expect(res.status).toBe(403);
      const { error } = (await res.json()) as { error: string };
      expect(error).toMatch(/^Cross-origin mismatch - check reverse proxy headers/);
      expect(error).toContain('HERMES_WEBUI_EMBED_ORIGINS');
      expect(res.headers.get('Access-Control-Allow-Origin')).not.toBe('*');
    }
    const pre = await req('OPTIONS', '/api/models', { origin: EVIL, headers: { 'Access-Control-Request-Method': 'GET' } });
    expect(pre.status).toBe(403);
    expect(pre.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('answers 401 to an allowlisted origin without a valid token', async () => {
    for (const token of [undefined, 'hemb_0000000000000000.' + '0'.repeat(64), 'garbage']) {
      const res = await req('GET', '/api/models', { origin: GOOD, token });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'A valid embed token is required' });
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe(GOOD);
    }
    // A token made for another origin does not work here.
    const t2 = createApp({ ...t.deps, embed: { origins: [GOOD, EVIL], tokens: new MemoryEmbedTokenStore() } });
    const minted = (await (
      await t2.request(SELF + '/api/embed/tokens', { method: 'POST', body: JSON.stringify({ origin: EVIL }), headers: { 'Content-Type': 'application/json' } })
    ).json()) as any;
    const res = await t2.request(SELF + '/api/models', { headers: { Origin: GOOD, Authorization: `Bearer ${minted.token}` } });
    expect(res.status).toBe(401);
  });

  it('answers preflights for allowlisted origins with methods and headers', async () => {
    const res = await req('OPTIONS', '/api/chat/start', {
      origin: GOOD,
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(GOOD);
    expect(res.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    const allowHeaders = res.headers.get('Access-Control-Allow-Headers')!.toLowerCase();
    for (const h of ['authorization', 'content-type', 'last-event-id']) expect(allowHeaders).toContain(h);
    expect(res.headers.get('Vary')).toContain('Origin');
  });

  it('lets a valid token in, naming the origin and varying on it; ?token= works too', async () => {
    const { body } = await mint({ origin: GOOD });
    const res = await req('POST', '/api/session/new', { origin: GOOD, token: body.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(GOOD);
    expect(res.headers.get('Vary')).toContain('Origin');
    const sid = ((await res.json()) as any).session.session_id;
    const q = await req('GET', `/api/session?session_id=${sid}&token=${encodeURIComponent(body.token)}`, { origin: GOOD });
    expect(q.status).toBe(200);
    const who = (await (await req('GET', `/api/embed/whoami?token=${encodeURIComponent(body.token)}`, { origin: GOOD })).json()) as any;
    expect(who).toMatchObject({ embedded: true, origin: GOOD, session_id: null });
    // Routes outside what the element needs stay closed.
    expect((await req('GET', '/api/sessions', { origin: GOOD, token: body.token })).status).toBe(403);
    expect((await req('GET', '/api/settings', { origin: GOOD, token: body.token })).status).toBe(403);
  });

  it('limits a session-bound token to its session', async () => {
    const mine = await t.newSession();
    const other = await t.newSession();
    const { body } = await mint({ origin: GOOD, session_id: mine });
    expect(body.session_id).toBe(mine);
    expect((await req('GET', `/api/session?session_id=${mine}`, { origin: GOOD, token: body.token })).status).toBe(200);
    expect((await req('GET', `/api/session?session_id=${other}`, { origin: GOOD, token: body.token })).status).toBe(401);
    expect((await req('GET', `/api/approval/pending?session_id=${other}`, { origin: GOOD, token: body.token })).status).toBe(401);
    expect((await req('POST', '/api/approval/respond', { origin: GOOD, token: body.token, body: { session_id: other, choice: 'deny' } })).status).toBe(401);
    expect((await req('POST', '/api/session/new', { origin: GOOD, token: body.token, body: {} })).status).toBe(403);
    const who = (await (await req('GET', '/api/embed/whoami', { origin: GOOD, token: body.token })).json()) as any;
    expect(who.session_id).toBe(mine);
  });

  it('revoked and expired tokens stop working', async () => {
    const { body } = await mint({ origin: GOOD });
    expect((await req('GET', '/api/models', { origin: GOOD, token: body.token })).status).toBe(200);
    const r = await req('POST', '/api/embed/tokens/revoke', { body: { id: body.id } });
    expect(r.status).toBe(200);
    expect((await req('GET', '/api/models', { origin: GOOD, token: body.token })).status).toBe(401);
    expect((await req('POST', '/api/embed/tokens/revoke', { body: { id: 'nope' } })).status).toBe(404);
    const list = (await (await req('GET', '/api/embed/tokens')).json()) as any;
    expect(list.tokens[0].active).toBe(false);

    let now = Date.now() / 1000;
    const clocked = createApp({ ...t.deps, clock: { now: () => now }, embed: { origins: [GOOD], tokens: new MemoryEmbedTokenStore() } });
    const minted = (await (
      await clocked.request(SELF + '/api/embed/tokens', {
        method: 'POST',
        body: JSON.stringify({ origin: GOOD, ttl_seconds: 60 }),
        headers: { 'Content-Type': 'application/json' },
      })
    ).json()) as any;
    const call = () => clocked.request(SELF + '/api/models', { headers: { Origin: GOOD, Authorization: `Bearer ${minted.token}` } });
    expect((await call()).status).toBe(200);
    now += 61;
    expect((await call()).status).toBe(401);
  });

  it('serves the embed bundle with CORS for allowlisted origins only', async () => {
    await mkdir(join(t.dir, 'public', 'embed'), { recursive: true });
    await writeFile(join(t.dir, 'public', 'embed', 'hermes-chat.js'), 'export {};');
    const ok = await req('GET', '/embed/hermes-chat.js', { origin: GOOD });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('Access-Control-Allow-Origin')).toBe(GOOD);
    const no = await req('GET', '/embed/hermes-chat.js', { origin: EVIL });
    expect(no.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const self = await req('GET', '/embed/hermes-chat.js');
    expect(self.status).toBe(200);
    // KaTeX's stylesheet and fonts, which an embedded reply with math loads from this server.
    await mkdir(join(t.dir, 'public', 'assets', 'katex'), { recursive: true });
    await writeFile(join(t.dir, 'public', 'assets', 'katex', 'katex.min.css'), '.katex{}');
    const css = await req('GET', '/assets/katex/katex.min.css', { origin: GOOD });
    expect(css.headers.get('Access-Control-Allow-Origin')).toBe(GOOD);
    expect((await req('GET', '/assets/katex/katex.min.css', { origin: EVIL })).status).toBe(403);
  });

  it('without embed configuration every foreign origin is refused and tokens cannot be made', async () => {
    const res = await t.app.request(SELF + '/api/models', { headers: { Origin: GOOD } });
    expect(res.status).toBe(403);
    // As the server answers without HERMES_WEBUI_EMBED_ORIGINS: the token store is there, the origin is not allowed.
    const mint = await t.call('POST', '/api/embed/tokens', { origin: GOOD });
    expect(mint.status).toBe(400);
    expect(mint.body.error).toMatch(/is not in HERMES_WEBUI_EMBED_ORIGINS/);
  });
});

describe('embedding: configuration and storage', () => {
  it('parses HERMES_WEBUI_EMBED_ORIGINS into normalised origins', () => {
    const c = parseConfig({ HERMES_WEBUI_EMBED_ORIGINS: 'https://Docs.Example.com/, http://127.0.0.1:5173,https://docs.example.com' }, { home: '/home/ada' });
    expect(c.embedOrigins).toEqual(['https://docs.example.com', 'http://127.0.0.1:5173']);
    expect(parseConfig({}, { home: '/home/ada' }).embedOrigins).toBeUndefined();
    expect(() => parseConfig({ HERMES_WEBUI_EMBED_ORIGINS: 'https://x.com/path' }, { home: '/h' })).toThrow(/HERMES_WEBUI_EMBED_ORIGINS/);
    expect(() => parseConfig({ HERMES_WEBUI_EMBED_ORIGINS: 'ftp://x.com' }, { home: '/h' })).toThrow(/not an origin/);
  });

  it('the fs store keeps tokens in <state>/embed_tokens.json with hashed secrets, across restarts', async () => {
    const t = await makeTestApp();
    try {
      const app = createApp({ ...t.deps, embed: { origins: [GOOD], tokens: new FsEmbedTokenStore(t.stateDir) } });
      const minted = (await (
        await app.request(SELF + '/api/embed/tokens', {
          method: 'POST',
          body: JSON.stringify({ origin: GOOD }),
          headers: { 'Content-Type': 'application/json' },
        })
      ).json()) as any;
      const text = await readFile(join(t.stateDir, 'embed_tokens.json'), 'utf8');
      expect(text).toContain(minted.id);
      expect(text).not.toContain(minted.token.split('.')[1]);
      const again = createApp({ ...t.deps, embed: { origins: [GOOD], tokens: new FsEmbedTokenStore(t.stateDir) } });
      expect((await again.request(SELF + '/api/models', { headers: { Origin: GOOD, Authorization: `Bearer ${minted.token}` } })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
