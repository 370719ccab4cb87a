import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { NodeCompressor, brotliQuality } from '../../src/adapters/platform/node-compression.js';
import { MIN_COMPRESS_BYTES, negotiateCoding } from '../../src/http/compression.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { readStream } from '../helpers/sse.js';

describe('negotiateCoding', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['deflate, gzip;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.1', 'br'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', null],
    ['br;q=0, gzip;q=0', null],
    ['', null],
    [undefined, null],
  ])('Accept-Encoding %j → %s', (header, coding) => {
    expect(negotiateCoding(header, both)).toBe(coding);
  });

  it('offers only what the runtime can produce', () => {
    expect(negotiateCoding('br', ['gzip'])).toBeNull();
    expect(negotiateCoding('br, gzip', ['gzip'])).toBe('gzip');
  });

  it('uses a faster brotli quality for very large bodies', () => {
    expect(brotliQuality(50_000)).toBe(5);
    expect(brotliQuality(4_000_000)).toBe(4);
  });
});

describe('response compression (app.request)', () => {
  let t: ChatHarness;
  let app: ReturnType<typeof createApp>;

  beforeEach(async () => {
    t = await makeChatApp();
    // The composition root gives Node its compressor.
    expect(t.deps.compression).toBeInstanceOf(NodeCompressor);
    app = t.app;
  });
  afterEach(async () => t.close());

  /** Enough sessions that the list is well over the threshold. */
  async function manySessions(n = 40) {
    for (let i = 0; i < n; i++) await t.newSession();
  }

  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
  /** The list without its clock (`server_time` moves with each second). */
  const listed = (text: string) => {
    const { server_time, ...rest } = JSON.parse(text);
    expect(typeof server_time).toBe('number');
    return rest;
  };

  it('brotli when br is accepted, gzip when only gzip is, the same JSON either way', async () => {
    await manySessions();
    const plain = await (await get('/api/sessions')).text();
    expect(plain.length).toBeGreaterThan(MIN_COMPRESS_BYTES);

    const br = await get('/api/sessions', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length);
    expect(brBytes.length).toBeLessThan(plain.length / 3);
    expect(listed(brotliDecompressSync(brBytes).toString())).toEqual(listed(plain));

    const gz = await get('/api/sessions', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(listed(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(listed(plain));
  });

  it('identity, a refused coding or no Accept-Encoding: the plain body, still with Vary', async () => {
    await manySessions();
    const plain = await (await get('/api/sessions')).text();
    for (const headers of [{}, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
      const res = await get('/api/sessions', headers);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(listed(await res.text())).toEqual(listed(plain));
    }
  });

  it('a cached compressed list carries a server_time at most 5 s old, and the variant header stays inside', async () => {
    await manySessions();
    const read = async () => {
      const res = await get('/api/sessions', { 'Accept-Encoding': 'br' });
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.has('x-hermes-body-variant')).toBe(false);
      return JSON.parse(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString());
    };
    const first = await read();
    // Into the next 5-second window (one compressed copy per window): the same rows (one ETag), a newer clock.
    await new Promise((r) => setTimeout(r, (Math.floor(Date.now() / 5000) + 1) * 5000 + 50 - Date.now()));
    const second = await read();
    expect(second.sessions).toEqual(first.sessions);
    expect(second.server_time).toBeGreaterThan(first.server_time);
    expect((await get('/api/sessions')).headers.has('x-hermes-body-variant')).toBe(false);
  });

  it('leaves answers under the threshold uncompressed', async () => {
    const res = await get('/health', { 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(MIN_COMPRESS_BYTES);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(text)).toHaveProperty('status');
  });

  it('keeps the ETag on compressed answers; If-None-Match still gives a bodiless 304', async () => {
    await manySessions();
    const first = await get('/api/sessions?limit=10', { 'Accept-Encoding': 'br' });
    expect(first.headers.get('content-encoding')).toBe('br');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    // The plain answer carries the same (weak) tag: one representation, two encodings.
    expect((await get('/api/sessions?limit=10')).headers.get('etag')).toBe(etag);
    const again = await get('/api/sessions?limit=10', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-encoding')).toBeNull();
    expect(again.headers.get('vary')).toContain('Accept-Encoding');
    expect(await again.text()).toBe('');
    // A change: a new tag and a fresh compressed body (not the one compressed for the old tag).
    await t.newSession();
    const changed = await get('/api/sessions?limit=10', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const body = JSON.parse(brotliDecompressSync(Buffer.from(await changed.arrayBuffer())).toString());
    expect(body.total).toBe(41);
  });

  it('does not buffer or compress an SSE stream', async () => {
    const sid = await t.newSession();
    // The turn stays open for a minute after its first token: a buffered stream would time the test out.
    t.model.enqueue([{ text: 'first token '.repeat(200) }, { delayMs: 60_000 }, { text: 'never' }]);
    const start = await app.request('/api/chat/start', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ session_id: sid, message: 'hi' }),
    });
    const { stream_id } = await start.json();
    const res = await app.request(`/api/chat/stream?stream_id=${stream_id}`, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('content-encoding')).toBeNull();
    const frames = await readStream(res, { until: (f) => f.event === 'token' });
    expect(frames.at(-1)!.data.text).toContain('first token');
    const cancel = await app.request('/api/chat/cancel', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ stream_id }),
    });
    expect(cancel.status).toBe(200);
  });

  it('sends precompressed static assets as they are, never compressed again', async () => {
    const json = JSON.stringify({ name: 'Hermes', icons: Array.from({ length: 80 }, (_, i) => ({ src: `/icon-${i}.png` })) });
    await mkdir(join(t.dir, 'public'), { recursive: true });
    await writeFile(join(t.dir, 'public', 'data.json'), json);
    await writeFile(join(t.dir, 'public', 'data.json.br'), brotliCompressSync(json));
    await writeFile(join(t.dir, 'public', 'data.json.gz'), gzipSync(json));
    const br = await get('/data.json', { 'Accept-Encoding': 'br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    // Exactly the file the build wrote, decoded once.
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(json);
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('without a compressor (Workers) answers go out as they are', async () => {
    await manySessions();
    const { compression: _, ...workerLike } = t.deps;
    const res = await createApp(workerLike).request('/api/sessions', { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await res.text()).total).toBe(40);
  });
});
