import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../helpers/workerd.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import type { ScriptedAudio } from '../fixtures/scripted-openai-audio.js';
import { readStream as readFrames, seqs, type Frame } from '../helpers/sse.js';
import { parseRunEvent } from '../../src/shared/run-events.js';
import { isTitleRequest } from '../helpers/chat.js';

/** Reads a stream like readFrames, and checks every event against the run-event contract (live, or replayed from the DO journal). */
async function readStream(...args: Parameters<typeof readFrames>): Promise<Frame[]> {
  const frames = await readFrames(...args);
  expect(frames.map((f) => parseRunEvent(f.event, f.data)).filter((r) => !r.ok)).toEqual([]);
  return frames;
}

/** The same app on real workerd (wrangler dev): D1 storage, a Durable Object per session. */
describe('on workerd (wrangler dev)', () => {
  let worker: RunningWorker;
  let model: ScriptedServer & { audio: ScriptedAudio };
  let cookie = '';
  let csrf = '';
  const PASSWORD = 'workers password';
  let vars: Record<string, string> = {};

  beforeAll(async () => {
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'Edge title' }] : undefined));
    vars = {
      HERMES_WEBUI_PASSWORD: PASSWORD,
      HERMES_WEBUI_PROVIDER: 'custom',
      HERMES_WEBUI_BASE_URL: model.url,
      HERMES_WEBUI_DEFAULT_MODEL: 'scripted-model',
      HERMES_WEBUI_EMBED_ORIGINS: 'https://docs.example.com',
      // Speech-to-text through Hermes' environment names (Workers have no config.yaml on disk).
      STT_OPENAI_BASE_URL: model.url,
      VOICE_TOOLS_OPENAI_KEY: 'sk-voice-workers',
    };
    worker = await startWorker(vars);
    const login = await fetch(worker.url + '/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ password: PASSWORD }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(login.status).toBe(200);
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    csrf = ((await (await fetch(worker.url + '/api/auth/status', { headers: { Cookie: cookie } })).json()) as { csrf_token: string }).csrf_token;
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(worker.url + path, {
      method,
      headers: { Cookie: cookie, 'Content-Type': 'application/json', Origin: worker.url, 'X-Hermes-CSRF-Token': csrf },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: any = text;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: json, res };
  };
  const stream = (streamId: string, headers: Record<string, string> = {}) =>
    fetch(`${worker.url}/api/chat/stream?stream_id=${streamId}`, { headers: { Cookie: cookie, ...headers } });

  it('serves health, the security headers, the sign-in rules and the front end with Node caching rules', async () => {
    const health = await fetch(worker.url + '/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(health.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(worker.url + '/api/sessions')).status).toBe(401);
    const page = await fetch(worker.url + '/', { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/login?next=%2F');
    const shell = await fetch(worker.url + '/login');
    expect(shell.status).toBe(200);
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    const html = await shell.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const js = await fetch(worker.url + asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Cross-site changes are refused as on Node.
    const evil = await fetch(worker.url + '/api/session/new', {
      method: 'POST',
      body: '{}',
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'Content-Type': 'application/json' },
    });
    expect(evil.status).toBe(403);
  });

  it('keeps sessions, settings and projects in D1, and says files are not available here', async () => {
    const created = await api('POST', '/api/session/new', {});
    expect(created.status).toBe(200);
    const sid = created.body.session.session_id as string;
    expect((await api('POST', '/api/session/rename', { session_id: sid, title: 'On the edge' })).status).toBe(200);
    const list = await api('GET', '/api/sessions');
    expect(list.body.sessions.map((s: any) => s.title)).toContain('On the edge');
    const settings = await api('POST', '/api/settings', { theme: 'light' });
    expect(settings.body).toMatchObject({ theme: 'light', features: { files: false }, auth_enabled: true });
    const project = await api('POST', '/api/projects/create', { name: 'Edge', color: null });
    expect(project.status).toBe(200);
    const files = await api('GET', `/api/list?session_id=${sid}&path=`);
    expect(files.status).toBe(501);
    expect(files.body).toMatchObject({ unavailable: true, error: expect.stringMatching(/Files are not available on this deployment/) });
    // Folder zips (and uploads into the workspace, archive extraction) need a file system too.
    const zip = await api('GET', `/api/folder/download?session_id=${sid}&path=`);
    expect(zip.status).toBe(501);
    expect(zip.body).toMatchObject({ unavailable: true, error: expect.stringMatching(/Files are not available on this deployment/) });
    const media = await api('GET', `/api/media?session_id=${sid}&path=chart.png`);
    expect(media.status).toBe(501);
    expect(media.body).toMatchObject({ unavailable: true, error: expect.stringMatching(/Media files are not available/) });
    // No shell on the edge: the terminal says why.
    const terminal = await api('POST', '/api/terminal/start', { session_id: sid, rows: 24, cols: 80 });
    expect(terminal.status).toBe(501);
    expect(terminal.body).toMatchObject({ unavailable: true, error: expect.stringMatching(/Cloudflare Workers/) });
    // Saved prompts live in a file of the Hermes home, host metrics need a host: both say why.
    for (const path of ['/api/prompts', '/api/system/health']) {
      const r = await api('GET', path);
      expect(r.status).toBe(501);
      expect(r.body).toMatchObject({ unavailable: true, error: expect.stringMatching(/Cloudflare Workers/) });
    }
    const models = await api('GET', '/api/models');
    expect(models.body.groups[0].models.map((m: any) => m.id)).toContain('scripted-model');
  });

  it('transcribes a recording through the configured OpenAI-compatible endpoint (fetch only, as on Node)', async () => {
    expect((await api('GET', '/api/transcribe/capability')).body).toEqual({ ok: true, available: true, provider: 'openai' });
    model.audio.setTranscript('spoken on the edge');
    const form = new FormData();
    form.set('file', new File([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2])], 'clip.webm', { type: 'audio/webm' }));
    const res = await fetch(worker.url + '/api/transcribe', {
      method: 'POST',
      body: form,
      headers: { Cookie: cookie, Origin: worker.url, 'X-Hermes-CSRF-Token': csrf },
    });
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer).toEqual({ ok: true, transcript: 'spoken on the edge' });
    expect(model.audio.transcriptions.at(-1)).toMatchObject({ model: 'whisper-1', file: { name: 'clip.webm' } });
    expect(model.audio.transcriptions.at(-1)!.headers.authorization).toBe('Bearer sk-voice-workers');
  });

  it('has one profile, default, and says so when asked for another', async () => {
    const list = await api('GET', '/api/profiles');
    expect(list.body).toMatchObject({ active: 'default', single_profile_mode: true });
    expect(list.body.profiles.map((p: any) => p.name)).toEqual(['default']);
    expect((await api('GET', '/api/profile/active')).body).toMatchObject({ name: 'default', is_default: true, multi_profile: false });
    const create = await api('POST', '/api/profile/create', { name: 'work' });
    expect(create.status).toBe(501);
    expect(create.body.error).toMatch(/one profile/);
    expect((await api('POST', '/api/profile/switch', { name: 'work' })).status).toBe(404);
    expect((await api('POST', '/api/profile/delete', { name: 'work' })).status).toBe(501);
    expect((await api('GET', '/api/sessions')).body).toMatchObject({ active_profile: 'default', all_profiles: false });
  });

  /** Queues the model's answers (one script per model call, in order) and starts a turn. */
  it('answers the session, project, workspace, search, export and embed-token API as on Node', async () => {
    const sid = (await api('POST', '/api/session/new', {})).body.session.session_id as string;
    const other = (await api('POST', '/api/session/new', {})).body.session.session_id as string;
    expect((await api('POST', '/api/session/rename', { session_id: sid, title: 'Searchable edge title' })).status).toBe(200);
    expect((await api('POST', '/api/session/pin', { session_id: sid, pinned: true })).body.session.pinned).toBe(true);
    const project = (await api('POST', '/api/projects/create', { name: 'Edge work', color: '#88aacc' })).body.project;
    expect((await api('POST', '/api/session/move', { session_id: sid, project_id: project.project_id })).body.session.project_id).toBe(project.project_id);
    expect((await api('POST', '/api/projects/rename', { project_id: project.project_id, name: 'Edge' })).body.project.name).toBe('Edge');
    const found = await api('GET', '/api/sessions/search?q=searchable');
    expect(found.body.sessions.map((r: any) => r.session_id)).toEqual([sid]);
    const exported = await api('GET', `/api/session/export?session_id=${sid}&format=json`);
    expect(exported.status).toBe(200);
    expect(JSON.parse(typeof exported.body === 'string' ? exported.body : JSON.stringify(exported.body)).title ?? exported.body.session?.title).toBeTruthy();
    const dup = await api('POST', '/api/session/duplicate', { session_id: sid });
    expect(dup.status).toBe(200);
    expect((await api('POST', '/api/session/archive', { session_id: other, archived: true })).body.session.archived).toBe(true);
    const list = await api('GET', '/api/sessions');
    expect(list.body.sessions.map((r: any) => r.session_id)).not.toContain(other);
    expect((await api('GET', '/api/sessions?include_archived=1')).body.sessions.map((r: any) => r.session_id)).toContain(other);
    // ETag revalidation works through D1's revision.
    const etag = list.res.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await fetch(worker.url + '/api/sessions', { headers: { Cookie: cookie, 'If-None-Match': etag! } })).status).toBe(304);
    expect((await api('POST', '/api/projects/delete', { project_id: project.project_id })).status).toBe(200);
    expect((await api('GET', `/api/session?session_id=${sid}`)).body.session.project_id).toBeNull();
    expect((await api('POST', '/api/session/delete', { session_id: dup.body.session.session_id })).status).toBe(200);
    expect((await api('GET', '/api/workspaces')).status).toBe(200);
    const token = await api('POST', '/api/embed/tokens', { origin: 'https://docs.example.com', ttl_seconds: 600 });
    expect(token.status).toBe(200);
    expect((await api('GET', '/api/embed/tokens')).body.tokens.length).toBe(1);
    expect((await api('POST', '/api/embed/tokens/revoke', { id: token.body.id })).status).toBe(200);
    // Bad input: the same zod errors.
    expect((await api('POST', '/api/session/rename', { session_id: '../x', title: 1 })).status).toBe(400);
    expect((await api('GET', '/api/session?session_id=ffffffffffff')).status).toBe(404);
  });

  async function startTurn(...scripts: Parameters<ScriptedServer['enqueue']>) {
    const message = 'hello edge';
    model.enqueue(...scripts);
    const sid = (await api('POST', '/api/session/new', {})).body.session.session_id as string;
    const start = await api('POST', '/api/chat/start', { session_id: sid, message });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    return { sid, streamId: start.body.stream_id as string };
  }

  it('streams a turn from the session Durable Object, stored in D1', async () => {
    const { sid, streamId } = await startTurn([{ text: 'Hello ' }, { text: 'from workerd' }]);
    const frames = await readStream(await stream(streamId), { timeoutMs: 20_000 });
    const events = frames.map((f) => f.event);
    expect(events).toContain('token');
    expect(events).toContain('done');
    expect(
      frames
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('Hello from workerd');
    expect(frames.every((f) => !f.id || f.id.startsWith(`${streamId}:`))).toBe(true);
    const session = await api('GET', `/api/session?session_id=${sid}`);
    expect(session.body.session.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Hello from workerd' });
  });

  it('resumes with Last-Event-ID after a dropped connection, without repeats or gaps', async () => {
    const words = Array.from({ length: 12 }, (_, i) => `w${i} `);
    const { streamId } = await startTurn(words.flatMap((w) => [{ text: w }, { delayMs: 60 }]));
    const first = await readStream(await stream(streamId), { until: (f) => f.event === 'token' && f.data.text === 'w3 ' });
    const lastId = first.filter((f) => f.id).at(-1)!.id!;
    const rest = await readStream(await stream(streamId, { 'Last-Event-ID': lastId }), { timeoutMs: 20_000 });
    const all = [...seqs(first), ...seqs(rest)];
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => all[0]! + i));
    const text = [...first, ...rest]
      .filter((f) => f.event === 'token')
      .map((f) => f.data.text)
      .join('');
    expect(text).toBe(words.join(''));
  });

  it('fans one run out to two watchers, and finishes when every watcher has gone', async () => {
    const { sid, streamId } = await startTurn([{ text: 'one ' }, { delayMs: 150 }, { text: 'two ' }, { delayMs: 150 }, { text: 'three' }]);
    const [a, b] = await Promise.all([readStream(await stream(streamId)), readStream(await stream(streamId))]);
    const shape = (fs: Frame[]) => fs.map((f) => `${f.id}:${f.event}`);
    expect(shape(a)).toEqual(shape(b));
    expect(a.at(-1)?.event).toBe('stream_end');

    // Everyone leaves after the first token; the turn still completes.
    const next = await startTurn([{ text: 'alone ' }, { delayMs: 400 }, { text: 'in the dark' }]);
    await readStream(await stream(next.streamId), { until: (f) => f.event === 'token' });
    await expect
      .poll(async () => (await api('GET', `/api/session?session_id=${next.sid}`)).body.session.messages.at(-1)?.content, { timeout: 15_000 })
      .toBe('alone in the dark');
    expect(sid).not.toBe(next.sid);
  });

  it('asks a clarifying question and continues with the answer; cancel stops a turn', async () => {
    const { sid, streamId } = await startTurn(
      [{ toolCall: { id: 'q', name: 'clarify', args: { question: 'Which colour?', choices: ['red', 'blue'] } } }],
      [{ text: 'Thanks, going with blue.' }],
    );
    const frames = await readStream(await stream(streamId), {
      timeoutMs: 20_000,
      onFrame: async (f) => {
        if (f.event === 'clarify') expect((await api('POST', '/api/clarify/respond', { session_id: sid, response: 'blue' })).status).toBe(200);
      },
    });
    expect(frames.map((f) => f.event)).toContain('clarify');
    expect(
      frames
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toContain('going with blue');

    const slow = await startTurn([{ text: 'never ' }, { delayMs: 5000 }, { text: 'finished' }]);
    await readStream(await stream(slow.streamId), { until: (f) => f.event === 'token' });
    expect((await api('POST', '/api/chat/cancel', { stream_id: slow.streamId })).status).toBe(200);
    const after = await readStream(await stream(slow.streamId), { timeoutMs: 10_000 });
    expect(after.map((f) => f.event)).toContain('cancel');
  });

  it('closes a turn whose Durable Object died mid-run (workerd killed), and the session takes new messages', async () => {
    const { sid, streamId } = await startTurn([{ text: 'half ' }, { delayMs: 20_000 }, { text: 'never arrives' }]);
    const seen = await readStream(await stream(streamId), { until: (f) => f.event === 'token' });
    await worker.stop({ kill: true, keepState: true });
    worker = await startWorker(vars, { persist: worker.persist });
    // The first request to the session's object starts it again; it closes the dead turn first.
    const replay = await readStream(await stream(streamId), { timeoutMs: 20_000 });
    // Every event the client saw was stored before it was sent; the closing one comes after them, under a new id.
    expect(replay.slice(0, seen.length)).toEqual(seen);
    expect(replay.map((f) => f.event).slice(seen.length)).toEqual(['apperror']);
    expect(replay.find((f) => f.event === 'apperror')?.data).toMatchObject({ type: 'interrupted' });
    const session = (await api('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(session.active_stream_id).toBeNull();
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', _interrupted: true });
    model.clear();
    model.enqueue([{ text: 'back' }]);
    const next = await api('POST', '/api/chat/start', { session_id: sid, message: 'again' });
    expect(next.status).toBe(200);
    const frames = await readStream(await stream(next.body.stream_id), { timeoutMs: 20_000 });
    expect(frames.map((f) => f.event)).toContain('done');
  }, 90_000);

  it('remembers with the memory tool (kept in D1) and offers no shell or file tools', async () => {
    const { streamId } = await startTurn(
      [{ toolCall: { id: 'm', name: 'memory', args: { action: 'add', target: 'memory', content: 'The user likes the edge.' } } }],
      [{ text: 'Noted.' }],
    );
    const frames = await readStream(await stream(streamId), { timeoutMs: 20_000 });
    expect(frames.find((f) => f.event === 'tool_complete')?.data).toBeTruthy();
    const request = model.requests.filter((r) => !isTitleRequest(r)).at(-1)!;
    const tools = (request.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name).sort();
    expect(tools).toEqual(['clarify', 'memory', 'session_search', 'todo']);
    // The next turn's system prompt carries the memory.
    const again = await startTurn([{ text: 'ok' }]);
    await readStream(await stream(again.streamId), { timeoutMs: 20_000 });
    const prompt = JSON.stringify(model.requests.filter((r) => !isTitleRequest(r)).at(-1)!.body.messages[0]);
    expect(prompt).toContain('The user likes the edge.');
  });
});

describe('on workerd without a password', () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await startWorker({ HERMES_WEBUI_PROVIDER: 'custom', HERMES_WEBUI_BASE_URL: 'http://127.0.0.1:1/v1', HERMES_WEBUI_DEFAULT_MODEL: 'm' });
  }, 90_000);
  afterAll(async () => worker?.stop());

  it('serves nothing but /health, and says how to set one', async () => {
    expect((await fetch(worker.url + '/health')).status).toBe(200);
    for (const path of ['/', '/api/sessions', '/login']) {
      const res = await fetch(worker.url + path, { redirect: 'manual' });
      expect(res.status, path).toBe(503);
      expect(((await res.json()) as { error: string }).error).toContain('wrangler secret put HERMES_WEBUI_PASSWORD');
    }
  });
});
