import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Run } from '../../../src/runs/run.js';
import { storedRunEvent, type RunEvent } from '../../../src/runs/events.js';
import { connectPostgres, type Sql } from '../../../src/adapters/storage/postgres/pg-client.js';
import { applyMigrations } from '../../../src/adapters/storage/postgres/pg-migrations.js';
import { PgRunJournal } from '../../../src/adapters/storage/postgres/pg-run-journal.js';
import { describeRunJournalContract } from '../../contracts/run-journal.contract.js';
import { testDatabase } from '../../helpers/postgres.js';
import { RunRegistry } from '../../../src/runs/registry.js';
import { RunOwnership } from '../../../src/runs/run-ownership.js';
import { MemoryLeaseStore } from '../../../src/adapters/storage/memory/memory-lease.js';

let db: Awaited<ReturnType<typeof testDatabase>>;
const pools: Sql[] = [];
const pool = () => {
  const sql = connectPostgres(db.url, { max: 2 });
  pools.push(sql);
  return sql;
};
beforeAll(async () => {
  db = await testDatabase();
  const sql = pool();
  await applyMigrations(sql);
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await db?.drop();
});

describeRunJournalContract('postgres', async () => {
  const first = pool();
  return {
    journal: new PgRunJournal(first),
    reopen: async () => new PgRunJournal(pool()),
    // The pool is cut off at once, as a kill -9 would: nothing is flushed on the way out.
    crash: async () => {
      await first.end({ timeout: 0 });
      return new PgRunJournal(pool());
    },
    cleanup: async () => {},
  };
});

describe('PgRunJournal', () => {
  const token = (seq: number): RunEvent => ({ seq, event: 'token', data: { text: `t${seq}` }, at: seq });

  it('a second writer of the same (stream, seq) fails loudly and the first one’s event stays', async () => {
    const errors: Array<Record<string, unknown>> = [];
    const logger = { info: () => {}, error: (r: Record<string, unknown>) => void errors.push(r) };
    const a = new PgRunJournal(pool(), { logger });
    const b = new PgRunJournal(pool(), { logger });
    const wa = a.open('s_dup', 'r_dup');
    const wb = b.open('s_dup', 'r_dup');
    wa.append(token(1));
    await wa.commit();
    wb.append({ seq: 1, event: 'token', data: { text: 'the other instance' }, at: 1 });
    await expect(wb.commit()).rejects.toMatchObject({ code: '23505' });
    expect(errors.at(-1)?.error).toMatch(/another instance is writing this run/);
    expect((await a.read('r_dup'))!.events).toEqual([token(1)]);
    await Promise.all([wa.close(), wb.close()]);
  });

  it('a turn begun with ownership (several instances) is in the journal before its stream id is handed out', async () => {
    const journal = new PgRunJournal(pool());
    const ownership = new RunOwnership({ leases: new MemoryLeaseStore(), owner: 'a' });
    const registry = new RunRegistry({ journal, now: () => 1, ownership });
    const run = await registry.beginOwned('s_owned', 'r_owned');
    // Another instance reading at once (its own pool) finds the stream, open and empty, not nothing.
    expect(await new PgRunJournal(pool()).read('r_owned')).toEqual({ sessionId: 's_owned', events: [], checkpoint: null });
    run.emit('stream_end', { session_id: 's_owned' });
    await registry.end(run, 'completed');
    ownership.stop();
  });

  it('writes many streams together, and one stream’s duplicate fails only that stream', async () => {
    const journal = new PgRunJournal(pool());
    const other = new PgRunJournal(pool());
    const writers = Array.from({ length: 12 }, (_, i) => journal.open(`s_many${i}`, `r_many${i}`));
    // The last stream already has seq 1 from another instance (it shares an INSERT with others): its batch fails, the eleven others land.
    const taken = other.open('s_many11', 'r_many11');
    taken.append(token(1));
    await taken.commit();
    for (const w of writers) for (let seq = 1; seq <= 3; seq++) w.append(token(seq));
    const results = await Promise.allSettled(writers.map((w) => w.commit()));
    expect(results[11]).toMatchObject({ status: 'rejected', reason: { code: '23505' } });
    expect(results.slice(0, 11).every((r) => r.status === 'fulfilled')).toBe(true);
    for (let i = 0; i < 11; i++) expect((await journal.read(`r_many${i}`))!.events).toEqual([token(1), token(2), token(3)]);
    expect((await journal.read('r_many11'))!.events).toEqual([token(1)]);
    await Promise.all([...writers, taken].map((w) => w.close().catch(() => {})));
  });

  it('reports each landed batch in order, and a run sends a frame only after its event is stored', async () => {
    const landed: number[] = [];
    const journal = new PgRunJournal(pool(), { onCommitted: (stream, last) => stream === 'r_gate' && landed.push(last) });
    let tick = 0;
    const now = () => ++tick;
    const run = new Run('r_gate', 's_gate', now(), journal.open('s_gate', 'r_gate'), now, (send) => setImmediate(send));
    const sentUpTo: Array<[number, number]> = [];
    run.watch(
      {
        // The last id in this write, against what the database had confirmed at that moment.
        send: (frame) => {
          const ids = [...new TextDecoder().decode(frame).matchAll(/^id: r_gate:(\d+)$/gm)].map((m) => Number(m[1]));
          sentUpTo.push([Math.max(...ids), landed.at(-1) ?? 0]);
        },
        close: () => {},
      },
      0,
    );
    for (let i = 0; i < 30; i++) {
      run.emit('token', { text: String(i) });
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    run.emit('stream_end', { session_id: 's_gate' });
    await run.finish('completed');
    await expect.poll(() => sentUpTo.at(-1)?.[0]).toBe(31);
    for (const [sent, stored] of sentUpTo) expect(sent).toBeLessThanOrEqual(stored);
    expect(landed).toEqual([...landed].sort((x, y) => x - y));
    expect(landed.at(-1)).toBe(31);
  });

  it('commits made while a statement is in flight become one INSERT, and each resolves only once its events landed', async () => {
    const landed: number[] = [];
    const journal = new PgRunJournal(pool(), { onCommitted: (_, last) => void landed.push(last) });
    const w = journal.open('s_coalesce', 'r_coalesce');
    const checks: Promise<void>[] = [];
    for (let seq = 1; seq <= 60; seq++) {
      w.append(token(seq));
      checks.push(Promise.resolve(w.commit()).then(() => expect(landed.at(-1)).toBeGreaterThanOrEqual(seq)));
      if (seq % 10 === 0) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(checks);
    await w.close();
    expect(landed.at(-1)).toBe(60);
    expect(landed.length).toBeLessThan(60 / 5);
    expect((await journal.read('r_coalesce'))!.events.map((e) => e.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it('unclosed() reads only the open streams through the partial index', async () => {
    const sql = pool();
    const plan = await sql.begin(async (tx) => {
      await tx`SET LOCAL enable_seqscan = off`;
      return tx.unsafe('EXPLAIN SELECT session_id, stream_id FROM hermes_run_streams WHERE NOT closed');
    });
    expect(JSON.stringify(plan)).toMatch(/hermes_run_streams_open/);
  });

  it('imports a whole journal once: a second import adds nothing and keeps the checkpoint', async () => {
    const journal = new PgRunJournal(pool());
    const events = [token(1), token(2), storedRunEvent(3, 'stream_end', { session_id: 's_imp' }, 3)];
    expect(await journal.importJournal('s_imp', 'r_imp', { events, checkpoint: { seq: 2, step: null } })).toBe(3);
    expect(await journal.importJournal('s_imp', 'r_imp', { events, checkpoint: null })).toBe(0);
    expect(await journal.read('r_imp')).toEqual({ sessionId: 's_imp', events, checkpoint: { seq: 2, step: null } });
    expect((await journal.unclosed()).map((r) => r.streamId)).not.toContain('r_imp');
  });
});
