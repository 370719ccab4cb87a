import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { KEY } from '../helpers/secrets.js';

describe.each(['fs', 'memory'] as const)('GET /api/session/find (%s storage)', (storage) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ storage });
  });
  afterEach(async () => t.close());

  /** A 1,200-message session (more than a page and than msg_limit allows) with a few marked messages. */
  async function longSession(): Promise<string> {
    const messages = Array.from({ length: 1200 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: [3, 640, 1101].includes(i) ? `message ${i} mentions the Zebra` : `message ${i}`,
    }));
    const r = await t.call('POST', '/api/session/import', { messages, title: 'long' });
    expect(r.status).toBe(200);
    return r.body.session.session_id;
  }

  it('answers the stored indexes of every matching message, oldest first, case-insensitively', async () => {
    const id = await longSession();
    const r = await t.call('GET', `/api/session/find?session_id=${id}&q=zebra`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ session_id: id, query: 'zebra', indexes: [3, 640, 1101], count: 3, message_count: 1200 });
    // The index is what GET /api/session windows by: the page ending after it holds the message.
    const page = await t.call('GET', `/api/session?session_id=${id}&msg_limit=100&msg_before=641`);
    expect(page.body.session._messages_offset).toBe(541);
    expect(page.body.session.messages.at(-1).content).toContain('Zebra');
  });

  it('caps the indexes at limit but counts every match; none is an empty list', async () => {
    const id = await longSession();
    const r = await t.call('GET', `/api/session/find?session_id=${id}&q=message&limit=5`);
    expect(r.body.indexes).toEqual([0, 1, 2, 3, 4]);
    expect(r.body.count).toBe(1200);
    const none = await t.call('GET', `/api/session/find?session_id=${id}&q=giraffe`);
    expect(none.body).toMatchObject({ indexes: [], count: 0 });
  });

  it('does not find secrets the page shows masked', async () => {
    const r = await t.call('POST', '/api/session/import', { messages: [{ role: 'user', content: `my key is ${KEY}` }] });
    const id = r.body.session.session_id;
    const hidden = await t.call('GET', `/api/session/find?session_id=${id}&q=${encodeURIComponent(KEY.slice(-12))}`);
    expect(hidden.body.indexes).toEqual([]);
    const shown = await t.call('GET', `/api/session/find?session_id=${id}&q=my%20key`);
    expect(shown.body.indexes).toEqual([0]);
  });

  it('refuses bad input with 400 and an unknown session with 404', async () => {
    const id = await t.newSession();
    for (const q of [
      '',
      `session_id=${id}`,
      `session_id=${id}&q=`,
      `session_id=${id}&q=x&limit=-1`,
      `session_id=${id}&q=${'x'.repeat(501)}`,
      'session_id=../etc&q=x',
    ]) {
      const r = await t.call('GET', `/api/session/find?${q}`);
      expect(r.status, q).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    const missing = await t.call('GET', '/api/session/find?session_id=abcdef123456&q=x');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBeTruthy();
  });
});
