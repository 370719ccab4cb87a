import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { sidebarSessions, writeStateDb } from '../fixtures/hermes-state-db.js';

/**
 * Hermes' own sessions in `GET /api/sessions` as the incumbent merges them (show_cli_sessions),
 * opened with `GET /api/session` from state.db, and `POST /api/session/import_cli`.
 */
describe("compat: Hermes' own sessions in the sidebar", () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  async function app(settings: Record<string, unknown> = { show_cli_sessions: true }) {
    t = await makeTestApp();
    writeStateDb(join(t.hermesHome, 'state.db'), sidebarSessions());
    expect((await t.call('POST', '/api/settings', settings)).status).toBe(200);
    return t;
  }
  const ids = (body: any) => body.sessions.map((s: any) => s.session_id);

  it('lists nothing of state.db while show_cli_sessions is off', async () => {
    await app({ show_cli_sessions: false });
    const ours = await t.newSession();
    await t.call('POST', '/api/session/rename', { session_id: ours, title: 'Mine' });
    expect(ids((await t.call('GET', '/api/sessions')).body)).toEqual([ours]);
    expect((await t.call('GET', '/api/session?session_id=tg_alice')).status).toBe(404);
  });

  it('merges them newest first: one row per chat (users and threads apart), chains as their tip, cron and subagents out', async () => {
    await app();
    const r = await t.call('GET', '/api/sessions');
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual(['cmp_3', 'tg_bob_t2', 'tg_bob_t1', 'tg_alice', 'cli_refactor']);
    expect(r.body.total).toBe(5);
    const by = Object.fromEntries(r.body.sessions.map((s: any) => [s.session_id, s]));
    expect(by.tg_alice).toMatchObject({
      title: 'What is on my calendar today?',
      source_tag: 'telegram',
      raw_source: 'telegram',
      session_source: 'messaging',
      source_label: 'Telegram',
      user_id: 'alice',
      chat_id: '100',
      profile: 'default',
      pinned: false,
      archived: false,
      project_id: null,
      is_cli_session: false,
      read_only: true,
      message_count: 2,
    });
    expect(by.tg_bob_t1.thread_id).toBe('1');
    expect(by.cli_refactor).toMatchObject({ source_label: 'CLI', session_source: 'cli', is_cli_session: true });
    // The compressed conversation: the head's title, the tip's id, its segments counted.
    expect(by.cmp_3).toMatchObject({ title: 'Long migration', _lineage_root_id: 'cmp_1', _lineage_tip_id: 'cmp_3', _compression_segment_count: 3 });
    expect(by.cmp_3.created_at).toBeLessThan(by.cmp_3.updated_at);
  });

  it('shows cron runs with show_cron_sessions, and alone under ?source=cron', async () => {
    await app();
    expect((await t.call('GET', '/api/sessions')).body.cron_count).toBe(1);
    expect(ids((await t.call('GET', '/api/sessions?source=cron')).body)).toEqual(['cron_nightly_1']);
    await t.call('POST', '/api/settings', { show_cron_sessions: true });
    const rows = (await t.call('GET', '/api/sessions')).body.sessions;
    expect(rows.find((s: any) => s.session_id === 'cron_nightly_1')).toMatchObject({ source_label: 'Cron', session_source: 'cron', title: 'Nightly backup' });
  });

  it('pages the merged list with WebUI sessions in one order, no row twice', async () => {
    await app();
    const mine = [await t.newSession(), await t.newSession()];
    for (const id of mine) await t.call('POST', '/api/session/rename', { session_id: id, title: `web ${id}` });
    const all = ids((await t.call('GET', '/api/sessions')).body);
    expect(all).toHaveLength(7);
    expect(all.slice(0, 2).sort()).toEqual([...mine].sort());
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await t.call('GET', `/api/sessions?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(7);
      seen.push(...ids(r.body));
      cursor = r.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('opens one like any session, paged, the compressed chain stitched oldest first', async () => {
    await app();
    const whole = (await t.call('GET', '/api/session?session_id=cmp_3')).body.session;
    expect(whole).toMatchObject({
      session_id: 'cmp_3',
      read_only: true,
      message_count: 6,
      _messages_offset: 0,
      _messages_truncated: false,
      source_label: 'CLI',
    });
    expect(whole.messages.map((m: any) => m.content)).toEqual([
      'Start the migration',
      'Step one done.',
      'Continue',
      'Step two done.',
      'Finish it',
      'Migration finished.',
    ]);
    const last = (await t.call('GET', '/api/session?session_id=cmp_3&msg_limit=2')).body.session;
    expect(last).toMatchObject({ message_count: 6, _messages_offset: 4, _messages_truncated: true });
    expect(last.messages.map((m: any) => m.content)).toEqual(['Finish it', 'Migration finished.']);
    const earlier = (await t.call('GET', '/api/session?session_id=cmp_3&msg_limit=2&msg_before=4')).body.session;
    expect(earlier._messages_offset).toBe(2);
    expect(earlier.messages.map((m: any) => m.content)).toEqual(['Continue', 'Step two done.']);
    // Any segment's id finds its conversation; a subagent run or an unknown id is not found.
    expect((await t.call('GET', '/api/session?session_id=cmp_1')).body.session.session_id).toBe('cmp_3');
    expect((await t.call('GET', '/api/session?session_id=sub_1')).status).toBe(404);
    const missing = await t.call('GET', '/api/session?session_id=nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Session not found' });
  });

  it('imports one as a normal writable session (times kept, state.db untouched), listed once from then on', async () => {
    await app();
    const path = join(t.hermesHome, 'state.db');
    const before = { bytes: await readFile(path), mtime: (await stat(path)).mtimeMs };
    const listed = (await t.call('GET', '/api/sessions')).body.sessions.find((s: any) => s.session_id === 'tg_alice');
    const r = await t.call('POST', '/api/session/import_cli', { session_id: 'tg_alice', extra_field_the_incumbent_may_send: 1 });
    expect(r.status).toBe(200);
    expect(r.body.imported).toBe(true);
    expect(r.body.session).toMatchObject({
      session_id: 'tg_alice',
      title: 'What is on my calendar today?',
      is_cli_session: true,
      source_tag: 'telegram',
      source_label: 'Telegram',
      created_at: listed.created_at,
      updated_at: listed.updated_at,
      message_count: 2,
    });
    expect(r.body.session.read_only).toBeUndefined();
    expect(r.body.session.messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    // Ours now: writable, and the list shows it once (our row, keeping its badge).
    expect((await t.call('POST', '/api/session/rename', { session_id: 'tg_alice', title: 'Calendar' })).status).toBe(200);
    const rows = (await t.call('GET', '/api/sessions')).body.sessions.filter((s: any) => s.session_id === 'tg_alice');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ title: 'Calendar', source_label: 'Telegram', is_cli_session: true });
    expect(rows[0].read_only).toBeUndefined();
    // Again: the stored one, not a second copy.
    const again = await t.call('POST', '/api/session/import_cli', { session_id: 'tg_alice' });
    expect(again.body).toMatchObject({ imported: false, session: { session_id: 'tg_alice', title: 'Calendar' } });
    expect((await stat(path)).mtimeMs).toBe(before.mtime);
    expect((await readFile(path)).equals(before.bytes)).toBe(true);
  });

  it('imported again after Hermes went on: the new messages are appended, nothing of ours is lost', async () => {
    await app();
    const path = join(t.hermesHome, 'state.db');
    const hermesSays = (role: string, content: string) => {
      const db = new Database(path);
      db.prepare('INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)').run('cli_refactor', role, content, Date.now() / 1000);
      db.close();
    };
    expect((await t.call('POST', '/api/session/import_cli', { session_id: 'cli_refactor' })).body.imported).toBe(true);
    await t.call('POST', '/api/session/rename', { session_id: 'cli_refactor', title: 'Renamed here' });
    const before = (await t.deps.sessions.get('cli_refactor'))!.messages;
    // Hermes' CLI continued the same session after the import.
    hermesSays('user', 'and the tests too?');
    hermesSays('assistant', 'Done: tests updated.');
    const again = await t.call('POST', '/api/session/import_cli', { session_id: 'cli_refactor' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ imported: false, session: { session_id: 'cli_refactor', title: 'Renamed here', message_count: before.length + 2 } });
    const after = (await t.deps.sessions.get('cli_refactor'))!.messages;
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((m) => [m.role, m.content])).toEqual([
      ['user', 'and the tests too?'],
      ['assistant', 'Done: tests updated.'],
    ]);
    // Nothing new: the same copy, not a second append.
    expect((await t.call('POST', '/api/session/import_cli', { session_id: 'cli_refactor' })).body.session.message_count).toBe(after.length);
    // A turn taken here, then more from Hermes: the two diverged, so ours stays as it is.
    await t.deps.sessions.appendMessages('cli_refactor', [{ role: 'user', content: 'a WebUI turn', timestamp: Date.now() / 1000 }]);
    hermesSays('user', 'cli again');
    hermesSays('assistant', 'cli answer');
    hermesSays('user', 'cli once more');
    const diverged = await t.call('POST', '/api/session/import_cli', { session_id: 'cli_refactor' });
    expect(diverged.body.session.message_count).toBe(after.length + 1);
    expect((await t.deps.sessions.get('cli_refactor'))!.messages.at(-1)!.content).toBe('a WebUI turn');
  });

  it('imports a compressed conversation whole, under its tip, and hides the chain from then on', async () => {
    await app();
    const r = await t.call('POST', '/api/session/import_cli', { session_id: 'cmp_1' });
    expect(r.body.session.session_id).toBe('cmp_3');
    expect(r.body.session.messages).toHaveLength(6);
    expect(ids((await t.call('GET', '/api/sessions')).body).filter((id: string) => id.startsWith('cmp_'))).toEqual(['cmp_3']);
  });

  it('answers the incumbent errors for a missing or unknown session_id', async () => {
    await app();
    const none = await t.call('POST', '/api/session/import_cli', {});
    expect(none.status).toBe(400);
    expect(typeof none.body.error).toBe('string');
    const unknown = await t.call('POST', '/api/session/import_cli', { session_id: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Session not found in CLI store' });
  });

  it('follows state.db as Hermes writes it (a new session appears, the ETag moves)', async () => {
    await app();
    const first = await t.call('GET', '/api/sessions');
    const etag = first.res.headers.get('ETag')!;
    expect((await t.call('GET', '/api/sessions', undefined, { 'If-None-Match': etag })).status).toBe(304);
    const db = new Database(join(t.hermesHome, 'state.db'));
    const now = Date.now() / 1000;
    db.prepare("INSERT INTO sessions (id, source, title, started_at) VALUES ('discord_new', 'discord', 'Fresh from Discord', ?)").run(now);
    db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('discord_new', 'user', 'hi', ?)").run(now);
    db.close();
    const next = await t.call('GET', '/api/sessions', undefined, { 'If-None-Match': etag });
    expect(next.status).toBe(200);
    expect(ids(next.body)[0]).toBe('discord_new');
    expect(next.body.sessions[0].source_label).toBe('Discord');
  });

  it("lists every profile's state.db with all_profiles=1, each row with its profile", async () => {
    await app();
    const work = join(t.hermesHome, 'profiles', 'work');
    await mkdir(work, { recursive: true });
    const now = Date.now() / 1000;
    writeStateDb(join(work, 'state.db'), [
      {
        id: 'work_discord',
        source: 'discord',
        title: 'Work chat',
        chat_id: '9',
        started_at: now - 100,
        messages: [{ role: 'user', content: 'ship it', timestamp: now - 100 }],
      },
    ]);
    expect(ids((await t.call('GET', '/api/sessions')).body)).not.toContain('work_discord');
    const all = (await t.call('GET', '/api/sessions?all_profiles=1')).body;
    expect(all.sessions.find((s: any) => s.session_id === 'work_discord')).toMatchObject({ profile: 'work', source_label: 'Discord' });
    expect(all.sessions.find((s: any) => s.session_id === 'tg_alice').profile).toBe('default');
    // Its conversation opens from any profile's view.
    expect((await t.call('GET', '/api/session?session_id=work_discord')).body.session.profile).toBe('work');
  });

  describe('GET /api/sessions/search over state.db', () => {
    const search = async (query: string) => (await t.call('GET', `/api/sessions/search?${query}`)).body;
    /** A CLI session of 8 messages: the needle only in the 7th (past the default depth of 5). */
    function addDeepSession() {
      const db = new Database(join(t.hermesHome, 'state.db'));
      const now = Date.now() / 1000;
      db.prepare("INSERT INTO sessions (id, source, title, started_at) VALUES ('cli_deep', 'cli', 'Deep one', ?)").run(now - 10);
      const add = db.prepare('INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)');
      for (let i = 0; i < 8; i++) add.run('cli_deep', i % 2 ? 'assistant' : 'user', i === 6 ? 'where is the zebrafish config?' : `step ${i}`, now - 10 + i);
      db.close();
    }

    it('finds titles and, with content=1, message text, in the incumbent row shape with the source fields', async () => {
      await app();
      const titles = await search('q=Calendar');
      expect(titles.sessions).toHaveLength(1);
      expect(titles.sessions[0]).toMatchObject({
        session_id: 'tg_alice',
        match_type: 'title',
        match_preview: 'What is on my calendar today?',
        source_label: 'Telegram',
        session_source: 'messaging',
        read_only: true,
      });
      expect(titles).toMatchObject({ query: 'calendar', count: 1 });
      expect(ids(await search('q=two%20meetings'))).toEqual([]);
      const content = await search('q=two%20meetings&content=1');
      expect(content.sessions).toHaveLength(1);
      expect(content.sessions[0]).toMatchObject({ session_id: 'tg_alice', match_type: 'content', source_tag: 'telegram' });
      expect(content.sessions[0].match_preview).toContain('Two meetings.');
      // A compressed chain answers as its tip, by a later segment's text too (depth 0: the whole transcript).
      expect((await search('q=migration%20finished&content=1&depth=0')).sessions.map((s: any) => [s.session_id, s.match_type])).toEqual([['cmp_3', 'content']]);
    });

    it('searches the first `depth` messages (default 5, malformed too); depth=0 the whole transcript', async () => {
      await app();
      addDeepSession();
      expect(ids(await search('q=zebrafish&content=1'))).toEqual([]);
      expect(ids(await search('q=zebrafish&content=1&depth=deep'))).toEqual([]);
      expect(ids(await search('q=zebrafish&content=1&depth=7'))).toEqual(['cli_deep']);
      expect(ids(await search('q=zebrafish&content=1&depth=0'))).toEqual(['cli_deep']);
      expect((await search('q=zebrafish&content=1&depth=0')).sessions[0].match_preview).toBe('where is the zebrafish config?');
      expect(ids(await search('q=ebrafish&content=1&depth=0'))).toEqual(['cli_deep']);
    });

    it("uses Hermes' messages_fts index for a whole-transcript search (word prefixes)", async () => {
      await app();
      addDeepSession();
      const db = new Database(join(t.hermesHome, 'state.db'));
      db.exec(
        "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id'); INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');",
      );
      db.close();
      // Without the index a scan finds any substring; the index finds words by their start only.
      expect(ids(await search('q=ebrafish&content=1&depth=0'))).toEqual([]);
      expect(ids(await search('q=zebra&content=1&depth=0'))).toEqual(['cli_deep']);
      expect(ids(await search('q=the%20zebrafish%20conf&content=1&depth=0'))).toEqual(['cli_deep']);
      expect(ids(await search('q=noon&content=1&depth=0'))).toEqual(['tg_bob_t1']);
      // The depth holds with the index too: the 7th message is past the default 5.
      expect(ids(await search('q=zebrafish&content=1'))).toEqual([]);
      expect(ids(await search('q=zebrafish&content=1&depth=7'))).toEqual(['cli_deep']);
      expect(ids(await search('q=two%20meet&content=1'))).toEqual(['tg_alice']);
    });

    it('leaves out what the list leaves out: the setting off, imported ones (ours answer), subagents, cron unless shown', async () => {
      await app({ show_cli_sessions: false });
      expect(ids(await search('q=calendar'))).toEqual([]);
      await t.call('POST', '/api/settings', { show_cli_sessions: true });
      expect(ids(await search('q=delegated'))).toEqual([]);
      expect(ids(await search('q=backup'))).toEqual([]);
      await t.call('POST', '/api/settings', { show_cron_sessions: true });
      expect(ids(await search('q=backup'))).toEqual(['cron_nightly_1']);
      await t.call('POST', '/api/session/import_cli', { session_id: 'tg_alice' });
      const after = await search('q=calendar&content=1');
      expect(after.sessions).toHaveLength(1);
      expect(after.sessions[0].session_id).toBe('tg_alice');
      expect(after.sessions[0].read_only).toBeUndefined();
    });
  });
});
