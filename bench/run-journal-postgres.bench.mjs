// PgRunJournal: what a frame waits for before it leaves (append → commit() settled) with 50
// streams emitting at once, as Run drives it (one commit per event-loop turn); and unclosed(),
// which every instance runs every few seconds, with 10,000 finished runs and 50 open ones.
// The cross-instance relay budget (p50 ≤ 5 ms, p99 ≤ 25 ms at 50 streams) includes this wait.
// Its own throwaway PostgreSQL (scripts/test-tools/postgres.mjs: fsync off), or BENCH_PG_URL's.
import { fmt, percentile, verdict } from './lib.mjs';
import { benchDatabase, importPostgresAdapters } from './lib-postgres.mjs';

const STREAMS = 50;
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const FINISHED = Number(process.env.BENCH_FINISHED_RUNS ?? 10_000);

const db = await benchDatabase('bench_journal');
try {
  const { connectPostgres, applyMigrations, PgRunJournal } = await importPostgresAdapters(['pg-client', 'pg-migrations', 'pg-run-journal']);
  // The server's pool size (node-postgres.ts).
  const sql = connectPostgres(db.url, { max: 10 });
  try {
    await applyMigrations(sql);
    const journal = new PgRunJournal(sql);

    // 50 streams, each emitting a token every event-loop turn and committing it as Run does.
    const waits = [];
    let statements = 0;
    const counting = new PgRunJournal(sql, { onCommitted: () => void statements++ });
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, s) => {
        const w = counting.open(`sess${s}`, `live_${s}`);
        for (let seq = 1; seq <= EVENTS; seq++) {
          const at = performance.now();
          w.append({ seq, event: 'token', data: { text: `token ${seq} of stream ${s}` }, at: Date.now() / 1000 });
          await w.commit();
          waits.push(performance.now() - at);
        }
        w.append({ seq: EVENTS + 1, event: 'stream_end', data: { session_id: `sess${s}` }, at: Date.now() / 1000 });
        await w.close();
      }),
    );
    const totalMs = performance.now() - t0;
    waits.sort((a, b) => a - b);
    const p50 = percentile(waits, 50);
    const p99 = percentile(waits, 99);
    console.log(
      `append → commit settled, ${STREAMS} streams × ${EVENTS} events at once: p50 ${fmt(p50)} ms, p95 ${fmt(percentile(waits, 95))} ms, p99 ${fmt(p99)} ms, max ${fmt(waits.at(-1))} ms`,
    );
    console.log(
      `${STREAMS * EVENTS} events in ${fmt(totalMs)} ms (${Math.round((STREAMS * EVENTS) / (totalMs / 1000))} events/s), ${statements} INSERT statements`,
    );

    // A burst as a fast model gives it: 20 tokens per turn, one commit (how the batching pays).
    const burstWaits = [];
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, s) => {
        const w = journal.open(`sess${s}`, `burst_${s}`);
        let seq = 0;
        for (let turn = 0; turn < EVENTS / 20; turn++) {
          const at = performance.now();
          for (let i = 0; i < 20; i++) w.append({ seq: ++seq, event: 'token', data: { text: 'x'.repeat(12) }, at: 1 });
          await w.commit();
          burstWaits.push(performance.now() - at);
        }
        w.append({ seq: ++seq, event: 'stream_end', data: {}, at: 1 });
        await w.close();
      }),
    );
    burstWaits.sort((a, b) => a - b);
    console.log(`bursts of 20 tokens per commit, ${STREAMS} streams: p50 ${fmt(percentile(burstWaits, 50))} ms, p99 ${fmt(percentile(burstWaits, 99))} ms`);

    // unclosed() with many finished runs beside a few open ones.
    await sql`INSERT INTO hermes_run_streams (stream_id, session_id, closed)
      SELECT 'done_' || i, 'sess' || (i % 500), true FROM generate_series(1, ${FINISHED}) AS i`;
    for (let s = 0; s < STREAMS; s++) {
      const w = journal.open(`sess${s}`, `open_${s}`);
      w.append({ seq: 1, event: 'token', data: { text: 'a' }, at: 1 });
      await w.close();
    }
    await sql`ANALYZE hermes_run_streams`;
    const times = [];
    for (let i = 0; i < 200; i++) {
      const at = performance.now();
      const open = await journal.unclosed();
      times.push(performance.now() - at);
      if (open.length !== STREAMS) throw new Error(`unclosed() gave ${open.length}, expected ${STREAMS}`);
    }
    times.sort((a, b) => a - b);
    console.log(
      `unclosed() with ${FINISHED} finished runs and ${STREAMS} open ×200: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms`,
    );
    console.log('');
    console.log(`commit wait p50 within the relay's 5 ms: ${fmt(p50)} ms — ${verdict(p50, 5)}`);
    console.log(`commit wait p99 within the relay's 25 ms: ${fmt(p99)} ms — ${verdict(p99, 25)}`);
  } finally {
    await sql.end();
  }
} finally {
  await db.drop();
}
