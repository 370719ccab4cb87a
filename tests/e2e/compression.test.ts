import http from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';

/** A GET with node:http, which (unlike fetch) hands over the bytes exactly as they came. */
function raw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** A stream's text up to the first chunk holding `marker`, then the connection is dropped (an SSE stream does not end). */
function readUntil(url: string, headers: Record<string, string>, marker: string): Promise<{ headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = http.get(url, { headers }, (res) => {
      res.on('data', (c: Buffer) => {
        text += c.toString('latin1');
        if (!text.includes(marker)) return;
        resolve({ headers: res.headers, text });
        req.destroy();
      });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

/** The built server (dist/server.js) with 300 stored sessions and a scripted model. */
describe('response compression on the built server', () => {
  let server: RunningServer;
  let model: ScriptedServer;
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-compress-'));
    const sessions = join(home, '.hermes', 'webui', 'sessions');
    await mkdir(sessions, { recursive: true });
    const now = Date.now() / 1000;
    for (let i = 0; i < 300; i++) {
      const id = `e${i.toString(16).padStart(11, '0')}`;
      const at = now - i * 60;
      await writeFile(
        join(sessions, `${id}.json`),
        JSON.stringify({
          session_id: id,
          title: `Compressed chat ${i}`,
          created_at: at,
          updated_at: at,
          pinned: i === 150,
          archived: false,
          project_id: null,
          messages: [],
          tool_calls: [],
        }),
      );
    }
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'A title' }] : undefined));
    await writeFile(join(home, '.hermes', 'config.yaml'), `model:\n  default: scripted\n  provider: custom\n  base_url: ${model.url}\n`);
    server = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes') });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('br, gzip, identity and no Accept-Encoding give the same JSON; Vary on every one', async () => {
    const plain = await raw(`${server.url}/api/sessions?limit=100`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = JSON.parse(plain.body.toString());
    expect(json.sessions).toHaveLength(100);
    expect(json.pinned.map((s: any) => s.title)).toEqual(['Compressed chat 150']);

    const br = await raw(`${server.url}/api/sessions?limit=100`, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());

    const gz = await raw(`${server.url}/api/sessions?limit=100`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());

    const identity = await raw(`${server.url}/api/sessions?limit=100`, { 'Accept-Encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(plain.body.toString());
    for (const r of [plain, br, gz, identity]) expect(r.headers.vary).toContain('Accept-Encoding');
  });

  it('the whole list without paging parameters is compressed too, and answers 304 to its ETag', async () => {
    const br = await raw(`${server.url}/api/sessions`, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    const body = JSON.parse(brotliDecompressSync(br.body).toString());
    expect(Object.keys(body)).toEqual([
      'sessions',
      'total',
      'archived_count',
      'all_profiles',
      'active_profile',
      'other_profile_count',
      'server_time',
      'server_tz',
    ]);
    expect(body.sessions).toHaveLength(300);
    const again = await raw(`${server.url}/api/sessions`, { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['content-encoding']).toBeUndefined();
  });

  it('small answers stay plain', async () => {
    const health = await raw(`${server.url}/health`, { 'Accept-Encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.body.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('static assets come from the build’s precompressed copies, not compressed again', async () => {
    const html = (await raw(`${server.url}/`)).body.toString();
    const entry = /<script type="module" src="([^"]+\.js)"/.exec(html)![1]!;
    const plain = await raw(`${server.url}${entry}`);
    const br = await raw(`${server.url}${entry}`, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
  });

  it('an SSE stream is neither compressed nor held back', async () => {
    const post = async (path: string, body: unknown) =>
      (await fetch(server.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
    const { session } = await post('/api/session/new', {});
    // The turn stays open for a minute after its first token: a buffered stream would never answer.
    model.enqueue([{ text: 'streamed '.repeat(300) }, { delayMs: 60_000 }, { text: 'never' }]);
    const { stream_id } = await post('/api/chat/start', { session_id: session.session_id, message: 'hi' });
    const first = await readUntil(`${server.url}/api/chat/stream?stream_id=${stream_id}`, { 'Accept-Encoding': 'gzip, deflate, br' }, 'event: token');
    expect(first.headers['content-type']).toContain('text/event-stream');
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.text).toContain('streamed streamed');
    expect((await post('/api/chat/cancel', { stream_id })).ok).toBe(true);
  });
});
