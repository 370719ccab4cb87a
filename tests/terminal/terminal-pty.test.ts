import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { readStream, type Frame } from '../helpers/sse.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const output = (t: TestApp, sid: string, lastId?: number) =>
  t.app.request(`/api/terminal/output?session_id=${sid}`, lastId === undefined ? {} : { headers: { 'Last-Event-ID': String(lastId) } });

const text = (frames: Frame[]) =>
  frames
    .filter((f) => f.event === 'output')
    .map((f) => f.data.text)
    .join('');

/** Reads the stream until its output so far contains `needle` (the shell is real: prompts and echoes come first). */
async function readUntil(res: Response, needle: string): Promise<Frame[]> {
  let seen = '';
  return readStream(res, {
    until: (f) => {
      if (f.event === 'output') seen += f.data.text;
      return seen.includes(needle) || f.event !== 'output';
    },
  });
}

async function start(t: TestApp, body: Record<string, unknown> = {}) {
  const sid = await t.newSession();
  const r = await t.call('POST', '/api/terminal/start', { session_id: sid, rows: 24, cols: 80, ...body });
  expect(r.status).toBe(200);
  return { sid, start: r.body };
}

describe('the embedded terminal, on a real PTY through the app', () => {
  it('runs the shell in the session workspace and echoes what is typed', async () => {
    t = await makeTestApp();
    const { sid, start: s } = await start(t);
    expect(s).toMatchObject({ ok: true, session_id: sid, running: true, workspace: t.workspace, engine: 'node-pty' });
    const res = await output(t, sid);
    expect(res.headers.get('Content-Type')).toContain('text/event-stream');
    expect((await t.call('POST', '/api/terminal/input', { session_id: sid, data: 'echo hi-$((40+2)); pwd\n' })).body).toEqual({ ok: true });
    const frames = await readUntil(res, t.workspace);
    expect(text(frames)).toContain('hi-42');
    expect(text(frames)).toContain(t.workspace);
    // Numeric, increasing ids: what EventSource sends back as Last-Event-ID.
    const ids = frames.map((f) => Number(f.id));
    expect(ids.every((n, i) => Number.isInteger(n) && (i === 0 || n > ids[i - 1]!))).toBe(true);
  });

  it('resizes the window (stty size shows it) and reports the exit code when the shell ends', async () => {
    t = await makeTestApp();
    const { sid } = await start(t);
    const resized = await t.call('POST', '/api/terminal/resize', { session_id: sid, rows: 33, cols: 111 });
    expect(resized.body).toEqual({ ok: true, rows: 33, cols: 111 });
    const res = await output(t, sid);
    await t.call('POST', '/api/terminal/input', { session_id: sid, data: 'echo "size=$(stty size)"\n' });
    expect(text(await readUntil(res, 'size=33 111'))).toContain('size=33 111');
    const res2 = await output(t, sid);
    await t.call('POST', '/api/terminal/input', { session_id: sid, data: 'exit 7\n' });
    const frames = await readStream(res2);
    expect(frames.at(-1)).toMatchObject({ event: 'terminal_closed', data: { exit_code: 7 } });
    // Retired: typing into it now is a 404.
    expect((await t.call('POST', '/api/terminal/input', { session_id: sid, data: 'x' })).status).toBe(404);
  });

  it('replays only newer output to a stream that comes back with Last-Event-ID', async () => {
    t = await makeTestApp();
    const { sid } = await start(t);
    await t.call('POST', '/api/terminal/input', { session_id: sid, data: 'echo first-$((1+1))\n' });
    const before = await readUntil(await output(t, sid), 'first-2');
    const lastId = Number(before.at(-1)!.id);
    await t.call('POST', '/api/terminal/input', { session_id: sid, data: 'echo second-$((2+1))\n' });
    // A fresh viewer gets the whole backlog; a returning one only what came after its id.
    const fresh = await readUntil(await output(t, sid), 'second-3');
    expect(text(fresh)).toContain('first-2');
    const back = await readUntil(await output(t, sid, lastId), 'second-3');
    expect(back.every((f) => Number(f.id) > lastId)).toBe(true);
    expect(text(back)).toContain('second-3');
    expect(text(back)).not.toContain('first-2');
  });

  it('keeps one shell per session, restarts it on request, and closes it', async () => {
    t = await makeTestApp();
    const { sid } = await start(t);
    const pid = t.deps.terminals!.get(sid)!.proc.pid;
    await t.call('POST', '/api/terminal/start', { session_id: sid });
    expect(t.deps.terminals!.get(sid)!.proc.pid).toBe(pid);
    await t.call('POST', '/api/terminal/start', { session_id: sid, restart: true });
    expect(t.deps.terminals!.get(sid)!.proc.pid).not.toBe(pid);
    expect((await t.call('POST', '/api/terminal/close', { session_id: sid })).body).toEqual({ ok: true, closed: true });
    expect((await t.call('POST', '/api/terminal/close', { session_id: sid })).body).toEqual({ ok: true, closed: false });
    expect((await output(t, sid)).status).toBe(404);
  });

  it('refuses a 33rd terminal and input over 8,192 characters', async () => {
    t = await makeTestApp();
    const sids: string[] = [];
    for (let i = 0; i < 32; i++) sids.push((await start(t)).sid);
    expect(t.deps.terminals!.count).toBe(32);
    const extra = await t.newSession();
    const refused = await t.call('POST', '/api/terminal/start', { session_id: extra });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/Too many terminals/);
    // An existing one still restarts in place.
    expect((await t.call('POST', '/api/terminal/start', { session_id: sids[0], restart: true })).status).toBe(200);
    const big = await t.call('POST', '/api/terminal/input', { session_id: sids[0], data: 'x'.repeat(8193) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'input too large' });
    expect((await t.call('POST', '/api/terminal/input', { session_id: sids[0], data: 'x'.repeat(8192) })).status).toBe(200);
  });

  it('closes a terminal nobody watches once the grace is over, but not a watched one', async () => {
    t = await makeTestApp({ terminal: { idleMs: 300, reapEveryMs: 50 } });
    const watched = await start(t);
    const res = await output(t, watched.sid);
    const reader = res.body!.getReader();
    const { sid } = await start(t);
    await expect.poll(() => t!.deps.terminals!.get(sid)).toBeUndefined();
    expect(t.deps.terminals!.get(watched.sid)).toBeDefined();
    await reader.cancel();
    await expect.poll(() => t!.deps.terminals!.get(watched.sid)).toBeUndefined();
  });

  it('sends heartbeats on a quiet stream', async () => {
    t = await makeTestApp({ terminal: { heartbeatMs: 50 } });
    const { sid } = await start(t);
    const reader = (await output(t, sid)).body!.getReader();
    const decoder = new TextDecoder();
    let got = '';
    while (!got.includes(': heartbeat')) {
      const next = await reader.read();
      if (next.done) break;
      got += decoder.decode(next.value);
    }
    expect(got).toContain(': heartbeat');
    await reader.cancel();
  });

  it('kills the session terminal when the session is deleted', async () => {
    t = await makeTestApp();
    const { sid } = await start(t);
    const term = t.deps.terminals!.get(sid)!;
    const exited = new Promise<void>((resolve) => term.onExit(resolve));
    expect((await t.call('POST', '/api/session/delete', { session_id: sid })).status).toBe(200);
    await exited;
    expect(t.deps.terminals!.count).toBe(0);
  });

  it('validates: unknown session 404, bad body 400', async () => {
    t = await makeTestApp();
    expect((await t.call('POST', '/api/terminal/start', { session_id: 'nope123' })).status).toBe(404);
    expect((await t.call('POST', '/api/terminal/start', {})).body).toEqual({ error: 'session_id is required' });
    expect((await t.call('POST', '/api/terminal/resize', { session_id: 'abc', rows: 'x', cols: 3 })).status).toBe(400);
  });
});
