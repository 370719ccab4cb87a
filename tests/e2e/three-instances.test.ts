import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptStep, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';
import { readStream, seqs, type Frame } from '../helpers/sse.js';
import { testDatabase } from '../helpers/postgres.js';

/**
 * Three server processes (dist/server.js) on one Postgres database, each its own state dir,
 * sharing $HERMES_HOME and the workspace: a turn started on A, watched on B and C, approved on C;
 * a later turn cancelled on B; A killed with SIGKILL mid-turn, B or C takes it over (the default
 * lease: 6 s TTL, 2 s sweep) and finishes it, and B's watcher reconnecting with Last-Event-ID sees
 * no gap and no duplicate.
 */
describe('end to end: three instances on one database', () => {
  let home: string;
  let model: ScriptedServer;
  let db: Awaited<ReturnType<typeof testDatabase>>;
  const servers = new Map<string, RunningServer>();
  const url = (id: string) => servers.get(id)!.url;
  const post = async (id: string, path: string, body: unknown) => {
    const res = await fetch(url(id) + path, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (id: string, path: string) => (await (await fetch(url(id) + path)).json()) as any;
  const watch = (id: string, streamId: string, o: { lastEventId?: string; until?: (f: Frame) => boolean; onFrame?: (f: Frame) => Promise<void> } = {}) =>
    fetch(`${url(id)}/api/chat/stream?stream_id=${streamId}`, { headers: o.lastEventId ? { 'Last-Event-ID': o.lastEventId } : {} }).then((res) => {
      expect(res.status).toBe(200);
      return readStream(res, { timeoutMs: 25_000, ...(o.until ? { until: o.until } : {}), ...(o.onFrame ? { onFrame: o.onFrame } : {}) });
    });
  const slow = (prefix: string, n: number, ms: number): ScriptStep[] =>
    Array.from({ length: n }, (_, i) => [{ text: `${prefix}${i} ` }, { delayMs: ms }]).flat();
  const until = async <T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value) return value as NonNullable<T>;
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /** Every id once, numbered 1..n. */
  const numbered = (frames: Frame[]) => expect(seqs(frames)).toEqual(frames.map((_, i) => i + 1));

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-three-'));
    db = await testDatabase();
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'T' }] : undefined));
    model.setFallback(() => ({ status: 500, body: 'no script queued' }));
    await mkdir(join(home, '.hermes'), { recursive: true });
    await writeFile(join(home, '.hermes', 'config.yaml'), `model:\n  default: m\n  provider: custom\n  base_url: ${model.url}\napprovals:\n  mode: manual\n`);
    // One at a time: each applies (or finds) the migrations.
    for (const id of ['A', 'B', 'C']) {
      const env = {
        HOME: home,
        HERMES_HOME: join(home, '.hermes'),
        HERMES_WEBUI_STATE_DIR: join(home, `state-${id}`),
        HERMES_WEBUI_DEFAULT_WORKSPACE: join(home, 'workspace'),
        HERMES_WEBUI_INSTANCE_ID: id,
      };
      servers.set(id, await startServer(env, { databaseUrl: db.url }));
    }
  });
  afterAll(async () => {
    for (const s of servers.values()) await s.stop('SIGKILL');
    await model?.close();
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('a turn started on A, watched on B and C (identical frames), approved on C; a later turn cancelled on B', async () => {
    const sid = (await post('A', '/api/session/new', {})).body.session.session_id as string;
    model.enqueue([{ toolCall: { id: 'call1', name: 'terminal', args: { command: 'rm -rf build' } } }], slow('ok', 10, 20));
    const started = await post('A', '/api/chat/start', { session_id: sid, message: 'clean up' });
    expect(started.status).toBe(200);
    const streamId = started.body.stream_id as string;
    // Another instance cannot start a second turn on the session.
    expect((await post('B', '/api/chat/start', { session_id: sid, message: 'me too' })).status).toBe(409);
    const onB = watch('B', streamId);
    const onC = watch('C', streamId, {
      onFrame: async (f) => {
        if (f.event !== 'approval') return;
        // The pending approval as B sees it (forwarded to A), answered on C.
        expect(await get('B', `/api/approval/pending?session_id=${sid}`)).toMatchObject({ pending_count: 1, pending: { command: 'rm -rf build' } });
        const r = await post('C', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
        expect(r).toMatchObject({ status: 200, body: { ok: true, pending_count: 0 } });
      },
    });
    const [b, c] = await Promise.all([onB, onC]);
    expect(b).toEqual(c);
    numbered(b);
    expect(b.at(-1)!.event).toBe('stream_end');
    expect(b.find((f) => f.event === 'tool_complete')!.data).toMatchObject({ tool_call_id: 'call1' });
    expect(b.find((f) => f.event === 'tool_complete')!.data.is_error).toBeFalsy();
    expect(
      b
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe(Array.from({ length: 10 }, (_, i) => `ok${i} `).join(''));
    // A replay on A (the owner) is the same frames.
    expect(await watch('A', streamId)).toEqual(b);

    // A later turn on the same session, started on A, cancelled on B.
    model.enqueue(slow('long', 200, 20));
    const second = await post('A', '/api/chat/start', { session_id: sid, message: 'now write a lot' });
    expect(second.status).toBe(200);
    let tokens = 0;
    const watched = watch('C', second.body.stream_id, {
      onFrame: async (f) => {
        if (f.event === 'token' && ++tokens === 3)
          expect(await post('B', '/api/chat/cancel', { stream_id: second.body.stream_id })).toMatchObject({ status: 200, body: { cancelled: true } });
      },
    });
    const frames = await watched;
    numbered(frames);
    expect(frames.at(-1)!.event).toBe('cancel');
    expect(frames.filter((f) => f.event === 'token').length).toBeLessThan(100);
    const session = await until(async () => {
      const s = (await get('B', `/api/session?session_id=${sid}`)).session;
      return s.active_stream_id === null ? s : null;
    });
    expect(session.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content)).toEqual(['clean up', 'now write a lot']);
  });

  it('A is killed mid-turn: B or C takes it over and finishes it; B reconnecting with Last-Event-ID sees no gap and no duplicate', async () => {
    const sid = (await post('A', '/api/session/new', {})).body.session.session_id as string;
    model.enqueue(slow('w', 300, 20));
    const started = await post('A', '/api/chat/start', { session_id: sid, message: 'write a long essay' });
    const streamId = started.body.stream_id as string;
    let tokens = 0;
    const seen = await watch('B', streamId, { until: (f) => f.event === 'token' && ++tokens >= 20 });
    model.enqueue([{ text: 'The end.' }]);
    const killedAt = Date.now();
    await servers.get('A')!.stop('SIGKILL');
    // B's browser reconnects with the last id it had, on B; when the turn is resumed, whose lease is it?
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const holder = () =>
      sql<{ owner: string }[]>`SELECT owner FROM leases WHERE key = ${`run:${sid}`} AND expires_at > extract(epoch FROM clock_timestamp()) * 1000`;
    let resumedAfter = 0;
    const takenBy = until(async () => {
      const now = (await holder())[0]?.owner;
      return now && now !== 'A' ? now : null;
    }, 15_000);
    const rest = await watch('B', streamId, {
      lastEventId: seen.at(-1)!.id!,
      onFrame: async (f) => {
        if (f.event === 'resumed') resumedAfter = Date.now() - killedAt;
      },
    });
    const owner = await takenBy;
    const resumedAt = rest.findIndex((f) => f.event === 'resumed');
    expect(resumedAt).toBeGreaterThanOrEqual(0);
    expect(rest.at(-1)!.event).toBe('stream_end');
    // Numbered on from the last id seen: no gap, no duplicate.
    expect(seqs(rest)).toEqual(rest.map((_, i) => seqs(seen).at(-1)! + 1 + i));
    expect(rest[resumedAt]!.data).toMatchObject({ session_id: sid, attempt: 1, partial: true });
    expect(
      rest
        .slice(resumedAt + 1)
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text),
    ).toEqual(['The end.']);
    // The whole journal again, from C: what B saw, then the rest, every id once.
    const replay = await watch('C', streamId);
    expect(replay).toEqual([...seen, ...rest]);
    // The turn's lease went to B or C and was released at the end; the transcript has the one user message.
    expect(['B', 'C']).toContain(owner);
    expect(resumedAfter).toBeLessThan(10_000);
    try {
      expect(await holder()).toHaveLength(0);
    } finally {
      await sql.end();
    }
    const session = await until(async () => {
      const s = (await get('C', `/api/session?session_id=${sid}`)).session;
      return s.active_stream_id === null ? s : null;
    });
    expect(session.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content)).toEqual(['write a long essay']);
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant' });
    expect(session.messages.at(-1).content).toContain('The end.');
    console.log(`takeover: resumed on ${owner} ${resumedAfter} ms after SIGKILL of A`);
  });
});
