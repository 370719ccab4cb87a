import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { isTitleRequest, TITLE } from '../helpers/chat.js';
import { readStream, type Frame } from '../helpers/sse.js';

describe('fallback_providers: tried in order when the model fails before its first byte', () => {
  let t: TestApp | null = null;
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await t?.close();
    t = null;
    for (const s of servers.splice(0)) await s.close();
  });

  async function server() {
    const s = await startScriptedOpenAI();
    s.setRouter((req) => (isTitleRequest(req) ? [{ text: TITLE }] : undefined));
    s.setFallback(() => ({ status: 500, body: 'no script queued' }));
    servers.push(s);
    return s;
  }

  /** Primary A, then fallbacks B and C; one retry per provider. */
  async function app() {
    const [a, b, c] = [await server(), await server(), await server()];
    t = await makeTestApp({
      configYaml: [
        'model:',
        '  default: primary-model',
        '  provider: custom',
        `  base_url: ${a.url}`,
        'agent:',
        '  api_max_retries: 1',
        'fallback_providers:',
        '  - provider: custom', // no model: ignored, as Hermes does
        `    base_url: ${b.url}`,
        '  - provider: custom',
        '    model: backup-b',
        `    base_url: ${b.url}`,
        '  - provider: custom',
        '    model: backup-c',
        `    base_url: ${c.url}`,
        '',
      ].join('\n'),
    });
    return { t, a, b, c };
  }

  const turnRequests = (s: ScriptedServer) => s.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body);
  async function turn(sid: string, message: string): Promise<Frame[]> {
    const r = await t!.call('POST', '/api/chat/start', { session_id: sid, message });
    return readStream(await t!.app.request(`/api/chat/stream?stream_id=${r.body.stream_id}`));
  }

  it('503 after its retry → the next entry answers, and the rest of the turn stays there; the next turn starts on the primary', async () => {
    const { t, a, b, c } = await app();
    a.enqueue({ status: 503 }, { status: 503 });
    b.enqueue({ status: 401, body: { error: { message: 'bad key' } } });
    c.enqueue([{ toolCall: { id: 'c1', name: 'todo', args: { todos: [] } } }], [{ text: 'from C' }]);
    const sid = await t.newSession();
    const frames = await turn(sid, 'hello');
    const warnings = frames.filter((f) => f.event === 'warning').map((f) => f.data);
    expect(warnings).toEqual([
      { type: 'fallback_provider', message: expect.stringMatching(/^custom:primary-model failed \(.*HTTP 503.*\); continuing with custom:backup-b$/) },
      { type: 'fallback_provider', message: expect.stringMatching(/^custom:backup-b failed \(.*HTTP 401.*\); continuing with custom:backup-c$/) },
    ]);
    // The retry was A's (503 is retried; a 401 is not, it moves on at once).
    expect(frames.filter((f) => f.event === 'retrying')).toHaveLength(1);
    expect(turnRequests(a)).toHaveLength(2);
    expect(turnRequests(b).map((r) => r.model)).toEqual(['backup-b']);
    // Both of C's steps: the tool step and the answer after it.
    expect(turnRequests(c).map((r) => r.model)).toEqual(['backup-c', 'backup-c']);
    expect(frames.at(-1)!.event).toBe('stream_end');
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'from C', _usedModel: 'backup-c' });

    a.enqueue([{ text: 'primary is back' }]);
    const next = await turn(sid, 'again');
    expect(next.filter((f) => f.event === 'warning')).toEqual([]);
    expect(turnRequests(a)).toHaveLength(3);
    expect(turnRequests(c)).toHaveLength(2);
  });

  it('a failure after bytes streamed is not handed to a fallback', async () => {
    const { t, a, b, c } = await app();
    a.enqueue([{ text: 'half an ans' }, { drop: true }]);
    const frames = await turn(await t.newSession(), 'hello');
    expect(frames.at(-1)!.event).toBe('apperror');
    expect(frames.filter((f) => f.event === 'warning')).toEqual([]);
    expect(turnRequests(a)).toHaveLength(1);
    expect(turnRequests(b)).toHaveLength(0);
    expect(turnRequests(c)).toHaveLength(0);
  });

  it('a 400 (the request itself is wrong) is not handed to a fallback', async () => {
    const { t, a, b } = await app();
    a.enqueue({ status: 400, body: { error: { message: 'messages: too long' } } });
    const frames = await turn(await t.newSession(), 'hello');
    expect(frames.at(-1)).toMatchObject({ event: 'apperror' });
    expect(frames.at(-1)!.data.message).toContain('messages: too long');
    expect(turnRequests(b)).toHaveLength(0);
  });

  it('every provider failing: the last failure is reported', async () => {
    const { t, a, b, c } = await app();
    a.enqueue({ status: 503 }, { status: 503 });
    b.enqueue({ reset: true }, { reset: true });
    c.enqueue({ status: 404, body: { error: { message: 'no such model' } } });
    const frames = await turn(await t.newSession(), 'hello');
    expect(frames.at(-1)).toMatchObject({ event: 'apperror', data: { type: 'model_not_found' } });
    expect([turnRequests(a).length, turnRequests(b).length, turnRequests(c).length]).toEqual([2, 2, 1]);
  });
});
