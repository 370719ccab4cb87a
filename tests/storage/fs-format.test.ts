import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsSessionStore } from '../../src/adapters/storage/fs/fs-session-store.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { incumbentSession, pyJson, writeIncumbentStateDir } from '../fixtures/incumbent-state.js';
import { sampleSession, testClock } from '../contracts/session-store.contract.js';

const clock = { now: () => Date.now() / 1000 };

describe('fs adapter: the incumbent state directory', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ storage: 'fs' });
  });
  afterEach(async () => t.close());

  async function reopenOver(stateDir: string) {
    await t.deps.sessions.dispose();
    const store = new FsSessionStore({ stateDir, clock });
    await store.init();
    // Route every later request through the reopened store.
    Object.assign(t.deps, { sessions: store });
    const { createApp } = await import('../../src/app.js');
    t.app = createApp(t.deps);
    return store;
  }

  it('lists and opens sessions the incumbent wrote, with and without its index', async () => {
    for (const withIndex of [false, true]) {
      await rm(join(t.stateDir, 'sessions'), { recursive: true, force: true });
      await writeIncumbentStateDir(t.stateDir, { withIndex });
      await reopenOver(t.stateDir);
      const list = await t.call('GET', '/api/sessions');
      expect(list.status).toBe(200);
      expect(list.body.sessions).toHaveLength(1);
      expect(list.body.sessions[0]).toMatchObject({
        session_id: 'a1b2c3d4e5f6',
        title: 'Fix the flaky deploy script',
        model: 'anthropic/claude-sonnet-4.6',
        message_count: 4,
        pinned: true,
        project_id: '0a1b2c3d4e5f',
        updated_at: 1780000500.654321,
      });
      const one = await t.call('GET', '/api/session?session_id=a1b2c3d4e5f6');
      expect(one.status).toBe(200);
      expect(one.body.session.messages).toEqual(incumbentSession.messages);
      expect(one.body.session.messages[1].reasoning).toBe('Look at the script first.');
      expect(one.body.session.tool_calls).toEqual(incumbentSession.tool_calls);
    }
  });

  it('a rename keeps every unknown key, the key order and the JSON style', async () => {
    await writeIncumbentStateDir(t.stateDir);
    await reopenOver(t.stateDir);
    const r = await t.call('POST', '/api/session/rename', { session_id: 'a1b2c3d4e5f6', title: 'Deploy race' });
    expect(r.status).toBe(200);
    const text = await readFile(join(t.stateDir, 'sessions', 'a1b2c3d4e5f6.json'), 'utf8');
    const written = JSON.parse(text);
    const original = incumbentSession as Record<string, unknown>;
    // Every key the incumbent wrote is still there, in the same order.
    expect(Object.keys(written)).toEqual(Object.keys(original));
    for (const key of Object.keys(original)) {
      if (['title', 'updated_at', 'manual_title'].includes(key)) continue;
      expect(written[key], key).toEqual(original[key]);
    }
    expect(written.title).toBe('Deploy race');
    expect(written.manual_title).toBe(true);
    expect(written.updated_at).toBeGreaterThan(incumbentSession.updated_at);
    // Python's indent=2 layout, non-ASCII kept as is, no trailing newline.
    expect(text).toBe(pyJson(written));
    expect(text).toContain('añadir');
    expect(text.endsWith('}')).toBe(true);
  });

  it('new sessions are written in the incumbent layout: metadata, message_count, messages, tool_calls', async () => {
    const id = await t.newSession();
    await t.deps.sessions.appendMessages(id, [{ role: 'user', content: 'hi', timestamp: 1 }]);
    const written = JSON.parse(await readFile(join(t.stateDir, 'sessions', `${id}.json`), 'utf8'));
    const keys = Object.keys(written);
    expect(keys.slice(0, 3)).toEqual(['session_id', 'title', 'workspace']);
    expect(keys.slice(-3)).toEqual(['message_count', 'messages', 'tool_calls']);
    expect(written.message_count).toBe(1);
    expect(id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('reads settings, projects and workspaces the incumbent wrote, and keeps unknown settings on save', async () => {
    await writeIncumbentStateDir(t.stateDir);
    const settings = await t.call('GET', '/api/settings');
    expect(settings.body).toMatchObject({ theme: 'light', send_key: 'ctrl+enter', some_future_key: 42 });
    expect(settings.body).not.toHaveProperty('password_hash');
    const saved = await t.call('POST', '/api/settings', { theme: 'dark' });
    expect(saved.status).toBe(200);
    const onDisk = JSON.parse(await readFile(join(t.stateDir, 'settings.json'), 'utf8'));
    expect(onDisk).toMatchObject({ theme: 'dark', send_key: 'ctrl+enter', some_future_key: 42, password_hash: null });
    const projects = await t.call('GET', '/api/projects');
    expect(projects.body.projects).toEqual([{ project_id: '0a1b2c3d4e5f', name: 'Website', color: '#6366f1', profile: 'default', created_at: 1779990000.5 }]);
    const ws = await t.call('GET', '/api/workspaces');
    expect(ws.body).toEqual({
      workspaces: [{ path: '/home/user/projects/site', name: 'Site' }],
      last: '/home/user/projects/site',
      terminal_remote_backend: false,
    });
  });
});

describe('fs adapter: index and durability', () => {
  let stateDir: string;
  const sessionsDir = () => join(stateDir, 'sessions');
  const open = async () => {
    const s = new FsSessionStore({ stateDir, clock: testClock });
    await s.init();
    return s;
  };
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'hermes-fs-'));
  });
  afterEach(async () => rm(stateDir, { recursive: true, force: true }));

  it('writes _index.json as a list of compact rows, newest first, without transcripts', async () => {
    const store = await open();
    const a = await store.create(sampleSession({ title: 'a', messages: [{ role: 'user', content: 'x' }] }));
    const b = await store.create(sampleSession({ title: 'b' }));
    await store.dispose();
    const index = JSON.parse(await readFile(join(sessionsDir(), '_index.json'), 'utf8'));
    expect(Array.isArray(index)).toBe(true);
    expect(index.map((r: { session_id: string }) => r.session_id)).toEqual([b.session_id, a.session_id]);
    expect(index[1]).toMatchObject({ title: 'a', message_count: 1 });
    expect(index[1]).not.toHaveProperty('messages');
  });

  it('rebuilds a missing or garbage index from the session files', async () => {
    const store = await open();
    const s = await store.create(sampleSession({ title: 'survivor' }));
    await store.dispose();
    for (const damage of [() => unlink(join(sessionsDir(), '_index.json')), () => writeFile(join(sessionsDir(), '_index.json'), '{"oops')]) {
      await damage();
      const again = await open();
      expect((await again.list()).rows.map((r) => r.session_id)).toEqual([s.session_id]);
      await again.dispose();
      const index = JSON.parse(await readFile(join(sessionsDir(), '_index.json'), 'utf8'));
      expect(index).toHaveLength(1);
    }
  });

  it('repairs a stale index: new files, changed files and vanished files', async () => {
    const store = await open();
    const kept = await store.create(sampleSession({ title: 'kept' }));
    const changed = await store.create(sampleSession({ title: 'before' }));
    const gone = await store.create(sampleSession({ title: 'gone' }));
    await store.dispose();
    const indexPath = join(sessionsDir(), '_index.json');
    const indexTime = (await stat(indexPath)).mtime;
    // Another program (the incumbent) adds one session, edits one and deletes one after the index was written.
    const added = { ...sampleSession({ title: 'added elsewhere' }) };
    await writeFile(join(sessionsDir(), `${added.session_id}.json`), pyJson(added));
    const changedFile = join(sessionsDir(), `${changed.session_id}.json`);
    const changedJson = JSON.parse(await readFile(changedFile, 'utf8'));
    await writeFile(changedFile, pyJson({ ...changedJson, title: 'after' }));
    const later = new Date(indexTime.getTime() + 5000);
    await utimes(changedFile, later, later);
    await unlink(join(sessionsDir(), `${gone.session_id}.json`));
    const again = await open();
    const titles = (await again.list()).rows.map((r) => r.title).sort();
    expect(titles).toEqual(['added elsewhere', 'after', 'kept']);
    expect((await again.get(kept.session_id))!.title).toBe('kept');
    await again.dispose();
  });

  it('keeps <id>.json.bak before a write that shrinks the transcript', async () => {
    const store = await open();
    const s = await store.create(
      sampleSession({
        messages: [
          { role: 'user', content: '1' },
          { role: 'assistant', content: '2' },
        ],
      }),
    );
    await store.appendMessages(s.session_id, [{ role: 'user', content: '3' }]);
    await expect(stat(join(sessionsDir(), `${s.session_id}.json.bak`))).rejects.toThrow();
    await store.replaceMessages(s.session_id, []);
    const bak = JSON.parse(await readFile(join(sessionsDir(), `${s.session_id}.json.bak`), 'utf8'));
    expect(bak.messages.map((m: { content: string }) => m.content)).toEqual(['1', '2', '3']);
    const current = JSON.parse(await readFile(join(sessionsDir(), `${s.session_id}.json`), 'utf8'));
    expect(current.messages).toEqual([]);
    await store.dispose();
  });

  it('leaves no temp files behind and ignores files that are not sessions', async () => {
    const store = await open();
    const s = await store.create(sampleSession());
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.appendMessages(s.session_id, [{ role: 'user', content: String(i) }])));
    await store.dispose();
    await writeFile(join(sessionsDir(), 'notes.txt'), 'hello');
    await writeFile(join(sessionsDir(), '_deleted_webui_sessions.json'), '[]');
    await writeFile(join(sessionsDir(), 'bad id!.json'), '{}');
    const files = (await readdir(sessionsDir())).sort();
    expect(files.filter((f) => f.includes('.tmp.'))).toEqual([]);
    const again = await open();
    expect((await again.list()).rows.map((r) => r.session_id)).toEqual([s.session_id]);
    expect(await again.problems()).toEqual([]);
    await again.dispose();
  });

  it('never builds a path from an unsafe id', async () => {
    const store = await open();
    await writeFile(join(stateDir, 'secret.json'), pyJson(sampleSession()));
    expect(await store.get('../secret')).toBeNull();
    await expect(store.update('../secret', { title: 'x' })).rejects.toThrow();
    expect(await store.delete('../secret')).toBe(false);
    expect(JSON.parse(await readFile(join(stateDir, 'secret.json'), 'utf8')).title).toBe('Untitled');
    await store.dispose();
  });
});
