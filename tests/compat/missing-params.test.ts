import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * What the incumbent answers when a request leaves out what it needs (api/routes.py,
 * api/upload.py): status and text per route, as its clients show or branch on them.
 */
let t: TestApp;
let sid: string;
beforeAll(async () => {
  t = await makeTestApp();
  sid = await t.newSession();
});
afterAll(async () => t.close());

const REQUIRE = (...fields: string[]) => `Missing required field(s): ${fields.join(', ')}`;

describe('session routes without session_id', () => {
  const gets: Array<[string, string]> = [
    ['/api/session', 'session_id is required'],
    ['/api/session/export', 'session_id is required'],
    ['/api/session/status', 'Missing session_id'],
    ['/api/session/usage', 'Missing session_id'],
    ['/api/session/yolo', 'Missing session_id'],
    ['/api/session/compress/status', 'session_id is required'],
  ];
  it.each(gets)('GET %s is 400 "%s"', async (path, error) => {
    expect(await t.call('GET', `${path}?extra=1`)).toMatchObject({ status: 400, body: { error } });
  });

  const posts: Array<[string, string]> = [
    ['rename', REQUIRE('session_id', 'title')],
    ['title/regenerate', REQUIRE('session_id')],
    ['update', REQUIRE('session_id')],
    ['clear', REQUIRE('session_id')],
    ['truncate', REQUIRE('session_id')],
    ['branch', REQUIRE('session_id')],
    ['retry', REQUIRE('session_id')],
    ['undo', REQUIRE('session_id')],
    ['yolo', REQUIRE('session_id')],
    ['pin', REQUIRE('session_id')],
    ['archive', REQUIRE('session_id')],
    ['move', REQUIRE('session_id')],
    ['compress', REQUIRE('session_id')],
    ['compress/start', REQUIRE('session_id')],
    ['delete', 'session_id is required'],
    ['duplicate', 'session_id is required'],
  ];
  it.each(posts)('POST /api/session/%s is 400 "%s"', async (op, error) => {
    expect(await t.call('POST', `/api/session/${op}`, { csrf: 'x' })).toMatchObject({ status: 400, body: { error } });
  });

  it('rename without a title names only the title; truncate without keep_count names it', async () => {
    expect((await t.call('POST', '/api/session/rename', { session_id: sid })).body.error).toBe(REQUIRE('title'));
    expect(await t.call('POST', '/api/session/truncate', { session_id: sid })).toMatchObject({ status: 400, body: { error: REQUIRE('keep_count') } });
  });

  it('move without project_id takes the session out of its project; yolo without enabled turns it on', async () => {
    const moved = await t.call('POST', '/api/session/move', { session_id: sid });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.session.project_id ?? null).toBeNull();
    const yolo = await t.call('POST', '/api/session/yolo', { session_id: sid });
    expect(yolo).toMatchObject({ status: 200, body: { yolo_enabled: true } });
    expect((await t.call('GET', `/api/session/yolo?session_id=${sid}`)).body.yolo_enabled).toBe(true);
    await t.call('POST', '/api/session/yolo', { session_id: sid, enabled: false });
  });
});

describe('file routes without their parameters', () => {
  it('GET /api/file: the session first, then "path is required"', async () => {
    expect(await t.call('GET', '/api/file')).toMatchObject({ status: 400, body: { error: 'session_id is required' } });
    expect(await t.call('GET', '/api/file?session_id=nosuchsession')).toMatchObject({ status: 404, body: { error: 'Session not found' } });
    expect(await t.call('GET', `/api/file?session_id=${sid}`)).toMatchObject({ status: 400, body: { error: 'path is required' } });
  });

  it('GET /api/file/raw: no path, no such file and a folder are 404 "not found"', async () => {
    expect(await t.call('GET', '/api/file/raw')).toMatchObject({ status: 400, body: { error: 'session_id is required' } });
    for (const q of ['', '&path=', '&path=nope.txt', '&path=.']) {
      expect(await t.call('GET', `/api/file/raw?session_id=${sid}${q}`), q).toMatchObject({ status: 404, body: { error: 'not found' } });
    }
    await writeFile(join(t.workspace, 'raw.txt'), 'raw');
    const ok = await t.call('GET', `/api/file/raw?session_id=${sid}&path=raw.txt`);
    expect(ok.status).toBe(200);
  });

  it('POST /api/upload: the file first ("No file field in request"), then the session (404 "Session not found")', async () => {
    const upload = async (form: FormData) => {
      const res = await t.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: 'http://localhost' } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const noFile = new FormData();
    expect(await upload(noFile)).toEqual({ status: 400, body: { error: 'No file field in request' } });
    const noSession = new FormData();
    noSession.set('file', new Blob(['x']), 'a.txt');
    expect(await upload(noSession)).toEqual({ status: 404, body: { error: 'Session not found' } });
    const unknown = new FormData();
    unknown.set('file', new Blob(['x']), 'a.txt');
    unknown.set('session_id', 'nosuchsession');
    expect(await upload(unknown)).toEqual({ status: 404, body: { error: 'Session not found' } });
  });
});
