import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { parseFrames, type Frame } from '../helpers/sse.js';
import { liveHub } from '../../src/routes/live-events.js';
import { LiveHub } from '../../src/runs/live-hub.js';
import { AppEvents } from '../../src/runs/app-events.js';
import { directLiveStreams } from '../../src/entry/node-live.js';

/** One SSE connection over real HTTP, read in the background: frames, raw text, and a way to wait. */
interface Listener {
  frames: Frame[];
  text: () => string;
  status: number;
  waitFor(match: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): void;
}

async function listen(url: string, headers: Record<string, string> = {}): Promise<Listener> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const frames: Frame[] = [];
  let raw = '';
  let buffer = '';
  const waiters = new Set<() => void>();
  const reading = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        raw += chunk;
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          frames.push(...parseFrames(buffer.slice(0, at + 2)));
          buffer = buffer.slice(at + 2);
        }
        for (const w of waiters) w();
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    frames,
    text: () => raw,
    status: res.status,
    async waitFor(match, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = frames.find(match);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(frames)}`);
        await new Promise<void>((resolve) => {
          const done = () => {
            waiters.delete(done);
            resolve();
          };
          waiters.add(done);
          setTimeout(done, 50);
        });
      }
    },
    close() {
      abort.abort();
      void reading;
    },
  };
}

// Every case twice: the web stream through the adapter (Workers, tests' app.fetch) and the Node
// entry's direct path (production), which must keep the same frames, middleware and cleanup.
describe.each([
  ['through the adapter', false],
  ['written directly by the Node entry', true],
] as const)('live sync: /api/sessions/events and /api/session/stream, %s', (_name, direct) => {
  let t: ChatHarness;
  let server: ServerType | null = null;
  let base = '';
  const open: Listener[] = [];

  async function start() {
    t = await makeChatApp();
    server = serve({ fetch: direct ? directLiveStreams(t.app.fetch) : t.app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const connect = async (path: string, headers?: Record<string, string>) => {
    const l = await listen(`${base}${path}`, headers);
    open.push(l);
    return l;
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base, ...headers }, body: JSON.stringify(body) });
  const changes = (l: Listener) => l.frames.filter((f) => f.event === 'sessions_changed').map((f) => f.data);
  const until = async (check: () => boolean, ms = 3000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  afterEach(async () => {
    for (const l of open.splice(0)) l.close();
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    await t?.close();
  });

  it('a new session, a rename, a pin and a delete each reach a listener with their reason, within the window', async () => {
    await start();
    const l = await connect('/api/sessions/events');
    expect(l.status).toBe(200);
    const sid = await t.newSession();
    const created = await l.waitFor((f) => f.data?.reason === 'session_new');
    expect(created.data).toEqual({ type: 'sessions_changed', reason: 'session_new', session_id: sid, profile: 'default' });
    expect(created.id).toMatch(/^[0-9a-z]+:\d+$/);
    expect(l.text()).toMatch(/^retry: \d+\n\n/);

    for (const [path, body, reason] of [
      ['/api/session/rename', { session_id: sid, title: 'Renamed' }, 'session_rename'],
      ['/api/session/pin', { session_id: sid, pinned: true }, 'session_pin'],
      ['/api/session/delete', { session_id: sid }, 'session_delete'],
    ] as const) {
      const sent = Date.now();
      expect((await post(path, body)).status).toBe(200);
      await l.waitFor((f) => f.data?.reason === reason && f.data?.session_id === sid);
      // The first change of a kind goes at once; the coalescing window only holds repeats.
      expect(Date.now() - sent).toBeLessThan(1000);
    }
  });

  it('turn-internal writes do not emit; a burst of renames is coalesced and its last one still arrives', async () => {
    await start();
    const sid = await t.newSession();
    const l = await connect('/api/sessions/events');
    await t.deps.sessions.update(sid, { input_tokens: 5, output_tokens: 7, estimated_cost: 0.1 });
    await t.deps.sessions.appendMessages(sid, [{ role: 'assistant', content: 'x' }], { input_tokens: 9 });
    for (let i = 0; i < 20; i++) await t.deps.sessions.update(sid, { title: `T${i}` });
    await until(() => changes(l).length >= 2);
    await new Promise((r) => setTimeout(r, 250));
    const got = changes(l);
    expect(got.every((c) => c.reason === 'session_rename')).toBe(true);
    expect(got.length).toBeLessThanOrEqual(3);
  });

  it('a listener hears its own profile and profile-less changes, not another profile', async () => {
    await start();
    expect((await post('/api/profile/create', { name: 'work' })).status).toBe(200);
    const work = await connect('/api/sessions/events', { Cookie: 'hermes_profile=work' });
    const dflt = await connect('/api/sessions/events');
    const r = await post('/api/session/new', {}, { Cookie: 'hermes_profile=work' });
    const workSid = (await r.json()).session.session_id;
    await work.waitFor((f) => f.data?.session_id === workSid);
    const defaultSid = await t.newSession();
    await dflt.waitFor((f) => f.data?.session_id === defaultSid);
    // Profile-less: everyone.
    t.deps.events.emit({ type: 'sessions_changed', reason: 'session_move' });
    await work.waitFor((f) => f.data?.reason === 'session_move');
    await dflt.waitFor((f) => f.data?.reason === 'session_move');
    expect(changes(dflt).some((c) => c.session_id === workSid)).toBe(false);
    expect(changes(work).some((c) => c.session_id === defaultSid)).toBe(false);
    expect(changes(work).find((c) => c.session_id === workSid)!.profile).toBe('work');
  });

  it('a reconnect with Last-Event-ID replays the missed changes; a foreign id replays nothing', async () => {
    await start();
    const first = await connect('/api/sessions/events');
    const a = await t.newSession();
    const seen = await first.waitFor((f) => f.data?.session_id === a);
    first.close();
    const b = await t.newSession();
    await t.call('POST', '/api/session/rename', { session_id: b, title: 'B' });
    const again = await connect('/api/sessions/events', { 'Last-Event-ID': seen.id! });
    await again.waitFor((f) => f.data?.session_id === b && f.data?.reason === 'session_rename');
    expect(changes(again).map((c) => [c.reason, c.session_id])).toEqual([
      ['session_new', b],
      ['session_rename', b],
    ]);
    const foreign = await connect('/api/sessions/events', { 'Last-Event-ID': 'otherboot:1' });
    await new Promise((r) => setTimeout(r, 100));
    expect(changes(foreign)).toEqual([]);
  });

  it('a turn started via /api/chat/start shows on that session’s stream, and its end as session-updated', async () => {
    await start();
    const sid = await t.newSession();
    const s = await connect(`/api/session/stream?session_id=${sid}&known_count=0`);
    const list = await connect('/api/sessions/events');
    await s.waitFor((f) => f.event === 'initial');
    expect(s.frames[0]).toMatchObject({ event: 'initial', data: { session_id: sid } });
    t.model.enqueue([{ text: 'hello' }, { finish: 'stop' }]);
    const { stream_id } = (await t.start(sid, 'hi')).body;
    const started = await s.waitFor((f) => f.event === 'server_turn_started');
    expect(started.data).toMatchObject({ session_id: sid, stream_id, source: 'webui' });
    expect(started.data.recovered).toBeUndefined();
    const updated = await s.waitFor((f) => f.event === 'session-updated');
    expect(updated.data).toEqual({ session_id: sid, message_count: 2 });
    await list.waitFor((f) => f.data?.reason === 'turn_started' && f.data?.session_id === sid);
    await list.waitFor((f) => f.data?.reason === 'turn_finished' && f.data?.session_id === sid);
  });

  it('subscribing during a run replays server_turn_started with recovered:true; a stale known_count gets session-updated', async () => {
    await start();
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'slow' }, { delayMs: 600 }, { text: ' done' }, { finish: 'stop' }]);
    const { stream_id } = (await t.start(sid, 'hi')).body;
    const s = await connect(`/api/session/stream?session_id=${sid}&known_count=0`);
    const replay = await s.waitFor((f) => f.event === 'server_turn_started');
    expect(replay.data).toMatchObject({ session_id: sid, stream_id, recovered: true });
    await s.waitFor((f) => f.event === 'session-updated');
    const late = await connect(`/api/session/stream?session_id=${sid}&known_count=1`);
    const behind = await late.waitFor((f) => f.event === 'session-updated');
    expect(behind.data).toMatchObject({ session_id: sid, message_count: 2, known_count: 1 });
    const current = await connect(`/api/session/stream?session_id=${sid}&known_count=2`);
    await current.waitFor((f) => f.event === 'initial');
    await new Promise((r) => setTimeout(r, 100));
    expect(current.frames.map((f) => f.event)).toEqual(['initial']);
  });

  it('answers bad input with {"error"}: no session id, an unknown session', async () => {
    await start();
    const missing = await fetch(`${base}/api/session/stream`);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toHaveProperty('error');
    const unknown = await fetch(`${base}/api/session/stream?session_id=nosuchsession`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Session not found' });
  });

  it('the answer carries what the middleware set (event-stream type, no-cache, nosniff, the log line)', async () => {
    await start();
    const res = await fetch(`${base}/api/sessions/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-hono-already-sent')).toBeNull();
    await res.body?.cancel();
  });

  it('closed clients leave nothing behind: no hub client, no bus listener', async () => {
    await start();
    const sid = await t.newSession();
    const hub = liveHub(t.deps);
    const busBase = t.deps.events.listenerCount;
    expect(hub.clientCount).toBe(0);
    const ls = await Promise.all([connect('/api/sessions/events'), connect(`/api/session/stream?session_id=${sid}`), connect('/api/sessions/events')]);
    await until(() => hub.clientCount === 3);
    for (const l of ls) l.close();
    await until(() => hub.clientCount === 0);
    expect(t.deps.events.listenerCount).toBe(busBase);
  });
});

describe('LiveHub heartbeat', () => {
  it('one timer sends a keepalive comment to every client, and stops with the last one', async () => {
    const events = new AppEvents();
    const hub = new LiveHub({ events, messageCount: async () => 0, heartbeatMs: 20 });
    const got: string[][] = [[], []];
    const decoder = new TextDecoder();
    const offA = hub.addListClient({ send: (b) => got[0]!.push(decoder.decode(b)) }, 'default', undefined);
    const offB = hub.addSessionClient('s1', { send: (b) => got[1]!.push(decoder.decode(b)) });
    await new Promise((r) => setTimeout(r, 70));
    expect(got[0]!.filter((s) => s === ': keepalive\n\n').length).toBeGreaterThanOrEqual(2);
    expect(got[1]!.filter((s) => s === ': keepalive\n\n').length).toBeGreaterThanOrEqual(2);
    offA();
    offB();
    const before = got[0]!.length + got[1]!.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(got[0]!.length + got[1]!.length).toBe(before);
  });
});
