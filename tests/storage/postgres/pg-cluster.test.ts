import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Sql } from '../../../src/adapters/storage/postgres/pg-client.js';
import { applyMigrations } from '../../../src/adapters/storage/postgres/pg-migrations.js';
import { type PgCluster, startPgCluster } from '../../../src/adapters/storage/postgres/pg-cluster.js';
import { presenceName } from '../../../src/adapters/storage/postgres/pg-cluster-wire.js';
import { ClusterUnreachable, type ClusterRequest } from '../../../src/ports/cluster.js';
import type { AppEvent } from '../../../src/runs/app-events.js';
import { testDatabase } from '../../helpers/postgres.js';

const errors: unknown[] = [];
const logger = { info: () => {}, error: (r: unknown) => void errors.push(r) };

/** Resolves with the first value `take` returns that is not undefined, polling what listeners collected. */
async function until<T>(take: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = take();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const cancel: ClusterRequest = { method: 'POST', url: '/api/chat/cancel', body: '{"stream_id":"s1"}', profile: null };

describe('PgCluster (LISTEN/NOTIFY between instances)', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let sql: Sql;
  let a: PgCluster;
  let b: PgCluster;
  beforeAll(async () => {
    db = await testDatabase();
    sql = connectPostgres(db.url, { max: 2 });
    await applyMigrations(sql);
    a = await startPgCluster({ url: db.url, instanceId: 'instance-a', logger, watchdogMs: 300 });
    b = await startPgCluster({ url: db.url, instanceId: 'instance-b', logger, watchdogMs: 300 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sql?.end();
    await db?.drop();
  });

  it('wakes the other instances with stream:seq, one payload for a burst across streams, and itself without the wire', async () => {
    const heardB: Array<[string, number]> = [];
    const heardA: Array<[string, number]> = [];
    const offB = b.onRunAppended((s, n) => heardB.push([s, n]));
    const offA = a.onRunAppended((s, n) => heardA.push([s, n]));
    for (let i = 0; i < 300; i++) a.runAppended(`stream-${i}`, 1);
    a.runAppended('stream-0', 7);
    await until(() => (heardB.length >= 300 ? true : undefined));
    offB();
    offA();
    expect(new Map(heardB).get('stream-0')).toBe(7);
    expect(new Set(heardB.map(([s]) => s)).size).toBe(300);
    // Its own wake-ups are heard at once, each as it was told (never over the wire, so never twice).
    expect(heardA).toHaveLength(301);
    expect(heardA.at(-1)).toEqual(['stream-0', 7]);
  });

  it('carries app events to the others with their origin, a big one through a row', async () => {
    const heard: Array<{ event: AppEvent; origin: string }> = [];
    const mine: AppEvent[] = [];
    const off = b.onEvent((event, origin) => heard.push({ event, origin }));
    const offA = a.onEvent((event) => mine.push(event));
    const command = 'x'.repeat(20_000);
    const big: AppEvent = {
      type: 'approval_waiting',
      session_id: 's1',
      pending: { approval_id: 'ap1', command, description: 'd', pattern_keys: [] } as never,
    };
    a.publish({ type: 'sessions_changed', reason: 'session_rename', session_id: 's1', profile: 'default' });
    a.publish(big);
    a.publish({ type: 'turn_finished', session_id: 's1', stream_id: 'st', status: 'completed', origin: 'ignored' });
    await until(() => (heard.length >= 3 ? true : undefined));
    off();
    offA();
    expect(heard.map((h) => h.origin)).toEqual(['instance-a', 'instance-a', 'instance-a']);
    // In the order sent, the row's read holding the event behind it.
    expect(heard.map((h) => h.event.type)).toEqual(['sessions_changed', 'approval_waiting', 'turn_finished']);
    expect((heard[1]!.event as Extract<AppEvent, { type: 'approval_waiting' }>).pending.command).toBe(command);
    // What goes out is this instance's event: an origin a caller left on it is not sent along.
    expect(heard[2]!.event.origin).toBeUndefined();
    expect(mine).toEqual([]);
    const rows = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM hermes_cluster_messages`;
    expect(rows[0]!.n).toBe(1);
  });

  it('hands a run request to its owner and the answer back, big bodies included', async () => {
    const seen: ClusterRequest[] = [];
    a.serve(async (r) => {
      seen.push(r);
      return { status: 200, body: JSON.stringify({ ok: true, echo: r.body!.length }) };
    });
    const reply = await b.request('instance-a', cancel);
    expect(reply).toEqual({ status: 200, body: JSON.stringify({ ok: true, echo: cancel.body!.length }) });
    expect(seen).toEqual([cancel]);
    const steer = { ...cancel, url: '/api/chat/steer', body: JSON.stringify({ message: 'é'.repeat(9000) }) };
    expect(JSON.parse((await b.request('instance-a', steer)).body).echo).toBe(steer.body.length);
    // Asked of itself, an instance answers without the database.
    expect((await a.request('instance-a', cancel)).status).toBe(200);
  });

  it('answers 503 from an instance that serves no requests, 500 from a handler that throws', async () => {
    expect(await a.request('instance-b', cancel)).toEqual({ status: 503, body: JSON.stringify({ error: 'this instance does not answer run requests' }) });
    b.serve(async () => {
      throw new Error('boom');
    });
    const reply = await a.request('instance-b', cancel);
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({ error: 'the instance running this turn failed to answer' });
  });

  it('fails cleanly: gone for an instance not listening, timeout for one too slow', async () => {
    const gone = await b.request('instance-nobody', cancel).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ClusterUnreachable);
    expect(gone).toMatchObject({ status: 503, reason: 'gone', owner: 'instance-nobody' });
    b.serve(() => new Promise((r) => setTimeout(() => r({ status: 200, body: '{}' }), 1500)));
    const slow = await a.request('instance-b', cancel, 200).catch((e: unknown) => e);
    expect(slow).toMatchObject({ reason: 'timeout', owner: 'instance-b' });
    expect(String((slow as Error).message)).toMatch(/did not answer in time/);
  });

  it('knows an instance is gone once its process stops listening', async () => {
    const c = await startPgCluster({ url: db.url, instanceId: 'instance-c', logger });
    c.serve(async () => ({ status: 200, body: '{}' }));
    expect(await a.isAlive('instance-c')).toBe(true);
    await c.close();
    // The backend leaves pg_stat_activity a moment after its socket closes.
    for (let i = 0; i < 100 && (await a.isAlive('instance-c')); i++) await new Promise((r) => setTimeout(r, 20));
    const err = await a.request('instance-c', cancel).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'gone' });
  });

  it('listens again after its listening connection is cut', async () => {
    const [row] = await sql<{ n: number }[]>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = ${presenceName('instance-b')}`;
    expect(row!.n).toBe(1);
    const heard: string[] = [];
    const off = b.onEvent((e) => heard.push(e.type));
    // Published until heard: the first may go out while b reconnects (wake-ups are re-read by followers anyway).
    await until(() => {
      a.publish({ type: 'sessions_changed', reason: 'session_new' });
      return heard.length ? true : undefined;
    });
    off();
    expect(await a.isAlive('instance-b')).toBe(true);
  });

  it('a message delivered twice (two listening connections overlapping) is handled once; another id is a new message', async () => {
    const heard: string[] = [];
    // Only this test's events (the re-listen test before may still have some of its own arriving).
    const off = b.onEvent((e, origin) => void (e.type === 'sessions_changed' && e.session_id && heard.push(`${origin}:${e.session_id}`)));
    const envelope = (m: string, sessionId: string) =>
      JSON.stringify({ k: 'event', from: 'instance-x', m, e: { type: 'sessions_changed', reason: 'session_new', session_id: sessionId } });
    // What an overlap does on the wire: the same NOTIFY reaches this instance twice.
    await sql`SELECT pg_notify('hermes_cluster', ${envelope('boot.1', 's1')})`;
    await sql`SELECT pg_notify('hermes_cluster', ${envelope('boot.1', 's1')})`;
    await sql`SELECT pg_notify('hermes_cluster', ${envelope('boot.2', 's2')})`;
    // The same counter from a restarted process (another boot nonce) is new too.
    await sql`SELECT pg_notify('hermes_cluster', ${envelope('reboot.1', 's3')})`;
    await until(() => (heard.length >= 3 ? true : undefined));
    // Anything still coming behind them has arrived once a later message has.
    a.publish({ type: 'sessions_changed', reason: 'session_new', session_id: 'last' });
    await until(() => (heard.includes('instance-a:last') ? true : undefined));
    off();
    expect(heard).toEqual(['instance-x:s1', 'instance-x:s2', 'instance-x:s3', 'instance-a:last']);
  });

  it('listening anew again and again while events flow: every event heard exactly once', async () => {
    const heard: string[] = [];
    const off = b.onEvent((e) => void (e.type === 'sessions_changed' && heard.push(e.session_id!)));
    const sent: string[] = [];
    for (let round = 0; round < 8; round++) {
      const relisten = Promise.all([
        b.listen(),
        (async () => {
          for (let i = 0; i < 25; i++) {
            const id = `r${round}-${i}`;
            sent.push(id);
            a.publish({ type: 'sessions_changed', reason: 'session_new', session_id: id });
            await new Promise((r) => setImmediate(r));
          }
        })(),
      ]);
      await relisten;
      // Each round's last event heard: the next re-listen starts with the old connection caught up.
      await until(() => (heard.includes(sent.at(-1)!) ? true : undefined));
    }
    off();
    expect(heard.length).toBe(new Set(heard).size);
    expect(new Set(heard)).toEqual(new Set(sent));
  });
});
