import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TITLE, isTitleRequest, makeChatApp, type ChatHarness } from '../helpers/chat.js';

async function exchanges(t: ChatHarness, sid: string, n: number) {
  for (let i = 1; i <= n; i++) {
    t.model.enqueue([{ text: `answer ${i}` }]);
    await t.stream((await t.start(sid, `question ${i}`)).body.stream_id);
  }
}

const messagesOf = async (t: ChatHarness, sid: string) => (await t.call('GET', `/api/session?session_id=${sid}`)).body.session.messages as any[];

describe('session operations: retry, undo, status, title, personality, html export', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({
      extraYaml: [
        'agent:',
        '  personalities:',
        '    terse: Answer in one short sentence.',
        '    coach:',
        '      description: A patient coach',
        '      system_prompt: You coach the user step by step.',
        '      tone: warm',
        '      style: numbered steps',
        '',
      ].join('\n'),
    });
  });
  afterEach(async () => t.close());

  it('retry cuts the last exchange on the server and hands back its text; undo the same with a preview', async () => {
    const sid = await t.newSession();
    await exchanges(t, sid, 2);
    const retry = await t.call('POST', '/api/session/retry', { session_id: sid });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ ok: true, last_user_text: 'question 2', last_user_attachments: [], removed_count: 2 });
    expect((await messagesOf(t, sid)).map((m) => m.content)).toEqual(['question 1', 'answer 1']);

    const long = `${'x'.repeat(45)} tail`;
    t.model.enqueue([{ text: 'answer long' }]);
    await t.stream((await t.start(sid, long)).body.stream_id);
    const undo = await t.call('POST', '/api/session/undo', { session_id: sid });
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ ok: true, removed_count: 2, removed_preview: `${'x'.repeat(40)}...`, removed_text: long });
    expect(await messagesOf(t, sid)).toHaveLength(2);
  });

  it('refuses retry/undo with nothing to undo, while a turn runs, for unknown sessions and bad bodies', async () => {
    const sid = await t.newSession();
    const none = await t.call('POST', '/api/session/undo', { session_id: sid });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('Nothing to undo.');
    expect((await t.call('POST', '/api/session/retry', { session_id: sid })).body.error).toBe('No previous message to retry.');
    expect((await t.call('POST', '/api/session/retry', { session_id: 'nope_0000' })).status).toBe(404);
    const bad = await t.call('POST', '/api/session/undo', {});
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/session_id/);

    await exchanges(t, sid, 1);
    t.model.enqueue([{ text: 'slow' }, { delayMs: 400 }, { text: ' end' }]);
    const { stream_id } = (await t.start(sid, 'question 2')).body;
    const busy = await t.call('POST', '/api/session/retry', { session_id: sid });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatch(/turn running/);
    await t.stream(stream_id);
    expect(await messagesOf(t, sid)).toHaveLength(4);
  });

  it('status reports the incumbent fields, running or not', async () => {
    const sid = await t.newSession();
    await exchanges(t, sid, 1);
    const idle = await t.call('GET', `/api/session/status?session_id=${sid}`);
    expect(idle.status).toBe(200);
    expect(idle.body).toMatchObject({
      session_id: sid,
      model: null,
      profile: 'default',
      message_count: 2,
      agent_running: false,
      active_stream_id: null,
      personality: null,
    });
    expect(idle.body.total_tokens).toBe(idle.body.input_tokens + idle.body.output_tokens);
    expect(typeof idle.body.hermes_home).toBe('string');
    expect(idle.body.hermes_home.length).toBeGreaterThan(0);

    t.model.enqueue([{ text: 'slow' }, { delayMs: 300 }, { text: ' end' }]);
    const { stream_id } = (await t.start(sid, 'question 2')).body;
    const busy = await t.call('GET', `/api/session/status?session_id=${sid}`);
    expect(busy.body).toMatchObject({ agent_running: true, active_stream_id: stream_id });
    await t.stream(stream_id);
    expect((await t.call('GET', '/api/session/status')).status).toBe(400);
    expect((await t.call('GET', '/api/session/status?session_id=nope_0000')).status).toBe(404);
  });

  it('regenerates a title from the first exchange, or the latest with prefer_latest', async () => {
    const sid = await t.newSession();
    const empty = await t.call('POST', '/api/session/title/regenerate', { session_id: sid });
    expect(empty.status).toBe(422);
    await exchanges(t, sid, 2);
    const r = await t.call('POST', '/api/session/title/regenerate', { session_id: sid });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: TITLE, status: 'generated', session: { session_id: sid, title: TITLE } });
    const firstAsk = t.model.requests.filter(isTitleRequest).at(-1)!.body.messages[1].content;
    expect(firstAsk).toContain('question 1');
    expect(firstAsk).toContain('answer 1');

    await t.call('POST', '/api/session/title/regenerate', { session_id: sid, prefer_latest: true });
    const latestAsk = t.model.requests.filter(isTitleRequest).at(-1)!.body.messages[1].content;
    expect(latestAsk).toContain('question 2');
    expect(latestAsk).toContain('answer 2');
    expect(latestAsk).not.toContain('question 1');
    expect((await t.call('POST', '/api/session/title/regenerate', { session_id: sid, prefer_latest: 'yes' })).status).toBe(400);
  });

  it('lists config.yaml personalities and applies the chosen one to the next system prompt', async () => {
    const list = await t.call('GET', '/api/personalities');
    expect(list.body.personalities).toEqual([
      { name: 'terse', description: 'Answer in one short sentence.' },
      { name: 'coach', description: 'A patient coach' },
    ]);
    const sid = await t.newSession();
    const missing = await t.call('POST', '/api/personality/set', { session_id: sid, name: 'pirate' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Personality "pirate" not found in config.yaml');
    const set = await t.call('POST', '/api/personality/set', { session_id: sid, name: 'coach' });
    expect(set.body).toEqual({ ok: true, personality: 'coach', prompt: 'You coach the user step by step.\nTone: warm\nStyle: numbered steps' });

    await exchanges(t, sid, 1);
    const system = t.turnRequests().at(-1).messages[0].content as string;
    expect(system.endsWith('\n\nYou coach the user step by step.\nTone: warm\nStyle: numbered steps')).toBe(true);

    expect((await t.call('POST', '/api/personality/set', { session_id: sid, name: '' })).body.personality).toBeNull();
    t.model.enqueue([{ text: 'plain' }]);
    await t.stream((await t.start(sid, 'again')).body.stream_id);
    expect(t.turnRequests().at(-1).messages[0].content).not.toContain('You coach the user');
    expect((await t.call('POST', '/api/personality/set', { session_id: sid })).status).toBe(400);
  });

  it('exports one self-contained, redacted HTML file that runs nothing', async () => {
    const sid = await t.newSession();
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
    t.model.enqueue([{ text: `**bold** <script>alert(1)</script> [x](javascript:alert(2)) ![i](https://example.com/a.png) key ${secret}` }]);
    await t.stream((await t.start(sid, 'show <b>me</b>')).body.stream_id);
    const res = await t.app.request(`/api/session/export?session_id=${sid}&format=html&theme=light`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="hermes-${sid}.html"`);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    const html = await res.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('show &#60;b&#62;me&#60;/b&#62;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('javascript:');
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain(secret);
    expect(html).toContain("default-src 'none'");
    expect((await t.call('GET', `/api/session/export?session_id=${sid}&format=pdf`)).status).toBe(400);
    expect((await t.call('GET', `/api/session/export?session_id=${sid}&format=html&theme=neon`)).status).toBe(400);
  });
});
