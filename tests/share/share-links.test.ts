import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { JWT, KEY, leaked } from '../helpers/secrets.js';

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** A session whose transcript names secrets, local paths, an uploaded image, a text upload and workspace media. */
async function richSession(app: TestApp): Promise<string> {
  const id = await app.newSession();
  const session = (await app.deps.sessions.get(id))!;
  const ws = session.workspace!;
  await mkdir(ws, { recursive: true });
  await writeFile(join(ws, 'chart.png'), PNG);
  // Over the 512 KiB cap: never inlined.
  await writeFile(join(ws, 'huge.png'), Buffer.concat([PNG, Buffer.alloc(600 * 1024)]));
  // Outside the workspace (reached by `..`), and an SVG and a script named .png inside it: never inlined.
  await writeFile(join(ws, '..', 'outside.png'), PNG);
  await writeFile(join(ws, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await writeFile(join(ws, 'fake.png'), '#!/bin/sh\necho not an image');
  const pic = await app.deps.attachments.save(id, 'photo.png', new Uint8Array(PNG), 'image/png');
  const notes = await app.deps.attachments.save(id, 'notes.txt', new TextEncoder().encode('private notes'), 'text/plain');
  await app.deps.sessions.appendMessages(id, [
    {
      role: 'user',
      content: `My key is ${KEY}, look at ${ws}/src/main.ts and ${app.hermesHome}/config.yaml\n\n[Attached files: photo.png, notes.txt]`,
      attachments: [
        { filename: 'photo.png', path: pic.path, is_image: true },
        { filename: 'notes.txt', path: notes.path },
      ],
      timestamp: 1000,
    },
    {
      role: 'assistant',
      content: 'Here is the chart: MEDIA:chart.png and the big one MEDIA:huge.png and MEDIA:/etc/passwd MEDIA:../outside.png MEDIA:logo.svg MEDIA:fake.png',
      tool_calls: [{ function: { name: 'terminal', arguments: '{"cmd":"cat secrets"}' } }],
    },
    { role: 'tool', name: 'terminal', content: `token=${JWT}` },
    { role: 'assistant', content: `Done. Bearer ${JWT}`, reasoning: 'thinking about /secret/reasoning' },
  ]);
  return id;
}

describe('share links: create, read, revoke', () => {
  it('creates a link whose snapshot masks secrets, scrubs paths, inlines small images and notes the rest', async () => {
    t = await makeTestApp();
    const id = await richSession(t);
    const created = await t.call('POST', '/api/share/create', { session_id: id, extra_field_the_incumbent_sends: true });
    expect(created.status).toBe(200);
    const share = created.body.share;
    expect(created.body.ok).toBe(true);
    expect(share.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(share.url).toBe(`/share/${share.token}`);
    expect(share.message_count).toBe(3); // two assistant answers and the user message; the tool result is left out
    expect(created.body.session).toMatchObject({ session_id: id, share_token: share.token, share: { token: share.token, url: share.url } });

    const read = await t.call('GET', `/api/share/${share.token}`);
    expect(read.status).toBe(200);
    expect(read.res.headers.get('X-Robots-Tag')).toBe('noindex, nofollow');
    expect(read.res.headers.get('Cache-Control')).toBe('no-store');
    expect(Object.keys(read.body.share).sort()).toEqual(['created_at', 'message_count', 'messages', 'title', 'updated_at']);
    const text = JSON.stringify(read.body);
    expect(leaked(text)).toEqual([]);
    const ws = (await t.deps.sessions.get(id))!.workspace!;
    expect(text).not.toContain(ws);
    expect(text).not.toContain(t.hermesHome);
    expect(text).not.toContain('/etc/passwd');
    expect(text).not.toContain('cat secrets');
    expect(text).not.toContain('/secret/reasoning');
    const [user, answer] = read.body.share.messages;
    expect(user.content).toContain('<workspace>/src/main.ts');
    expect(user.content).toContain('<hermes-home>/config.yaml');
    expect(user.content).toContain(`![photo.png](data:image/png;base64,${PNG.toString('base64')})`);
    expect(user.content).toContain('*[Local attachment omitted from public share]*'); // notes.txt
    expect(user.content).not.toContain('[Attached files:');
    expect(user.timestamp).toBe(1000);
    expect(answer.content).toContain(`![chart.png](data:image/png;base64,${PNG.toString('base64')})`);
    // huge.png, /etc/passwd, ../outside.png, logo.svg and fake.png all become the note.
    expect(answer.content.split('Local attachment omitted').length - 1).toBe(5);
    expect(text).not.toContain('alert(1)');
    expect(text).not.toContain('not an image');
    expect(text.split('data:image/png;base64').length - 1).toBe(2); // photo.png and chart.png only
  });

  it('shows the link on the session answer, refreshes under the same token, and 404s once revoked', async () => {
    t = await makeTestApp();
    const id = await richSession(t);
    const before = await t.call('GET', `/api/session?session_id=${id}`);
    expect(before.body.session).toMatchObject({ share_token: null, share: null });
    const first = (await t.call('POST', '/api/share/create', { session_id: id })).body.share;
    await t.deps.sessions.appendMessages(id, [{ role: 'user', content: 'one more' }]);
    const again = (await t.call('POST', '/api/share/create', { session_id: id })).body.share;
    expect(again.token).toBe(first.token);
    expect(again.created_at).toBe(first.created_at);
    expect(again.message_count).toBe(4);
    const shown = await t.call('GET', `/api/session?session_id=${id}&messages=0`);
    expect(shown.body.session.share).toEqual({ token: first.token, url: `/share/${first.token}`, created_at: first.created_at });
    expect(shown.body.session.share_created_at).toBe(first.created_at);

    const revoked = await t.call('POST', '/api/share/revoke', { session_id: id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.session).toMatchObject({ share_token: null, share: null });
    const gone = await t.call('GET', `/api/share/${first.token}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Shared conversation not found' });
    const page = await t.app.request(`/share/${first.token}`);
    expect(page.status).toBe(404);
    expect((await t.call('GET', `/api/session?session_id=${id}`)).body.session.share).toBeNull();
    // Sharing again after a stop makes a new link; the old one stays dead.
    const fresh = (await t.call('POST', '/api/share/create', { session_id: id })).body.share;
    expect(fresh.token).not.toBe(first.token);
    expect((await t.call('GET', `/api/share/${first.token}`)).status).toBe(404);
    expect((await t.call('GET', `/api/share/${fresh.token}`)).status).toBe(200);
  });

  it('answers the incumbent’s errors: missing id 400, unknown session 404, nothing to share 400, unknown token 404', async () => {
    t = await makeTestApp();
    const missing = await t.call('POST', '/api/share/create', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'session_id is required' });
    expect((await t.call('POST', '/api/share/create', { session_id: 'nope' })).status).toBe(404);
    expect((await t.call('POST', '/api/share/revoke', { session_id: 'nope' })).status).toBe(404);
    const empty = await t.newSession();
    const nothing = await t.call('POST', '/api/share/create', { session_id: empty });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error).toBe('This conversation has no shareable messages yet.');
    // Stopping a link that does not exist is fine, as there.
    expect((await t.call('POST', '/api/share/revoke', { session_id: empty })).status).toBe(200);
    expect((await t.call('GET', '/api/share/AAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await t.call('GET', '/api/share/..%2F..%2Fsettings')).status).toBe(404);
  });

  it('masks secrets even with api_redact_enabled off', async () => {
    t = await makeTestApp();
    await t.call('POST', '/api/settings', { api_redact_enabled: false });
    const id = await richSession(t);
    const token = (await t.call('POST', '/api/share/create', { session_id: id })).body.share.token;
    const text = (await t.call('GET', `/api/share/${token}`)).res;
    expect(leaked(await text.text())).toEqual([]);
  });
});

describe('the share page', () => {
  it('is whole server-rendered HTML: noindex, no script, its own CSP, images inline, no secret or path', async () => {
    t = await makeTestApp();
    const id = await richSession(t);
    const token = (await t.call('POST', '/api/share/create', { session_id: id })).body.share.token;
    const res = await t.app.request(`/share/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.headers.get('X-Robots-Tag')).toBe('noindex, nofollow');
    expect(res.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(res.headers.get('Content-Security-Policy')).not.toContain('script-src');
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('My key is sk-proj-***');
    expect(html).toContain(`<img src="data:image/png;base64,${PNG.toString('base64')}" alt="photo.png"`);
    expect(html).toContain(`<img src="data:image/png;base64,${PNG.toString('base64')}" alt="chart.png"`);
    expect(html).toContain('Local attachment omitted from public share');
    expect(html).toContain('&#60;workspace&#62;/src/main.ts');
    expect(html).toContain('Shared read-only snapshot');
    expect(leaked(html)).toEqual([]);
    expect(html).not.toContain((await t.deps.sessions.get(id))!.workspace!);
    expect(html).not.toMatch(/<img[^>]+src="(?!data:image\/png;base64,)/);
  });

  it('answers an unknown token with a 404 page', async () => {
    t = await makeTestApp();
    const res = await t.app.request('/share/AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Shared conversation not found');
  });
});

describe('share links with a password set', () => {
  it('serves the page and the snapshot without sign-in, but not create or revoke', async () => {
    t = await makeTestApp();
    // Before the first request: the guard caches whether a password is set.
    await t.setPassword('hunter2-long');
    const { cookie, csrf } = await t.signIn('hunter2-long');
    const signedIn = { Cookie: cookie, 'X-Hermes-CSRF-Token': csrf };
    const id = (await t.call('POST', '/api/session/new', {}, signedIn)).body.session.session_id;
    await t.deps.sessions.appendMessages(id, [{ role: 'user', content: 'hello' }]);
    const token = (await t.call('POST', '/api/share/create', { session_id: id }, signedIn)).body.share.token;
    expect((await t.app.request(`/share/${token}`)).status).toBe(200);
    expect((await t.call('GET', `/api/share/${token}`)).status).toBe(200);
    expect((await t.call('POST', '/api/share/create', { session_id: id })).status).toBe(401);
    expect((await t.call('POST', '/api/share/revoke', { session_id: id })).status).toBe(401);
    expect((await t.call('GET', '/api/share/create')).status).toBe(401);
    expect((await t.call('GET', `/api/session?session_id=${id}`)).status).toBe(401);
    const revoked = await t.call('POST', '/api/share/revoke', { session_id: id }, signedIn);
    expect(revoked.status).toBe(200);
    expect((await t.app.request(`/share/${token}`)).status).toBe(404);
  });
});
