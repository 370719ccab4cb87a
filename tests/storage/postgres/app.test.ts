import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, TITLE, type ChatHarness } from '../../helpers/chat.js';

/** The app wired with HERMES_WEBUI_STORAGE=postgres through the production composition root (makeChatApp's postgres option). */
describe('the app on Postgres', () => {
  const apps: ChatHarness[] = [];
  afterEach(async () => {
    // The second app shares the first one's database: it closes first, the first drops it.
    for (const t of apps.reverse()) await t.close();
    apps.length = 0;
  });

  it('runs a turn, lists it, and a second app on the same database sees and changes the same sessions', async () => {
    const t = await makeChatApp({ storage: 'postgres' });
    apps.push(t);
    expect(t.deps.sessions.kind).toBe('postgres');
    expect(t.databaseUrl).toMatch(/^postgres:/);
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'stored in rows' }]);
    const started = await t.start(sid, 'hello database');
    const frames = await t.stream(started.body.stream_id);
    expect(frames.at(-1)!.event).toBe('stream_end');
    const list = await t.call('GET', '/api/sessions');
    expect(list.body.sessions.map((r: any) => [r.title, r.message_count])).toEqual([[TITLE, 2]]);

    const other = await makeChatApp({ storage: 'postgres', databaseUrl: t.databaseUrl! });
    apps.push(other);
    const seen = await other.call('GET', '/api/sessions');
    // The same rows and fields; only the clock (`server_time`, whole seconds) may have moved on.
    const { server_time: seenAt, ...seenRest } = seen.body;
    const { server_time: listedAt, ...listedRest } = list.body;
    expect(seenRest).toEqual(listedRest);
    expect(seenAt - listedAt).toBeGreaterThanOrEqual(0);
    expect(seenAt - listedAt).toBeLessThanOrEqual(1);
    expect(seen.res.headers.get('ETag')).toBe(list.res.headers.get('ETag'));
    expect((await other.call('POST', '/api/session/rename', { session_id: sid, title: 'from the other one' })).status).toBe(200);
    const moved = await t.call('GET', '/api/sessions');
    expect(moved.body.sessions[0].title).toBe('from the other one');
    expect(moved.res.headers.get('ETag')).not.toBe(list.res.headers.get('ETag'));
    const session = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(session.messages.map((m: any) => m.content)).toEqual(['hello database', 'stored in rows']);
  });
});
