import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeHermesStateDb } from '../../src/adapters/platform/node-hermes-state-db.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { sampleSessions, writeStateDb } from '../fixtures/hermes-state-db.js';

/** The Hermes Agent's own sessions from `$HERMES_HOME/state.db`, listed and opened read-only. */
describe("Hermes' own sessions (state.db)", () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  // The server always reads `$HERMES_HOME/state.db` (NodeHermesStateDb).
  const app = () => makeTestApp();

  it('says nothing is available without a state.db, and lists nothing until the setting is on', async () => {
    t = await app();
    expect(t.deps.agentSessions).toBeInstanceOf(NodeHermesStateDb);
    expect((await t.call('GET', '/api/agent/sessions')).body).toEqual({ available: false, enabled: false, sessions: [] });
    writeStateDb(join(t.hermesHome, 'state.db'), sampleSessions());
    expect((await t.call('GET', '/api/agent/sessions')).body).toEqual({ available: true, enabled: false, sessions: [] });
    expect((await t.call('GET', '/api/agent/session?session_id=20260727_135519_a55c71')).status).toBe(404);
  });

  it('lists conversations newest first with their source, leaving out subagents and tool runs', async () => {
    t = await app();
    writeStateDb(join(t.hermesHome, 'state.db'), sampleSessions());
    expect((await t.call('POST', '/api/settings', { show_cli_sessions: true })).status).toBe(200);
    const r = await t.call('GET', '/api/agent/sessions');
    expect(r.body.enabled).toBe(true);
    expect(r.body.sessions.map((s: any) => [s.session_id, s.source, s.source_label, s.title, s.message_count, s.read_only])).toEqual([
      ['20260727_160000_b11111', 'telegram', 'Telegram', 'What is on my calendar today?', 2, true],
      ['20260727_135519_a55c71', 'cli', 'CLI', 'Refactor the build script', 5, true],
    ]);
    expect(r.body.sessions[1].updated_at).toBeGreaterThan(r.body.sessions[1].created_at);
  });

  it("opens one read-only, in this project's message shape (tool calls and results paired, no system prompt)", async () => {
    t = await app();
    writeStateDb(join(t.hermesHome, 'state.db'), sampleSessions());
    await t.call('POST', '/api/settings', { show_cli_sessions: true });
    const r = await t.call('GET', '/api/agent/session?session_id=20260727_135519_a55c71');
    expect(r.status).toBe(200);
    const s = r.body.session;
    expect(s).toMatchObject({ session_id: '20260727_135519_a55c71', source: 'cli', read_only: true, _messages_truncated: false });
    expect(s.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(s.messages[1]).toMatchObject({
      reasoning: 'Read first.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"scripts/build.sh"}' } }],
    });
    expect(s.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1', name: 'read_file' });
    // Hidden sources and unknown ids are not found; nothing of ours is reachable as theirs.
    expect((await t.call('GET', '/api/agent/session?session_id=20260727_150000_c22222')).status).toBe(404);
    expect((await t.call('GET', '/api/agent/session?session_id=nope')).status).toBe(404);
    // Our own session routes never touch them.
    expect((await t.call('POST', '/api/session/rename', { session_id: '20260727_135519_a55c71', title: 'x' })).status).toBe(404);
  });

  it('never writes the file, and reads while Hermes holds a write transaction', async () => {
    t = await app();
    const path = join(t.hermesHome, 'state.db');
    writeStateDb(path, sampleSessions());
    await t.call('POST', '/api/settings', { show_cli_sessions: true });
    const before = { bytes: await readFile(path), mtime: (await stat(path)).mtimeMs };
    // Hermes mid-write: an open write transaction on another connection (WAL lets readers in).
    const hermes = new Database(path);
    hermes.prepare('BEGIN IMMEDIATE').run();
    hermes.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('20260727_160000_b11111', 'user', 'uncommitted', 1)").run();
    try {
      const r = await t.call('GET', '/api/agent/session?session_id=20260727_160000_b11111');
      expect(r.status).toBe(200);
      expect(r.body.session.messages.map((m: any) => m.content)).not.toContain('uncommitted');
      expect((await t.call('GET', '/api/agent/sessions')).body.sessions).toHaveLength(2);
    } finally {
      hermes.prepare('ROLLBACK').run();
      hermes.close();
    }
    expect((await stat(path)).mtimeMs).toBe(before.mtime);
    expect((await readFile(path)).equals(before.bytes)).toBe(true);
  });

  it('leaves out gateway runs this WebUI made (listed once, as ours) and redacts what it shows', async () => {
    t = await app();
    const ours = await t.newSession();
    const now = Date.now() / 1000;
    writeStateDb(join(t.hermesHome, 'state.db'), [
      { id: ours, source: 'api_server', started_at: now, messages: [{ role: 'user', content: 'from the webui', timestamp: now }] },
      { id: 'api-0123456789abcdef', source: 'api_server', title: 'key sk-proj-abcdefghijklmnopqrstuvwxyz123456', started_at: now - 5, messages: [] },
    ]);
    await t.call('POST', '/api/settings', { show_cli_sessions: true });
    const rows = (await t.call('GET', '/api/agent/sessions')).body.sessions;
    expect(rows.map((s: any) => s.session_id)).toEqual(['api-0123456789abcdef']);
    expect(rows[0].source_label).toBe('API');
    expect(rows[0].title).not.toContain('abcdefghijklmnop');
  });

  it('a file that is not a database is reported in the log, not as a failure', async () => {
    t = await app();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(t.hermesHome, 'state.db'), 'not sqlite');
    await t.call('POST', '/api/settings', { show_cli_sessions: true });
    const r = await t.call('GET', '/api/agent/sessions');
    expect(r.status).toBe(200);
    expect(r.body.sessions).toEqual([]);
    expect(t.logger.errors.some((e) => String(e.msg).includes('state.db'))).toBe(true);
  });
});
