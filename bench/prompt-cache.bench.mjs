// Prompt caching over a 10-turn session of the builtin agent on the Anthropic Messages API.
// Budget: ≥ 70 % of the session's prompt tokens billed as cache reads. The scripted Anthropic
// server counts the cache honestly (tests/fixtures/anthropic-prompt-cache.mjs: the longest
// prefix, up to the request's last cache_control breakpoint, that an earlier request wrote) and
// reports it in the real usage shape; every other turn runs a read_file step first.
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicPromptCache } from '../tests/fixtures/anthropic-prompt-cache.mjs';
import { fmt, startServer, stopServer, verdict } from './lib.mjs';

const TURNS = 10;
const cache = new AnthropicPromptCache();
const billed = []; // one per turn request: the usage the server reported

const sse = (res, type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);

const provider = http.createServer(async (req, res) => {
  let text = '';
  for await (const c of req) text += c;
  const body = JSON.parse(text);
  const isTitle = JSON.stringify(body.system ?? '').includes('Write a title');
  const usage = cache.account(body);
  if (!isTitle) billed.push(usage);
  const last = body.messages.at(-1);
  const turn = body.messages.filter((m) => m.role === 'user' && m.content.some?.((b) => b.type === 'text')).length;
  // A new question on an odd turn asks for a file first; anything else is answered.
  const wantsTool = !isTitle && turn % 2 === 1 && last.content.every((b) => b.type === 'text');
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  sse(res, 'message_start', {
    message: { id: 'msg_b', type: 'message', role: 'assistant', model: body.model, content: [], usage: { ...usage, output_tokens: 1 } },
  });
  if (wantsTool) {
    sse(res, 'content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_${turn}`, name: 'read_file', input: {} } });
    sse(res, 'content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"notes.md"}' } });
  } else {
    sse(res, 'content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    sse(res, 'content_block_delta', {
      index: 0,
      delta: { type: 'text_delta', text: isTitle ? 'Bench' : `Here is answer ${turn}, with a few sentences of explanation.` },
    });
  }
  sse(res, 'content_block_stop', { index: 0 });
  sse(res, 'message_delta', { delta: { stop_reason: wantsTool ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 12 } });
  sse(res, 'message_stop', {});
  res.end();
});
await new Promise((r) => provider.listen(0, '127.0.0.1', r));

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-cache-'));
const hermes = join(home, '.hermes');
const workspace = join(home, 'work');
mkdirSync(hermes, { recursive: true });
mkdirSync(workspace, { recursive: true });
writeFileSync(join(workspace, 'notes.md'), `# Notes\n\n${'A line of project notes the agent reads.\n'.repeat(40)}`);
writeFileSync(
  join(hermes, 'config.yaml'),
  `model:\n  default: claude-sonnet-4-5\n  provider: anthropic\n  base_url: http://127.0.0.1:${provider.address().port}\n`,
);

const post = async (base, path, body) => {
  const r = await fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path} → ${r.status} ${await r.text()}`);
  return r.json();
};

let server;
try {
  server = await startServer({ HOME: home, HERMES_HOME: hermes, HERMES_WEBUI_DEFAULT_WORKSPACE: workspace, ANTHROPIC_API_KEY: 'sk-ant-bench' });
  const sid = (await post(server.url, '/api/session/new', {})).session.session_id;
  for (let n = 1; n <= TURNS; n++) {
    const { stream_id } = await post(server.url, '/api/chat/start', { session_id: sid, message: `Question ${n}: what do the notes say?` });
    const frames = await (await fetch(`${server.url}/api/chat/stream?stream_id=${stream_id}`)).text();
    if (!frames.includes('event: stream_end')) throw new Error(`turn ${n} did not finish:\n${frames.slice(-800)}`);
  }
  const session = (await (await fetch(`${server.url}/api/session?session_id=${sid}`)).json()).session;

  const sum = (k) => billed.reduce((n, u) => n + u[k], 0);
  const read = sum('cache_read_input_tokens');
  const prompt = read + sum('cache_creation_input_tokens') + sum('input_tokens');
  const pct = (100 * read) / prompt;
  console.log(`requests: ${billed.length} (10 turns, 5 with a read_file step)`);
  console.log(
    `per request, cached %: ${billed.map((u) => fmt((100 * u.cache_read_input_tokens) / (u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens))).join(' ')}`,
  );
  console.log(`prompt tokens: ${prompt}, read from cache: ${read}, written: ${sum('cache_creation_input_tokens')}, uncached: ${sum('input_tokens')}`);
  console.log(
    `session as stored: input_tokens ${session.input_tokens}, cache_read_tokens ${session.cache_read_tokens}, cache_write_tokens ${session.cache_write_tokens}`,
  );
  console.log(`billed as cached: ${fmt(pct)} % (budget ≥ 70 %) — ${verdict(pct, 70, false)}`);
  if (session.cache_read_tokens !== read) throw new Error(`the session stored ${session.cache_read_tokens} cache reads, the provider billed ${read}`);
  if (pct < 70) process.exitCode = 1;
} finally {
  if (server) await stopServer(server);
  await new Promise((r) => provider.close(r));
  rmSync(home, { recursive: true, force: true });
}
