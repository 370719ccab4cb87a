import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function sharedToken(app: TestApp): Promise<string> {
  const id = await app.newSession();
  await app.deps.sessions.appendMessages(id, [
    { role: 'user', content: 'Hello there', timestamp: 1000 },
    { role: 'assistant', content: 'Hi! How can I help?' },
  ]);
  const created = await app.call('POST', '/api/share/create', { session_id: id });
  expect(created.status).toBe(200);
  return created.body.share.token;
}

const page = (path: string, lang?: string) => t.app.request(path, lang ? { headers: { 'Accept-Language': lang } } : {});

describe('the share page speaks the reader’s language', () => {
  it('answers German for Accept-Language: de, with lang, Content-Language, Vary and an Intl date', async () => {
    t = await makeTestApp();
    const token = await sharedToken(t);
    const res = await page(`/share/${token}`, 'de-DE,de;q=0.9,en;q=0.8');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Language')).toBe('de');
    expect(res.headers.get('Vary')).toContain('Accept-Language');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('X-Robots-Tag')).toBe('noindex, nofollow');
    const html = await res.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    const record = (await t.call('GET', `/api/share/${token}`)).body.share;
    const date = new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'UTC' }).format(record.created_at * 1000);
    expect(html).toContain(`Geteilter Stand, schreibgeschützt · ${date}`);
    expect(html).toContain('Begonnen am ');
    expect(html).toContain('2 Nachrichten');
    expect(html).not.toContain('Shared read-only snapshot');
    expect(html).not.toContain('Started ');
    // The conversation itself is not translated, and keeps its own direction.
    expect(html).toContain('<div class="bubble" dir="auto">Hello there</div>');
  });

  it('answers Arabic right to left, with mirrored (logical) CSS and code kept left to right', async () => {
    t = await makeTestApp();
    const token = await sharedToken(t);
    const res = await page(`/share/${token}`, 'ar-EG');
    const html = await res.text();
    expect(res.headers.get('Content-Language')).toBe('ar');
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('لقطة مشتركة للقراءة فقط');
    expect(html).toContain('الرسائل: ');
    expect(html).not.toMatch(/text-align:(left|right)|margin-(left|right)|padding-(left|right)|float:/);
    expect(html).toMatch(/pre\{direction:ltr/);
  });

  it('lets ?lang= win over Accept-Language, and falls back to English', async () => {
    t = await makeTestApp();
    const token = await sharedToken(t);
    const fr = await page(`/share/${token}?lang=fr`, 'de');
    expect(fr.headers.get('Content-Language')).toBe('fr');
    expect(await fr.text()).toContain('Instantané partagé en lecture seule');
    const weighted = await page(`/share/${token}`, 'de;q=0.4, zh-TW;q=0.9');
    expect(await weighted.text()).toContain('<html lang="zh-Hant" dir="ltr">');
    const unknown = await page(`/share/${token}?lang=xx`, 'tlh');
    expect(unknown.headers.get('Content-Language')).toBe('en');
    const html = await unknown.text();
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('Shared read-only snapshot · ');
    expect(html).toContain('2 messages');
  });

  it('translates the not-found page, still a 404, while the API error stays English', async () => {
    t = await makeTestApp();
    const res = await page('/share/AAAAAAAAAAAAAAAAAAAAAAAA', 'de');
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Language')).toBe('de');
    expect(res.headers.get('Vary')).toContain('Accept-Language');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<title>Nicht gefunden</title>');
    expect(html).toContain('<h1>Geteiltes Gespräch nicht gefunden</h1>');
    expect(html).not.toContain('Shared conversation not found');
    const ar = await page('/share?lang=ar');
    expect(ar.status).toBe(404);
    expect(await ar.text()).toContain('<html lang="ar" dir="rtl">');
    const api = await t.call('GET', '/api/share/AAAAAAAAAAAAAAAAAAAAAAAA', undefined, { 'Accept-Language': 'de' });
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ error: 'Shared conversation not found' });
  });
});

describe('the HTML export follows the language setting', () => {
  async function richSession(app: TestApp): Promise<string> {
    const id = await app.newSession({ model: 'gpt-test' });
    await app.deps.sessions.appendMessages(id, [
      { role: 'user', content: 'Look\n\n[Attached files: notes.txt]', attachments: [{ name: 'notes.txt', path: '/x/notes.txt' }], timestamp: 1000 },
      { role: 'assistant', content: 'Sure.', reasoning: 'hmm', tool_calls: [{ function: { name: 'terminal', arguments: '{}' } }] },
      { role: 'tool', name: 'terminal', content: 'ok' },
    ]);
    return id;
  }
  const exported = (id: string, lang?: string) => page(`/api/session/export?session_id=${id}&format=html`, lang);

  it('uses the `language` setting over the browser, and the browser when it is "auto"', async () => {
    t = await makeTestApp();
    const id = await richSession(t);
    expect((await t.call('POST', '/api/settings', { language: 'ja' })).status).toBe(200);
    const ja = await exported(id, 'de');
    expect(ja.headers.get('Content-Language')).toBe('ja');
    const html = await ja.text();
    expect(html).toContain('<html lang="ja" dir="ltr">');
    for (const text of [
      '<summary>考え中</summary>',
      '<summary>ツール · <bdi>terminal</bdi></summary>',
      '<summary>結果 · <bdi>terminal</bdi></summary>',
      '添付ファイル: <bdi>notes.txt</bdi>',
      '開始 ',
      '3 件のメッセージ',
    ]) {
      expect(html).toContain(text);
    }
    for (const english of ['Thinking', 'Tool ·', 'Result ·', 'Attached:', 'Started', ' messages']) expect(html).not.toContain(english);

    expect((await t.call('POST', '/api/settings', { language: 'auto' })).status).toBe(200);
    const pl = await exported(id, 'pl-PL, en;q=0.5');
    expect(pl.headers.get('Content-Language')).toBe('pl');
    const polish = await pl.text();
    expect(polish).toContain('<summary>Myśli</summary>');
    expect(polish).toContain('Wiadomości: 3');

    const en = await exported(id);
    expect(en.headers.get('Content-Language')).toBe('en');
    const english = await en.text();
    expect(english).toContain('<summary>Thinking</summary>');
    expect(english).toContain('3 messages');
    // The Markdown and JSON exports are unchanged.
    const md = await t.app.request(`/api/session/export?session_id=${id}&format=md`, { headers: { 'Accept-Language': 'de' } });
    expect(md.headers.get('Content-Language')).toBeNull();
  });
});
