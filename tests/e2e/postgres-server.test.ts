import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';
import { readStream } from '../helpers/sse.js';
import { testDatabase } from '../helpers/postgres.js';

/** The built server with HERMES_WEBUI_STORAGE=postgres: sessions and chat turns in the database, kept across a restart. */
describe('end to end: the server on Postgres', () => {
  let home: string;
  let model: ScriptedServer;
  let db: Awaited<ReturnType<typeof testDatabase>>;
  const servers: RunningServer[] = [];
  /** Each server its own state dir: what they share is the database. */
  const env = (stateDir: string) => ({ HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_STATE_DIR: join(home, stateDir) });
  const start = async (stateDir = 'state') => {
    const server = await startServer(env(stateDir), { databaseUrl: db.url });
    servers.push(server);
    return server;
  };
  const post = async (server: RunningServer, path: string, body: unknown) => {
    const res = await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (server: RunningServer, path: string) => {
    const res = await fetch(server.url + path);
    return { status: res.status, etag: res.headers.get('ETag'), body: (await res.json()) as any };
  };
  async function turn(server: RunningServer, sid: string, message: string) {
    const started = await post(server, '/api/chat/start', { session_id: sid, message });
    expect(started.status).toBe(200);
    const frames = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${started.body.stream_id}`));
    expect(frames.at(-1)!.event).toBe('stream_end');
    return frames;
  }

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-pg-e2e-'));
    db = await testDatabase();
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'Postgres chat' }] : undefined));
    model.setFallback(() => [{ text: 'fallback answer' }]);
    await mkdir(join(home, '.hermes'), { recursive: true });
    await writeFile(join(home, '.hermes', 'config.yaml'), `model:\n  default: m\n  provider: custom\n  base_url: ${model.url}\n`);
  });
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await model?.close();
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('serves sessions and a chat turn from the database, and keeps everything across a restart', async () => {
    let server = await start();
    expect(server.output()).toMatch(/storage postgres/);
    const sid = (await post(server, '/api/session/new', {})).body.session.session_id as string;
    model.enqueue([{ text: 'Hello ' }, { text: 'from Postgres' }]);
    const frames = await turn(server, sid, 'hi there');
    expect(frames.some((f) => f.event === 'token')).toBe(true);
    const before = (await get(server, `/api/session?session_id=${sid}`)).body.session;
    expect(before.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'hi there'],
      ['assistant', 'Hello from Postgres'],
    ]);
    expect(before.title).toBe('Postgres chat');

    // The rows are in the database, one per message.
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql`SELECT seq FROM messages WHERE session_id = ${sid} ORDER BY seq`;
      expect(rows.map((r) => r.seq)).toEqual([0, 1]);
    } finally {
      await sql.end();
    }

    expect(await server.stop('SIGTERM')).toBe(0);
    server = await start();
    const after = (await get(server, `/api/session?session_id=${sid}`)).body.session;
    expect(after).toEqual(before);
    const list = await get(server, '/api/sessions');
    expect(list.body.sessions.map((r: any) => [r.session_id, r.title, r.message_count])).toEqual([[sid, 'Postgres chat', 2]]);

    // The session takes another turn after the restart; it appends.
    model.enqueue([{ text: 'still here' }]);
    await turn(server, sid, 'are you there?');
    expect((await get(server, `/api/session?session_id=${sid}`)).body.session.messages).toHaveLength(4);
  });

  it('a second server on the same database serves the same list under the same ETag', async () => {
    const a = servers.at(-1)!;
    const b = await start('state-b');
    const fromA = await get(a, '/api/sessions?limit=50');
    const fromB = await get(b, '/api/sessions?limit=50');
    // The same rows and fields; only the clock (`server_time`, whole seconds) may have moved on.
    const { server_time: atB, ...restB } = fromB.body;
    const { server_time: atA, ...restA } = fromA.body;
    expect(restB).toEqual(restA);
    expect(atB - atA).toBeGreaterThanOrEqual(0);
    expect(atB - atA).toBeLessThanOrEqual(1);
    expect(fromB.etag).toBe(fromA.etag);
    // A rename through B moves the list on A.
    const sid = fromA.body.sessions[0].session_id;
    expect((await post(b, '/api/session/rename', { session_id: sid, title: 'renamed on B' })).status).toBe(200);
    const moved = await get(a, '/api/sessions?limit=50');
    expect(moved.etag).not.toBe(fromA.etag);
    expect(moved.body.sessions[0].title).toBe('renamed on B');
    expect((await get(b, '/api/sessions?limit=50')).etag).toBe(moved.etag);
  });
});
