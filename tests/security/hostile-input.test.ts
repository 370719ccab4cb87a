import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * The hostile-input suite: every API endpoint (taken from the app's own route table, so a new
 * endpoint is covered the day it is added) fed missing, wrong-typed, huge and malformed input,
 * traversal strings, oversized uploads, foreign origins and forged cookies, plus a fast-check
 * fuzz of the validators. Nothing may answer 5xx, crash, or touch a file outside the workspace
 * and the state directory.
 */

const SELF = 'http://127.0.0.1:8787';
let t: TestApp;
let outside: string;
let sessionId: string;
let cases = 0;
const fiveHundreds: string[] = [];

/** Every API route: [method, path]. */
let routes: Array<[string, string]> = [];

/** Sends a request and checks the universal rules: no 5xx, errors are `{"error": string}`. */
async function send(method: string, path: string, init: { body?: BodyInit | null; headers?: Record<string, string> } = {}): Promise<Response> {
  cases++;
  const res = await t.app.request(SELF + path, { method, ...(init.body !== undefined ? { body: init.body } : {}), headers: init.headers ?? {} });
  const label = `${method} ${path.slice(0, 120)} ${String(init.body ?? '').slice(0, 80)}`;
  if (res.status >= 500) fiveHundreds.push(`${res.status} ${label} ${await res.clone().text()}`);
  if (res.status >= 400) {
    const text = await res.clone().text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`non-JSON error body for ${label}: ${text.slice(0, 200)}`);
    }
    expect(typeof (parsed as { error?: unknown }).error, label).toBe('string');
  }
  // Streams are left unread; cancel so nothing lingers.
  if (res.headers.get('Content-Type')?.includes('text/event-stream')) await res.body?.cancel();
  return res;
}

/** The session the tests aim at: hostile calls may delete it, so it is made again when gone. */
async function ensureSession(): Promise<string> {
  if (!(await t.deps.sessions.get(sessionId).catch(() => null))) sessionId = await t.newSession();
  return sessionId;
}

/**
 * Runs `work` over `items`, `width` at a time (the routes wait on disk, not the CPU), each
 * worker aiming at a session of its own that it makes again when a hostile call deleted it.
 */
async function inWorkers<T>(items: readonly T[], width: number, work: (item: T, session: () => Promise<string>) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      let sid = await t.newSession();
      const session = async () => {
        if (!(await t.deps.sessions.get(sid).catch(() => null))) sid = await t.newSession();
        return sid;
      };
      while (next < items.length) await work(items[next++]!, session);
    }),
  );
}

const json = (value: unknown) => ({ body: typeof value === 'string' ? value : JSON.stringify(value), headers: { 'Content-Type': 'application/json' } });

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      out.push(p + (e.isDirectory() ? '/' : ''));
      if (e.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
  return out.sort();
}

let outsideBefore: string[];
let rootBefore: string[];

beforeAll(async () => {
  t = await makeTestApp({ storage: 'fs', maxUploadBytes: 64 * 1024, maxJsonBytes: 256 * 1024 });
  outside = await mkdtemp(join(tmpdir(), 'hermes-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'outside secret');
  await mkdir(join(t.workspace, 'docs'), { recursive: true });
  await writeFile(join(t.workspace, 'docs', 'a.txt'), 'inside');
  await symlink(outside, join(t.workspace, 'link-out'));
  await symlink(join(outside, 'secret.txt'), join(t.workspace, 'link-file'));
  await symlink('/etc', join(t.workspace, 'link-etc'));
  sessionId = await t.newSession();
  routes = [...new Set(t.app.routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))].map(
    (k) => k.split(' ') as [string, string],
  );
  outsideBefore = await tree(outside);
  rootBefore = (await readdir('/')).sort();
});

afterAll(async () => {
  // Printed so the suite's size is visible in every CI log.
  console.log(`hostile-input suite: ${cases} requests across ${routes.length} API routes`);
  await t?.close();
  await rm(outside, { recursive: true, force: true });
});

describe('hostile input, every endpoint', () => {
  it('covers a route table that includes every endpoint family', () => {
    const paths = routes.map(([, p]) => p);
    for (const p of ['/api/session/new', '/api/file/save', '/api/upload', '/api/chat/start', '/api/settings', '/api/auth/login', '/api/embed/tokens'])
      expect(paths).toContain(p);
    expect(routes.length).toBeGreaterThan(50);
  });

  it('answers missing, malformed, wrong-typed and huge JSON bodies with 4xx JSON errors', async () => {
    const huge = JSON.stringify({ session_id: sessionId, title: 'x'.repeat(300 * 1024) });
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const bodies: string[] = [
      '',
      '{',
      '{"a":',
      'null',
      '[]',
      '"text"',
      '123',
      'true',
      '{"session_id":',
      deep,
      '\u0000',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
    ];
    const wrongTypes = [1, -1, 1e308, true, null, [], {}, ['a'], { $gt: '' }, 'x'.repeat(100_000), '../../etc/passwd', '\u0000', '<script>alert(1)</script>'];
    const keys = [
      'session_id',
      'title',
      'path',
      'name',
      'new_name',
      'content',
      'message',
      'model',
      'workspace',
      'project_id',
      'stream_id',
      'keep_count',
      'pinned',
      'archived',
      'enabled',
      'choice',
      'response',
      'color',
      'origin',
      'password',
      'theme',
      'paths',
      'dest_dir',
      'recursive',
      'id',
    ];
    const posts = routes.filter(([method, path]) => method === 'POST' && path !== '/api/upload');
    await inWorkers(posts, 4, async ([, path], session) => {
      await session();
      for (const body of bodies) {
        const res = await send('POST', path, json(body));
        expect(res.status, `${path} ${body.slice(0, 20)}`).toBeLessThan(500);
      }
      // /api/transcribe takes audio, multipart, with its own 25 MB cap: a JSON body of any size lacks its file (400).
      expect((await send('POST', path, json(huge))).status, path).toBe(path === '/api/transcribe' ? 400 : 413);
      expect((await send('POST', path, { body: 'session_id=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBeLessThan(500);
      for (const key of keys) {
        for (const value of wrongTypes) {
          const res = await send('POST', path, json({ session_id: await session(), [key]: value }));
          expect(res.status, `${path} ${key}=${JSON.stringify(value).slice(0, 30)}`).toBeLessThan(500);
        }
      }
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(fiveHundreds).toEqual([]);
  }, 120_000); // every POST route × every hostile body: ~25 s on an idle 2-core machine, twice that when it is busy

  it('answers missing and hostile query strings with 4xx JSON errors', async () => {
    const values = [
      '',
      '../../etc/passwd',
      '..%2F..%2Fetc%2Fpasswd',
      '%00',
      'a%00b',
      '%2e%2e%2f',
      '/etc/passwd',
      'C:\\Windows',
      '<script>',
      'x'.repeat(50_000),
      '-1',
      '1e999',
      'NaN',
      '[]',
      '{}',
    ];
    const params = [
      'session_id',
      'path',
      'stream_id',
      'q',
      'msg_limit',
      'msg_before',
      'include_archived',
      'format',
      'after_seq',
      'download',
      'content',
      'token',
      'limit',
      'offset',
    ];
    const gets = routes.filter(([method]) => method === 'GET');
    await inWorkers(gets, 4, async ([, path], session) => {
      const sid = await session();
      await send('GET', path);
      for (const param of params) {
        for (const value of values) {
          const res = await send('GET', `${path}?${param}=${value.includes('%') ? value : encodeURIComponent(value)}&session_id=${sid}`);
          expect(res.status).toBeLessThan(500);
        }
      }
      // Repeated and odd parameters.
      await send('GET', `${path}?session_id=${sid}&session_id=../x&path=a&path=../../b`);
    });
    expect(fiveHundreds).toEqual([]);
  }, 120_000); // every GET route × every hostile parameter: ~12 s on an idle machine
});

describe('traversal and symlinks', () => {
  const hostilePaths = [
    '../secret.txt',
    '../../../../../../etc/passwd',
    'docs/../../outside',
    '..%2f..%2fetc%2fpasswd',
    '%2e%2e/%2e%2e/etc/passwd',
    '/etc/passwd',
    '//etc/passwd',
    '\\..\\..\\windows',
    'docs/\u0000/a.txt',
    'a\u0000.txt',
    'link-out/secret.txt',
    'link-file',
    'link-etc/passwd',
    'link-out',
    'link-etc',
    '....//....//etc/passwd',
    'docs/./../../x',
    '~/.ssh/id_rsa',
  ];

  it('never reads through them', async () => {
    await ensureSession();
    for (const p of [...hostilePaths, `${outside}/secret.txt`]) {
      for (const route of ['/api/file', '/api/file/raw', '/api/list']) {
        const res = await send('GET', `${route}?session_id=${sessionId}&path=${encodeURIComponent(p)}`);
        const text = await res.text();
        expect(text, `${route} ${p}`).not.toContain('outside secret');
        expect(text, `${route} ${p}`).not.toContain('root:x:0');
        if (!['link-out', 'link-etc', 'link-file'].includes(p) || route !== '/api/list') expect(res.status, `${route} ${p}`).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it('never writes, renames, moves or deletes through them', async () => {
    await ensureSession();
    for (const p of [...hostilePaths, `${outside}/new.txt`, `${outside}/secret.txt`]) {
      const bodies: Array<[string, Record<string, unknown>]> = [
        ['/api/file/save', { path: p, content: 'pwned' }],
        ['/api/file/create', { path: p, content: 'pwned' }],
        ['/api/file/create-dir', { path: p }],
        ['/api/file/delete', { path: p, recursive: true }],
        ['/api/file/rename', { path: p, new_name: 'pwned.txt' }],
        ['/api/file/rename', { path: 'docs/a.txt', new_name: p }],
        ['/api/file/move', { paths: [p], dest_dir: 'docs' }],
        ['/api/file/move', { paths: ['docs/a.txt'], dest_dir: p }],
      ];
      // `%2e%2e`, `....` and `~` are ordinary characters in a file name (nothing decodes them): such
      // names may be created, inside the workspace. Everything else must be refused.
      await mkdir(join(t.workspace, 'docs'), { recursive: true });
      await writeFile(join(t.workspace, 'docs', 'a.txt'), 'inside');
      const literal = p.includes('%') || p.startsWith('~') || p.startsWith('....');
      for (const [route, body] of bodies) {
        const res = await send('POST', route, json({ session_id: sessionId, ...body }));
        // As a new name, anything without a separator, NUL or dot-dot is just a name.
        const plainName = body.new_name === p && !/[/\\\u0000]/.test(p) && p !== '..' && p !== '.';
        if (!literal && !plainName) expect(res.status, `${route} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      }
    }
    expect(await tree(outside)).toEqual(outsideBefore);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
    for (const p of await tree(t.workspace)) expect(p.startsWith(t.workspace + '/')).toBe(true);
    expect((await lstat(join(t.workspace, 'link-out'))).isSymbolicLink()).toBe(true);
  });

  it('refuses system roots and traversal as workspaces', async () => {
    for (const workspace of ['/', '/etc', '/proc', '/usr/bin', '/sys', '/dev', '../..', 'relative/dir', '/etc/../etc', '\u0000']) {
      expect((await send('POST', '/api/workspaces/add', json({ path: workspace }))).status, workspace).toBeGreaterThanOrEqual(400);
      expect((await send('POST', '/api/session/new', json({ workspace }))).status, workspace).toBeGreaterThanOrEqual(400);
      expect((await send('POST', '/api/settings', json({ default_workspace: workspace }))).status, workspace).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('inputs that once answered 500', () => {
  it('refuses a malformed stream id in POST /api/chat/cancel as the GET form does', async () => {
    for (const id of ['a%20b', '..%2Fx', '%00', 'x'.repeat(200)]) {
      expect((await send('POST', `/api/chat/cancel?stream_id=${id}`)).status, id).toBe(400);
      expect((await send('GET', `/api/chat/cancel?stream_id=${id}`)).status, id).toBe(400);
    }
    expect((await send('POST', '/api/chat/cancel', json({ stream_id: 'a b' }))).status).toBe(400);
  });

  it('refuses a path component longer than a file name may be, on every file route', async () => {
    await ensureSession();
    const long = 'n'.repeat(300);
    for (const path of [long, `docs/${long}`, `docs/${long}/a.txt`]) {
      const q = `session_id=${sessionId}&path=${encodeURIComponent(path)}`;
      for (const route of ['/api/list', '/api/file', '/api/file/raw']) expect((await send('GET', `${route}?${q}`)).status, `${route} ${path}`).toBe(400);
      for (const [route, body] of <Array<[string, Record<string, unknown>]>>[
        ['/api/file/save', { path, content: 'x' }],
        ['/api/file/create', { path, content: 'x' }],
        ['/api/file/create-dir', { path }],
        ['/api/file/delete', { path, recursive: true }],
        ['/api/file/rename', { path, new_name: 'b.txt' }],
        ['/api/file/move', { path, dest_dir: 'docs' }],
        ['/api/file/move', { path: 'docs/a.txt', dest_dir: path }],
      ]) {
        expect((await send('POST', route, json({ session_id: sessionId, ...body }))).status, `${route} ${path}`).toBe(400);
      }
    }
    for (const workspace of [`${t.workspace}/${long}`, `/${long}`]) {
      expect((await send('POST', '/api/workspaces/add', json({ path: workspace }))).status, workspace).toBe(400);
      expect((await send('POST', '/api/session/new', json({ workspace }))).status, workspace).toBe(400);
    }
  });

  it('refuses an API key holding a line break with 400, leaving .env as it was', async () => {
    for (const api_key of ['sk-abc\nEVIL=1', 'sk-abc\r\nX=1', 'sk\u0000x', 'sk-long-enough\u0000x']) {
      const res = await send('POST', '/api/providers', json({ provider: 'openrouter', api_key }));
      expect(res.status, JSON.stringify(api_key)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/line break|newline|too short/);
    }
    const env = await readFile(join(t.hermesHome, '.env'), 'utf8').catch(() => '');
    expect(env).not.toContain('EVIL');
    expect(fiveHundreds).toEqual([]);
  });
});

describe('uploads', () => {
  const multipart = (file: Blob, filename: string, sid = sessionId) => {
    const form = new FormData();
    form.set('session_id', sid);
    form.set('file', file, filename);
    return form;
  };

  it('refuses bodies over the limit with 413, with or without Content-Length', async () => {
    await ensureSession();
    const big = new Blob([new Uint8Array(200 * 1024)]);
    expect((await send('POST', '/api/upload', { body: multipart(big, 'big.bin') })).status).toBe(413);
    // A streamed body with no length: counted as it arrives, refused once past the limit.
    const form = new Response(multipart(big, 'big.bin'));
    const stream = form.body!;
    cases++;
    const res = await t.app.request(SELF + '/api/upload', {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': form.headers.get('Content-Type')! },
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/File too large \(max 64KB\)/);
  });

  it('answers malformed multipart with 400', async () => {
    await ensureSession();
    for (const [body, type] of <Array<[string, string]>>[
      ['--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n', 'multipart/form-data; boundary=x'],
      ['garbage', 'multipart/form-data'],
      ['{}', 'application/json'],
      ['', 'multipart/form-data; boundary=y'],
    ]) {
      const res = await send('POST', '/api/upload', { body, headers: { 'Content-Type': type } });
      expect(res.status, body).toBe(400);
    }
    const noFile = new FormData();
    noFile.set('session_id', sessionId);
    expect((await send('POST', '/api/upload', { body: noFile })).status).toBe(400);
    expect((await send('POST', '/api/upload', { body: multipart(new Blob(['x']), 'a.txt', '../../x') })).status).toBe(400);
  });

  it('stores hostile file names as safe names inside the attachments folder', async () => {
    await ensureSession();
    const names = [
      '../../../evil.txt',
      '..\\..\\evil.txt',
      '/etc/passwd',
      'a\u0000b.txt',
      '<img src=x onerror=alert(1)>.html',
      '.htaccess',
      'CON',
      ' ',
      '..',
      '.',
      'x'.repeat(600) + '.txt',
      'ré sumé ✓.pdf',
      'a/b/c.txt',
    ];
    for (const name of names) {
      const res = await send('POST', '/api/upload', { body: multipart(new Blob(['hello']), name) });
      expect(res.status, name).toBe(200);
      const saved = (await res.json()) as { filename: string; path: string };
      expect(saved.filename, name).not.toMatch(/[/\\\u0000]/);
      expect(saved.filename, name).not.toMatch(/^\.\.?$/);
      expect(saved.filename.length, name).toBeLessThanOrEqual(255);
      expect(saved.path.startsWith(join(t.stateDir, 'attachments')), saved.path).toBe(true);
    }
    expect(await tree(outside)).toEqual(outsideBefore);
  });
});

describe('foreign origins and forged credentials', () => {
  it('refuses every state-changing endpoint from another origin (403, nothing changed)', async () => {
    await ensureSession();
    const before = (await t.deps.sessions.list()).total;
    for (const [method, path] of routes) {
      if (method !== 'POST') continue;
      for (const headers of <Record<string, string>[]>[
        { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
        { Origin: 'https://evil.example' },
        { Referer: 'https://evil.example/x' },
        { 'Sec-Fetch-Site': 'cross-site' },
        { Origin: 'null' },
      ]) {
        const res = await send('POST', path, {
          body: JSON.stringify({ session_id: sessionId, title: 'pwned', password: 'x' }),
          headers: { 'Content-Type': 'application/json', ...headers },
        });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect((await t.deps.sessions.list()).total).toBe(before);
    expect((await t.deps.sessions.get(sessionId))?.title).not.toBe('pwned');
  });

  it('with a password set, refuses every private endpoint without a valid cookie', async () => {
    await ensureSession();
    await t.setPassword('hostile suite password');
    const { createApp } = await import('../../src/app.js');
    // A fresh app: the running one caches "no password" for a few seconds.
    t.app = createApp(t.deps);
    try {
      const { cookie } = await t.signIn('hostile suite password');
      const [token] = cookie.split('=')[1]!.split('.');
      const forged = [
        undefined,
        'hermes_session=',
        `hermes_session=${token}`,
        `hermes_session=${token}.${'0'.repeat(64)}`,
        `hermes_session=${'f'.repeat(64)}.${'0'.repeat(64)}`,
        'hermes_session=%00',
        `hermes_session=${'a'.repeat(10_000)}`,
      ];
      for (const [method, path] of routes) {
        if (path === '/api/auth/login' || path === '/api/auth/status') continue;
        // A share link's snapshot is public by design (tests/share covers it); its create/revoke are not.
        if (method === 'GET' && path === '/api/share/:token') continue;
        for (const c of forged) {
          const res = await send(method, `${path}?session_id=${sessionId}`, { headers: c ? { Cookie: c } : {}, ...(method === 'POST' ? { body: '{}' } : {}) });
          expect(res.status, `${method} ${path} ${c?.slice(0, 40)}`).toBe(401);
        }
      }
    } finally {
      await t.deps.settings.write({ ...(await t.deps.settings.read()), password_hash: null });
      t.app = createApp(t.deps);
    }
  });
});

describe('fuzz (fast-check)', () => {
  const keyPool = [
    'session_id',
    'title',
    'path',
    'name',
    'new_name',
    'content',
    'message',
    'model',
    'workspace',
    'project_id',
    'stream_id',
    'keep_count',
    'pinned',
    'archived',
    'enabled',
    'choice',
    'response',
    'color',
    'origin',
    'ttl_seconds',
    'password',
    'theme',
    'paths',
    'dest_dir',
    'recursive',
    'attachments',
    'expected_updated_at',
    'format',
    'q',
    'msg_limit',
    'after_seq',
    '_set_password',
    '_current_password',
    '_clear_password',
    'default_workspace',
    'send_key',
    'bot_name',
  ];
  const nasty = fc.constantFrom(
    '../',
    '..\\',
    '%2e%2e/',
    '\u0000',
    '/etc/passwd',
    '<script>',
    "'; DROP TABLE",
    '${x}',
    '__proto__',
    'constructor',
    '🦄',
    '\u202e',
    ' ',
    '',
  );
  const str = fc.oneof(fc.string({ maxLength: 40 }), nasty, fc.constant(''), fc.stringMatching(/^[0-9a-f]{12}$/));
  const value = fc.oneof(
    str,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(str, { maxLength: 3 }),
    fc.dictionary(str, str, { maxKeys: 3 }),
  );

  it('POST bodies: no 5xx, no crash, nothing written outside', async () => {
    await ensureSession();
    const posts = routes.filter(([m, p]) => m === 'POST' && p !== '/api/upload' && p !== '/api/auth/login').map(([, p]) => p);
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom(...keyPool), value, { maxKeys: 5 }).map((o) => JSON.stringify({ session_id: sessionId, ...o })),
      fc.dictionary(fc.constantFrom(...keyPool), value, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), body, async (path, text) => {
        const res = await send('POST', path, json(text));
        return res.status < 500;
      }),
      { numRuns: 1500, seed: 424242 },
    );
    expect(fiveHundreds).toEqual([]);
  });

  it('GET query strings: no 5xx', async () => {
    const gets = routes.filter(([m, p]) => m === 'GET' && p !== '/api/chat/stream').map(([, p]) => p);
    const query = fc.dictionary(fc.constantFrom(...keyPool), str, { maxKeys: 4 }).map((o) => new URLSearchParams(o).toString());
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...gets), query, async (path, qs) => (await send('GET', `${path}?${qs}`)).status < 500),
      { numRuns: 1000, seed: 171717 },
    );
    expect(fiveHundreds).toEqual([]);
  });

  it('left everything outside the workspace and state directory as it was', async () => {
    expect(await tree(outside)).toEqual(outsideBefore);
    expect((await readdir('/')).sort()).toEqual(rootBefore);
    expect((await readdir(t.dir)).sort()).toEqual(['hermes', 'public', 'state', 'workspace']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
