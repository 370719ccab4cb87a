import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedWeb, type ScriptedWeb } from '../fixtures/scripted-web.js';
import { type ChatHarness, makeChatApp } from '../helpers/chat.js';

/** The newest tool result the model received for `callId` in a request. */
function toolResult(req: any, callId: string): string {
  return req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId)?.content;
}
const offered = (req: any): string[] => (req.tools ?? []).map((t: any) => t.function?.name);

describe('chat: web tools through the real app', () => {
  let web: ScriptedWeb;
  let t: ChatHarness | undefined;
  beforeAll(async () => {
    web = await startScriptedWeb();
    web.route('GET', '/search', { body: { results: [{ title: 'Local page', url: 'http://127.0.0.1/page', content: 'a page to read', score: 1 }] } });
    web.route('GET', '/page', {
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>Notes</title></head><body><h2>Hello</h2><p>from the page</p></body></html>',
    });
    web.route('POST', '/search', (req) => ({ body: { results: [{ title: 'Tavily hit', url: 'https://t.test/', content: `for ${req.body.query}` }] } }));
  });
  afterAll(async () => web.close());
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('config.yaml web.searxng_url offers web_search and web_extract; results reach the model and the stream', async () => {
    t = await makeChatApp({ extraYaml: `web:\n  searxng_url: ${web.url}\n  extract_backend: local\nsecurity:\n  allow_private_urls: true\n` });
    const sid = await t.newSession();
    t.model.enqueue(
      [{ toolCall: { id: 's1', name: 'web_search', args: { query: 'local notes' } } }],
      [{ toolCall: { id: 'e1', name: 'web_extract', args: { urls: [`${web.url}/page`] } } }],
      [{ text: 'The page says hello.' }],
    );
    const frames = await t.stream((await t.start(sid, 'find and read the notes')).body.stream_id);
    const [first, second, third] = t.turnRequests();
    expect(offered(first).slice(0, 2)).toEqual(['web_search', 'web_extract']);
    expect(JSON.parse(toolResult(second, 's1'))).toEqual({
      success: true,
      data: { web: [{ title: 'Local page', url: 'http://127.0.0.1/page', description: 'a page to read', position: 1 }] },
    });
    const extracted = JSON.parse(toolResult(third, 'e1'));
    expect(extracted.results[0]).toEqual({ url: `${web.url}/page`, title: 'Notes', content: '## Hello\n\nfrom the page', error: null });
    const done = frames.filter((f) => f.event === 'tool_complete').map((f) => [f.data.name, f.data.is_error]);
    expect(done).toEqual([
      ['web_search', false],
      ['web_extract', false],
    ]);
    expect(frames.find((f) => f.event === 'tool_complete' && f.data.name === 'web_search')!.data.result).toContain('"Local page"');
  });

  it('a hosted backend (Tavily) through its key and the documented test seam', async () => {
    t = await makeChatApp({ extraYaml: 'web:\n  backend: tavily\n', agentEnv: { TAVILY_API_KEY: 'tvly-test' }, webEndpoints: { tavily: web.url } });
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 's1', name: 'web_search', args: { query: 'hermes' } } }], [{ text: 'Found it.' }]);
    await t.stream((await t.start(sid, 'search')).body.stream_id);
    expect(JSON.parse(toolResult(t.turnRequests()[1], 's1')).data.web[0]).toMatchObject({ title: 'Tavily hit', description: 'for hermes' });
    expect(web.requests.findLast((r) => r.method === 'POST')!.body).toMatchObject({ query: 'hermes', api_key: 'tvly-test' });
  });

  it('without a web backend the web tools are not offered (as Hermes registers them)', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'No web here.' }]);
    await t.stream((await t.start(sid, 'hi')).body.stream_id);
    const names = offered(t.turnRequests()[0]);
    expect(names).toContain('read_file');
    expect(names).not.toContain('web_search');
    expect(names).not.toContain('web_extract');
  });

  it('HERMES_WRITE_SAFE_ROOT from the environment holds the file tools to it', async () => {
    t = await makeChatApp({ agentEnv: { HERMES_WRITE_SAFE_ROOT: '/nonexistent-safe-root' } });
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'w1', name: 'write_file', args: { path: 'a.txt', content: 'x' } } }], [{ text: 'Refused.' }]);
    await t.stream((await t.start(sid, 'write')).body.stream_id);
    expect(JSON.parse(toolResult(t.turnRequests()[1], 'w1')).error).toMatch(/is outside HERMES_WRITE_SAFE_ROOT \(\/nonexistent-safe-root\)/);
    expect(existsSync(join(t.workspace, 'a.txt'))).toBe(false);
  });
});
