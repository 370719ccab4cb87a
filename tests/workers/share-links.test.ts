import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../helpers/workerd.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { readStream } from '../helpers/sse.js';
import { isTitleRequest } from '../helpers/chat.js';
import { KEY, leaked } from '../helpers/secrets.js';

/** Share links on real workerd (wrangler dev, local D1): made by the owner, read by anyone, stopped. */
describe('share links on workerd', () => {
  let worker: RunningWorker;
  let model: ScriptedServer;
  let cookie = '';
  let csrf = '';
  const PASSWORD = 'share on the edge';

  beforeAll(async () => {
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'Edge share' }] : undefined));
    worker = await startWorker({
      HERMES_WEBUI_PASSWORD: PASSWORD,
      HERMES_WEBUI_PROVIDER: 'custom',
      HERMES_WEBUI_BASE_URL: model.url,
      HERMES_WEBUI_DEFAULT_MODEL: 'scripted-model',
    });
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
    return { status: res.status, body: (await res.json()) as any };
  };

  it('creates a link, serves its page to a reader with no cookie and no script, and a revoked link is 404', async () => {
    const sid = (await api('POST', '/api/session/new', {})).body.session.session_id as string;
    model.enqueue([{ text: 'Stored it at /workspace/notes.md for you.' }]);
    const start = await api('POST', '/api/chat/start', { session_id: sid, message: `Remember ${KEY} please` });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const frames = await readStream(await fetch(`${worker.url}/api/chat/stream?stream_id=${start.body.stream_id}`, { headers: { Cookie: cookie } }), {
      timeoutMs: 20_000,
    });
    expect(frames.map((f) => f.event)).toContain('done');

    const created = await api('POST', '/api/share/create', { session_id: sid });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { token, url } = created.body.share as { token: string; url: string };
    expect(url).toBe(`/share/${token}`);
    expect(created.body.share.message_count).toBe(2);
    expect((await api('GET', `/api/session?session_id=${sid}`)).body.session.share_token).toBe(token);

    // A reader: no cookie, nothing but a plain GET (as a browser with JavaScript off, or a crawler).
    const page = await fetch(worker.url + url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('Remember sk-proj-*** please');
    expect(html).toContain('Stored it at &#60;workspace&#62;/notes.md for you.');
    expect(leaked(html)).toEqual([]);
    const json = await fetch(`${worker.url}/api/share/${token}`);
    expect(json.status).toBe(200);
    expect(((await json.json()) as any).share.messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);

    expect((await api('POST', '/api/share/revoke', { session_id: sid })).status).toBe(200);
    expect((await fetch(worker.url + url)).status).toBe(404);
    const gone = await fetch(`${worker.url}/api/share/${token}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: 'Shared conversation not found' });
    // Making and stopping links stays behind sign-in.
    expect((await fetch(worker.url + '/api/share/create', { method: 'POST', body: JSON.stringify({ session_id: sid }) })).status).toBe(401);
  });
});
