import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const INDEX_HTML = '<!doctype html><html><head><title>Hermes</title></head><body><hermes-app></hermes-app></body></html>';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe('request bodies', () => {
  beforeEach(async () => {
    t = await makeTestApp({ maxJsonBytes: 1024 });
  });

  it('malformed JSON is a 400 with an error message', async () => {
    const r = await t.call('POST', '/api/session/new', '{"model": ');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Request body is not valid JSON' });
    expect((await t.call('GET', '/api/sessions')).body.total).toBe(0);
  });

  it.each([
    ['[1,2]', 'array'],
    ['"text"', 'string'],
    ['42', 'number'],
    ['null', 'null'],
  ])('a JSON %s body (%s) is a 400', async (body) => {
    const r = await t.call('POST', '/api/session/new', body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Request body must be a JSON object' });
  });

  it('a body over the limit is a 413 (streamed, no Content-Length)', async () => {
    const big = JSON.stringify({ model: 'x'.repeat(2000) });
    const r = await t.call('POST', '/api/session/new', big);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: 'Request body too large' });
    expect((await t.call('GET', '/api/sessions')).body.total).toBe(0);
  });

  it('a body over the limit is a 413 when Content-Length says so', async () => {
    const big = JSON.stringify({ title: 'x'.repeat(2000) });
    const res = await t.app.request('/api/session/rename', {
      method: 'POST',
      body: big,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(big)) },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'Request body too large' });
  });

  it('a body just under the limit is accepted', async () => {
    const body = JSON.stringify({ model: 'm'.repeat(200) });
    expect(Buffer.byteLength(body)).toBeLessThan(1024);
    const r = await t.call('POST', '/api/session/new', body);
    expect(r.status).toBe(200);
    expect(r.body.session.model).toBe('m'.repeat(200));
  });
});

describe('not found and unexpected errors', () => {
  beforeEach(async () => {
    t = await makeTestApp();
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api/session/nope'],
    ['DELETE', '/api/sessions'],
  ])('%s %s is a JSON 404', async (method, path) => {
    const r = await t.call(method, path);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not found' });
    expect(r.res.headers.get('Content-Type')).toMatch(/^application\/json/);
  });

  it('a non-API path with no asset is a 404 too', async () => {
    const r = await t.call('GET', '/no/such/page.txt');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'not found' });
  });

  it('an unexpected error is a bare 500, logged once with its stack', async () => {
    t.deps.sessions.list = async () => {
      throw new Error('disk on fire: /secret/path');
    };
    const app = createApp(t.deps);
    const res = await app.request('/api/sessions');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal server error' });
    expect(text).not.toContain('disk on fire');
    expect(text).not.toContain('/secret/path');
    expect(text).not.toMatch(/at .*\.(ts|js)/);

    expect(t.logger.errors).toHaveLength(1);
    const logged = t.logger.errors[0]!;
    expect(logged).toMatchObject({ msg: 'unhandled error', method: 'GET', path: '/api/sessions' });
    expect(String(logged.error)).toContain('disk on fire');
    expect(String(logged.error)).toContain('Error:');

    // The request is still logged, with its real status.
    const line = t.logger.lines.at(-1)!;
    expect(line).toMatchObject({ method: 'GET', path: '/api/sessions', status: 500 });
  });

  it('masks secrets in what it logs', async () => {
    const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
    t.deps.sessions.list = async () => {
      throw new Error(`provider refused Authorization: Bearer ${key} at postgres://app:hunter2pass@db/x`);
    };
    const res = await createApp(t.deps).request('/api/sessions');
    expect(res.status).toBe(500);
    const logged = JSON.stringify(t.logger.errors);
    expect(logged).toContain('provider refused');
    expect(logged).not.toContain(key);
    expect(logged).not.toContain('hunter2pass');
  });

  it('expected errors (4xx) are not logged as errors', async () => {
    await t.call('GET', '/api/session?session_id=abcdef123456');
    await t.call('POST', '/api/session/new', '{bad');
    await t.call('GET', '/api/nope');
    expect(t.logger.errors).toEqual([]);
  });
});

describe('request log', () => {
  beforeEach(async () => {
    t = await makeTestApp();
  });

  it('writes one line per request with method, path, status and ms', async () => {
    const before = t.logger.lines.length;
    await t.call('GET', '/api/sessions?limit=5');
    await t.call('POST', '/api/session/new', {});
    await t.call('GET', '/api/session?session_id=abcdef123456');
    await t.call('GET', '/health');
    const lines = t.logger.lines.slice(before);
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => [l.method, l.path, l.status])).toEqual([
      ['GET', '/api/sessions', 200],
      ['POST', '/api/session/new', 200],
      ['GET', '/api/session', 404],
      ['GET', '/health', 200],
    ]);
    for (const line of lines) {
      expect(typeof line.ms).toBe('number');
      expect(line.ms as number).toBeGreaterThanOrEqual(0);
      expect(typeof line.ts).toBe('string');
      expect(Number.isNaN(Date.parse(line.ts as string))).toBe(false);
      // The query string is not part of the logged path.
      expect(String(line.path)).not.toContain('?');
    }
  });
});

describe('GET /health', () => {
  it.each(['memory', 'fs'] as const)('reports liveness and counts (%s storage)', async (storage) => {
    t = await makeTestApp({ storage });
    const a = await t.newSession();
    await t.newSession();
    await t.call('POST', '/api/session/archive', { session_id: a });
    const r = await t.call('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      sessions: 2,
      active_streams: 0,
      active_runs: 0,
      runs: [],
      last_run_finished_at: null,
      storage,
      version: 'test',
    });
    expect(typeof r.body.server_started_at).toBe('number');
    expect(r.body.server_started_at).toBeLessThanOrEqual(Date.now() / 1000);
    expect(typeof r.body.uptime_seconds).toBe('number');
    expect(r.body.uptime_seconds).toBeGreaterThanOrEqual(0);
  });
});

describe('cache headers', () => {
  beforeEach(async () => {
    t = await makeTestApp();
  });

  it.each([
    ['GET', '/api/sessions', 200],
    ['GET', '/api/settings', 200],
    ['GET', '/api/projects', 200],
    ['POST', '/api/session/new', 200],
    ['GET', '/api/session', 400],
    ['GET', '/api/session?session_id=abcdef123456', 404],
    ['GET', '/api/nope', 404],
  ])('%s %s (%i) is Cache-Control: no-store', async (method, path, status) => {
    const r = await t.call(method, path, method === 'POST' ? {} : undefined);
    expect(r.status).toBe(status);
    expect(r.res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('a 500 from the API is no-store too', async () => {
    t.deps.sessions.list = async () => {
      throw new Error('boom');
    };
    const res = await createApp(t.deps).request('/api/sessions');
    expect(res.status).toBe(500);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });
});

describe('app shell and static files', () => {
  beforeEach(async () => {
    t = await makeTestApp();
    const pub = join(t.dir, 'public');
    await writeFile(join(pub, 'index.html'), INDEX_HTML);
    await writeFile(join(pub, 'styles.css'), 'body { color: red }');
    await writeFile(join(pub, 'app.js'), 'console.log("plain")');
    await writeFile(join(pub, 'app-3f9a1c2b.js'), 'console.log("hashed")');
    await writeFile(join(pub, 'manifest.webmanifest'), '{}');
    await mkdir(join(pub, 'icons'));
    await writeFile(join(pub, 'icons', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(join(t.dir, 'outside.txt'), 'not public');
  });

  it.each(['/', '/index.html', '/session/abc', '/session/0123456789ab'])('GET %s serves index.html, revalidated', async (path) => {
    const res = await t.app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX_HTML);
  });

  it.each([
    ['/styles.css', 'text/css; charset=utf-8', 'body { color: red }'],
    ['/app.js', 'text/javascript; charset=utf-8', 'console.log("plain")'],
    ['/manifest.webmanifest', 'application/manifest+json', '{}'],
    ['/icons/icon.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
  ])('GET %s has content-type %s', async (path, type, body) => {
    const res = await t.app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe(type);
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Content-Length')).toBe(String(Buffer.byteLength(body)));
    expect(await res.text()).toBe(body);
  });

  it('a hashed asset is cached for a year as immutable; a plain one is revalidated', async () => {
    const hashed = await t.app.request('/app-3f9a1c2b.js');
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(await hashed.text()).toBe('console.log("hashed")');

    const plain = await t.app.request('/app.js');
    expect(plain.headers.get('Cache-Control')).toBe('no-cache');
  });

  it.each(['/../outside.txt', '/%2e%2e/outside.txt', '/..%2foutside.txt', '/icons/..%2f..%2foutside.txt'])(
    'does not serve files outside public/ (%s)',
    async (path) => {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('not public');
    },
  );

  it('API routes are not shadowed by the static handler', async () => {
    await writeFile(join(t.dir, 'public', 'api-file.txt'), 'x');
    const r = await t.call('GET', '/api/sessions');
    expect(r.status).toBe(200);
    expect(r.body.sessions).toEqual([]);
  });

  it('without index.html the shell is a JSON 404', async () => {
    const bare = await makeTestApp();
    try {
      const r = await bare.call('GET', '/');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'not found' });
    } finally {
      await bare.close();
    }
  });
});
