import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { redactingLogger } from '../../src/http/redacting-logger.js';
import { redactionEnabled } from '../../src/http/redaction.js';
import { MemorySettingsStore } from '../../src/adapters/storage/memory/memory-stores.js';

import { DB, JWT, KEY, PEM, PEM_BODY, SHORT_KEY, allPresent, leaked } from '../helpers/secrets.js';

const PADDING = 'Some ordinary words that push the secret away from the search match so the preview is cut. '.repeat(2);

function secretSession() {
  return {
    title: `Deploy with ${KEY}`,
    messages: [
      {
        role: 'user',
        content: `My key is ${KEY} and the database is ${DB}`,
        timestamp: 1,
        attachments: [{ path: 'notes.txt', note: `OPENAI_API_KEY=${SHORT_KEY}` }],
      },
      {
        role: 'assistant',
        content: 'I will write the key file.',
        reasoning: `The session token ${JWT} is a JWT.`,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'write_file', arguments: JSON.stringify({ path: 'id_rsa', content: PEM }) } }],
        timestamp: 2,
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'write_file', content: JSON.stringify({ ok: true, written: PEM, db: DB }), timestamp: 3 },
      { role: 'assistant', content: `${KEY} ${PADDING} findme here`, timestamp: 4 },
    ],
    tool_calls: [{ name: 'write_file', args: { content: PEM }, result: DB }],
  };
}

describe.each(['fs', 'memory'] as const)('redaction of stored sessions (%s storage)', (storage) => {
  let t: TestApp;
  let sid: string;
  beforeEach(async () => {
    t = await makeTestApp({ storage });
    const r = await t.call('POST', '/api/session/import', secretSession());
    expect(r.status).toBe(200);
    expect(leaked(JSON.stringify(r.body))).toEqual([]);
    sid = r.body.session.session_id;
  });
  afterEach(async () => t.close());

  it('is on by default and shown in settings', async () => {
    const r = await t.call('GET', '/api/settings');
    expect(r.body.api_redact_enabled).toBe(true);
  });

  it('GET /api/session masks messages, reasoning, tool calls, tool results and the title', async () => {
    const r = await t.call('GET', `/api/session?session_id=${sid}`);
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(leaked(text)).toEqual([]);
    const s = r.body.session;
    expect(s.title).toBe('Deploy with sk-proj-***');
    expect(s.messages[0].content).toBe('My key is sk-proj-*** and the database is postgres://u:***@h/db');
    expect(s.messages[1].reasoning).toBe('The session token eyJ*** is a JWT.');
    expect(JSON.parse(s.messages[1].tool_calls[0].function.arguments)).toEqual({
      path: 'id_rsa',
      content: '-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----',
    });
    expect(JSON.parse(s.messages[2].content)).toEqual({
      ok: true,
      written: '-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----',
      db: 'postgres://u:***@h/db',
    });
    expect(s.tool_calls[0].result).toBe('postgres://u:***@h/db');
    // A window of the transcript is masked too.
    const tail = await t.call('GET', `/api/session?session_id=${sid}&msg_limit=1`);
    expect(tail.body.session.messages).toHaveLength(1);
    expect(leaked(JSON.stringify(tail.body))).toEqual([]);
  });

  it('GET /api/sessions masks titles, and the cached body and its ETag follow the setting', async () => {
    const first = await t.call('GET', '/api/sessions');
    expect(first.body.sessions.find((r: any) => r.session_id === sid).title).toBe('Deploy with sk-proj-***');
    expect(leaked(JSON.stringify(first.body))).toEqual([]);
    const etag = first.res.headers.get('ETag')!;
    // The same revision answers 304 to the same ETag…
    const again = await t.app.request('/api/sessions', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    // …until the setting changes: then the body (and its ETag) is another variant.
    expect((await t.call('POST', '/api/settings', { api_redact_enabled: false })).status).toBe(200);
    const plain = await t.app.request('/api/sessions', { headers: { 'If-None-Match': etag } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('ETag')).not.toBe(etag);
    const body = await plain.json();
    expect(body.sessions.find((r: any) => r.session_id === sid).title).toBe(`Deploy with ${KEY}`);
  });

  it('search masks titles and previews, and never shows half a key cut by the preview', async () => {
    const byTitle = await t.call('GET', '/api/sessions/search?q=deploy');
    expect(byTitle.body.sessions[0]).toMatchObject({
      session_id: sid,
      match_type: 'title',
      title: 'Deploy with sk-proj-***',
      match_preview: 'Deploy with sk-proj-***',
    });
    const byContent = await t.call('GET', '/api/sessions/search?q=findme&content=1');
    const hit = byContent.body.sessions.find((h: any) => h.session_id === sid);
    expect(hit.match_type).toBe('content');
    // The raw preview would start in the middle of the key (too little of it to recognise).
    expect(hit.match_preview).toContain('findme');
    expect(hit.match_preview).not.toMatch(/[A-Za-z0-9]{6,}Op3rSt5vWx7z|Xy9aB3|lMn9pQ/);
    expect(leaked(JSON.stringify(byContent.body))).toEqual([]);
    const all = await t.call('GET', '/api/sessions/search?q=');
    expect(leaked(JSON.stringify(all.body))).toEqual([]);
  });

  it('exports (json and md) are masked', async () => {
    const json = await t.app.request(`/api/session/export?session_id=${sid}`);
    expect(json.status).toBe(200);
    const jsonText = await json.text();
    expect(leaked(jsonText)).toEqual([]);
    expect(JSON.parse(jsonText).messages[0].content).toBe('My key is sk-proj-*** and the database is postgres://u:***@h/db');
    const md = await (await t.app.request(`/api/session/export?session_id=${sid}&format=md`)).text();
    expect(md).toContain('# Deploy with sk-proj-***');
    expect(md).toContain('-----BEGIN RSA PRIVATE KEY-----');
    expect(leaked(md)).toEqual([]);
  });

  it('session operations answer with masked sessions and rows', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['/api/session/pin', { session_id: sid, pinned: true }],
      ['/api/session/archive', { session_id: sid, archived: false }],
      ['/api/session/move', { session_id: sid, project_id: null }],
      ['/api/session/update', { session_id: sid, model: 'm' }],
      ['/api/session/duplicate', { session_id: sid }],
      ['/api/session/branch', { session_id: sid }],
      ['/api/session/truncate', { session_id: sid, keep_count: 4 }],
      ['/api/session/rename', { session_id: sid, title: `Renamed ${KEY} now` }],
    ];
    for (const [path, body] of calls) {
      const r = await t.call('POST', path, body);
      expect(r.status, path).toBe(200);
      expect(leaked(JSON.stringify(r.body)), path).toEqual([]);
    }
  });

  it('storage keeps the originals', async () => {
    const stored = await t.deps.sessions.get(sid);
    expect(allPresent(JSON.stringify(stored))).toBe(true);
    expect(stored!.title).toBe(`Deploy with ${KEY}`);
    if (storage === 'fs') {
      const onDisk = await readFile(join(t.stateDir, 'sessions', `${sid}.json`), 'utf8');
      expect(allPresent(onDisk)).toBe(true);
      expect(JSON.parse(onDisk).messages[0].content).toBe(`My key is ${KEY} and the database is ${DB}`);
    }
  });

  it('with api_redact_enabled=false nothing is masked', async () => {
    const r = await t.call('POST', '/api/settings', { api_redact_enabled: false });
    expect(r.status).toBe(200);
    expect(r.body.api_redact_enabled).toBe(false);
    const session = await t.call('GET', `/api/session?session_id=${sid}`);
    expect(allPresent(JSON.stringify(session.body))).toBe(true);
    expect(session.body.session.title).toBe(`Deploy with ${KEY}`);
    const list = await t.call('GET', '/api/sessions');
    expect(list.body.sessions[0].title).toBe(`Deploy with ${KEY}`);
    expect(allPresent(await (await t.app.request(`/api/session/export?session_id=${sid}`)).text())).toBe(true);
    const md = await (await t.app.request(`/api/session/export?session_id=${sid}&format=md`)).text();
    expect(md).toContain(`# Deploy with ${KEY}`);
    expect(md).toContain(PEM_BODY.replace(/\n/g, '\\n'));
    const search = await t.call('GET', '/api/sessions/search?q=deploy');
    expect(search.body.sessions[0].title).toBe(`Deploy with ${KEY}`);
    // And on again.
    await t.call('POST', '/api/settings', { api_redact_enabled: true });
    expect(leaked(JSON.stringify((await t.call('GET', `/api/session?session_id=${sid}`)).body))).toEqual([]);
  });

  it('refuses a non-boolean api_redact_enabled', async () => {
    const r = await t.call('POST', '/api/settings', { api_redact_enabled: 'no' });
    expect(r.status).toBe(400);
  });
});

describe('redactionEnabled', () => {
  it('reads the stored setting: only an explicit off turns redaction off', async () => {
    const settings = new MemorySettingsStore();
    expect(await redactionEnabled(settings)).toBe(true);
    for (const [value, expected] of [
      [false, false],
      [true, true],
      ['false', false],
      [0, false],
      ['0', false],
      [null, true],
      ['yes', true],
    ] as const) {
      await settings.write({ api_redact_enabled: value });
      expect(await redactionEnabled(settings), String(value)).toBe(expected);
    }
  });

  it('keeps redaction on when the settings cannot be read', async () => {
    expect(
      await redactionEnabled({
        read: async () => {
          throw new Error('EACCES');
        },
        write: async () => {},
      }),
    ).toBe(true);
  });
});

describe('redactingLogger', () => {
  it('masks every string in every record, nested ones too, and leaves the rest as it is', () => {
    const info: Record<string, unknown>[] = [];
    const error: Record<string, unknown>[] = [];
    const logger = redactingLogger({ info: (r) => info.push(r), error: (r) => error.push(r) });
    const plain = { msg: 'request', method: 'GET', path: '/api/sessions', status: 200, ms: 1.5 };
    logger.info(plain);
    logger.info({ msg: 'provider call', url: DB, headers: { Authorization: `Bearer ${KEY}` }, list: [JWT, 3], ok: true });
    logger.error({ msg: 'unhandled error', error: `Error: could not parse ${PEM}\n    at x (file.js:1:1)` });
    expect(info[0]).toBe(plain); // nothing to mask: the record itself is passed on
    expect(info[1]).toEqual({
      msg: 'provider call',
      url: 'postgres://u:***@h/db',
      headers: { Authorization: 'Bearer sk-proj-***' },
      list: ['eyJ***', 3],
      ok: true,
    });
    expect(error[0]!.error).toBe('Error: could not parse -----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----\n    at x (file.js:1:1)');
    expect(leaked(JSON.stringify([info, error]))).toEqual([]);
  });
});
