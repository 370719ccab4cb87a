import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let sid: string;
/** A directory outside every allowed root. */
let outside: string;

/** 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const DIGITS = '0123456789abcdefghij';

beforeEach(async () => {
  t = await makeTestApp();
  sid = await t.newSession();
  outside = await mkdtemp(join(tmpdir(), 'hermes-media-outside-'));
  await writeFile(join(outside, 'secret.png'), PNG);
  await writeFile(join(t.workspace, 'chart.png'), PNG);
  await writeFile(join(t.workspace, 'digits.txt'), DIGITS);
  await writeFile(join(t.workspace, 'page.html'), '<script>alert(1)</script>');
  await writeFile(join(t.workspace, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await writeFile(join(t.workspace, 'doc.pdf'), '%PDF-1.4\n');
  await writeFile(join(t.workspace, 'voice.opus'), 'OggS');
  await writeFile(join(t.workspace, 'data.csv'), 'a,b\n1,2\n');
});

afterEach(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const media = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.request(`/api/media?${new URLSearchParams({ session_id: sid, ...params })}`, { headers });

async function expectError(res: Response, status: number, message?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = (await res.json()) as { error: string };
  expect(typeof body.error).toBe('string');
  if (message) expect(body.error).toBe(message);
}

describe('GET /api/media: roots', () => {
  it('serves a workspace file by relative and absolute path, with its bytes and type', async () => {
    for (const path of ['chart.png', join(t.workspace, 'chart.png')]) {
      const res = await media({ path });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('content-length')).toBe(String(PNG.length));
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    }
  });

  it("serves the session's uploads, by absolute path and by name, but not another session's", async () => {
    const saved = await t.deps.attachments.save(sid, 'shot.png', new Uint8Array(PNG), 'image/png');
    for (const path of [saved.path, 'shot.png']) {
      const res = await media({ path });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    }
    const other = await t.newSession();
    const res = await t.app.request(`/api/media?${new URLSearchParams({ session_id: other, path: saved.path })}`);
    await expectError(res, 403, 'Path not in allowed location');
  });

  it("serves Hermes' media caches (new and legacy layout), not the rest of the Hermes home", async () => {
    for (const dir of ['cache/images', 'cache/audio', 'cache/screenshots', 'image_cache', 'browser_screenshots']) {
      await mkdir(join(t.hermesHome, dir), { recursive: true });
      await writeFile(join(t.hermesHome, dir, 'out.png'), PNG);
      const res = await media({ path: join(t.hermesHome, dir, 'out.png') });
      expect(res.status, dir).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      await res.arrayBuffer();
    }
    await writeFile(join(t.hermesHome, 'notes.png'), PNG);
    await expectError(await media({ path: join(t.hermesHome, 'notes.png') }), 403);
    await expectError(await media({ path: join(t.hermesHome, 'config.yaml') }), 403);
  });

  it('serves folders the operator allowed (MEDIA_ALLOWED_ROOTS, HERMES_MEDIA_ALLOW_DIRS)', async () => {
    const more = await mkdtemp(join(tmpdir(), 'hermes-media-more-'));
    await writeFile(join(more, 'b.png'), PNG);
    const t2 = await makeTestApp({ env: { MEDIA_ALLOWED_ROOTS: `relative/ignored:${outside}`, HERMES_MEDIA_ALLOW_DIRS: more } });
    try {
      const s2 = await t2.newSession();
      for (const path of [join(outside, 'secret.png'), join(more, 'b.png')]) {
        const res = await t2.app.request(`/api/media?${new URLSearchParams({ session_id: s2, path })}`);
        expect(res.status, path).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
      }
    } finally {
      await t2.close();
      await rm(more, { recursive: true, force: true });
    }
  });

  it('refuses Hermes secrets even inside a workspace that contains the home', async () => {
    const home = join(t.workspace, 'hh');
    await mkdir(join(home, 'sessions'), { recursive: true });
    await writeFile(join(home, '.env'), 'OPENAI_API_KEY=sk-secret');
    await writeFile(join(home, 'sessions', 's.json'), '{}');
    const t2 = await makeTestApp({ env: { HERMES_HOME: home } });
    try {
      const s2 = await t2.newSession({ workspace: t.workspace });
      for (const path of ['hh/.env', 'hh/sessions/s.json', join(home, '.env')]) {
        const res = await t2.app.request(`/api/media?${new URLSearchParams({ session_id: s2, path })}`);
        await expectError(res, 403, 'Path not in allowed location');
      }
    } finally {
      await t2.close();
    }
  });
});

describe('GET /api/media: traversal', () => {
  it('refuses `..`, absolute paths outside every root and symlinks that lead out', async () => {
    await symlink(join(outside, 'secret.png'), join(t.workspace, 'link.png'));
    await symlink(outside, join(t.workspace, 'linkdir'));
    const cases = [
      '../secret.png',
      `../${outside.split('/').pop()}/secret.png`,
      join(t.workspace, '..', 'x.png'),
      join(outside, 'secret.png'),
      '/etc/passwd',
      'link.png',
      'linkdir/secret.png',
      join(t.workspace, 'link.png'),
    ];
    for (const path of cases) {
      const res = await media({ path });
      expect(res.status, path).toBe(403);
      await expectError(res, 403);
    }
  });

  it('a symlink that stays inside the workspace is served', async () => {
    await symlink(join(t.workspace, 'chart.png'), join(t.workspace, 'alias.png'));
    const res = await media({ path: 'alias.png' });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });
});

describe('GET /api/media: ranges', () => {
  const text = async (res: Response) => Buffer.from(await res.arrayBuffer()).toString();

  it('bytes=0-9', async () => {
    const res = await media({ path: 'digits.txt' }, { Range: 'bytes=0-9' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 0-9/20');
    expect(res.headers.get('content-length')).toBe('10');
    expect(await text(res)).toBe('0123456789');
  });

  it('a suffix, an open end and an end past the size', async () => {
    let res = await media({ path: 'digits.txt' }, { Range: 'bytes=-5' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 15-19/20');
    expect(await text(res)).toBe('fghij');
    res = await media({ path: 'digits.txt' }, { Range: 'bytes=12-' });
    expect(res.headers.get('content-range')).toBe('bytes 12-19/20');
    expect(await text(res)).toBe('cdefghij');
    res = await media({ path: 'digits.txt' }, { Range: 'bytes=18-999' });
    expect(res.headers.get('content-range')).toBe('bytes 18-19/20');
    expect(await text(res)).toBe('ij');
  });

  it('unsatisfiable → 416 with the size; a header that does not parse is ignored', async () => {
    let res = await media({ path: 'digits.txt' }, { Range: 'bytes=20-' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */20');
    res = await media({ path: 'digits.txt' }, { Range: 'bytes=-0' });
    expect(res.status).toBe(416);
    res = await media({ path: 'digits.txt' }, { Range: 'pages=1-2' });
    expect(res.status).toBe(200);
    expect(await text(res)).toBe(DIGITS);
  });
});

describe('GET /api/media: types and headers', () => {
  it('HTML and SVG carry CSP sandbox and download unless asked inline; the app CSP is not added', async () => {
    const cases: [string, string][] = [
      ['page.html', 'text/html; charset=utf-8'],
      ['logo.svg', 'image/svg+xml'],
    ];
    for (const [path, type] of cases) {
      let res = await media({ path });
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
      await res.arrayBuffer();
      res = await media({ path, inline: '1' });
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
      await res.arrayBuffer();
    }
  });

  it('images are inline, players and PDFs inline only when asked, download forces attachment', async () => {
    const disp = async (params: Record<string, string>) => {
      const res = await media(params);
      await res.arrayBuffer();
      return [res.headers.get('content-type'), res.headers.get('content-disposition')?.split(';')[0]];
    };
    expect(await disp({ path: 'chart.png' })).toEqual(['image/png', 'inline']);
    expect(await disp({ path: 'chart.png', download: '1' })).toEqual(['image/png', 'attachment']);
    expect(await disp({ path: 'voice.opus' })).toEqual(['audio/ogg', 'attachment']);
    expect(await disp({ path: 'voice.opus', inline: '1' })).toEqual(['audio/ogg', 'inline']);
    expect(await disp({ path: 'doc.pdf', inline: '1' })).toEqual(['application/pdf', 'inline']);
    expect(await disp({ path: 'data.csv', inline: '1' })).toEqual(['text/csv; charset=utf-8', 'inline']);
    const pdf = await media({ path: 'doc.pdf', inline: '1' });
    await pdf.arrayBuffer();
    // The browser's PDF viewer cannot run sandboxed; only this app may frame it.
    expect(pdf.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    expect(pdf.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('names the file safely: an ASCII fallback and the exact UTF-8 name', async () => {
    const name = 'résumé "final";%.png';
    await writeFile(join(t.workspace, name), PNG);
    const res = await media({ path: name });
    await res.arrayBuffer();
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="r_sum_ _final___.png"; filename*=UTF-8''${encodeURIComponent(name)}`);
  });

  it('revalidates with the ETag', async () => {
    const first = await media({ path: 'chart.png' });
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    const again = await media({ path: 'chart.png' }, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
  });
});

describe('GET /api/media: HEAD and deployments without files', () => {
  it('HEAD answers the headers a player asks for, without a body', async () => {
    const res = await t.app.request(`/api/media?${new URLSearchParams({ session_id: sid, path: 'digits.txt' })}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('20');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('501 {unavailable} where the runtime has no media files (Workers)', async () => {
    const app = createApp({ ...t.deps, media: undefined });
    const res = await app.request(`/api/media?${new URLSearchParams({ session_id: sid, path: 'chart.png' })}`);
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ unavailable: true });
  });
});

describe('GET /api/media: bad input', () => {
  it('400 without path or session, 404 for an unknown session or a missing file', async () => {
    await expectError(await t.app.request(`/api/media?session_id=${sid}`), 400, 'path parameter required');
    await expectError(await t.app.request('/api/media?path=chart.png'), 400, 'session_id is required');
    await expectError(await t.app.request('/api/media?path=chart.png&session_id=..%2Fx'), 400);
    await expectError(await t.app.request('/api/media?path=chart.png&session_id=nosuchsession'), 404, 'Session not found');
    await expectError(await media({ path: 'missing.png' }), 404, 'File not found');
    await expectError(await media({ path: join(t.workspace, 'missing.png') }), 404, 'File not found');
    await expectError(await media({ path: '.' }), 404);
  });
});
