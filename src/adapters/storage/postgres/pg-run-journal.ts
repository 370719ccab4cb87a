import type { Logger } from '../../../ports/platform.js';
import { CLOSING_EVENTS, storedRunEvent, type RunEvent } from '../../../runs/events.js';
import type { JournalRecord, JournalWriter, RunJournal, TurnCheckpoint } from '../../../runs/journal.js';
import type { Sql } from './pg-client.js';
import { PgEventBatcher, type StatementWakeUps } from './pg-event-batcher.js';

/** Events nobody has committed are written this long after the first of them anyway. */
const BATCH_MS = 200;
/** A batch this long is written at once (bounds what a writer holds in memory). */
const MAX_BATCH = 500;

export interface PgRunJournalOptions {
  logger?: Logger;
  /** After each batch of a stream lands (in order): h-bus turns it into a NOTIFY wake-up. */
  onCommitted?: (streamId: string, lastSeq: number, notified: boolean) => void;
  /**
   * Wake-ups the storing statement sends itself (PgCluster.wakeUps): plain batches carry their
   * NOTIFY, saving a round trip; `onCommitted` then says `notified: true` for them.
   */
  notify?: StatementWakeUps;
  /**
   * How long uncommitted events wait (default BATCH_MS). Several instances: 0, since a watcher
   * elsewhere is owed them though none watches here (the run commits only for its own watchers).
   */
  batchMs?: number;
}

interface EventRow {
  seq: number;
  event: string;
  data: string;
  at: number;
}

/**
 * Run journals in `hermes_run_streams` / `hermes_run_events` (migration 0003). A writer's
 * statements go out one after another, in order: one multi-row INSERT per batch (events that
 * commit() hands over, or that waited BATCH_MS, or a closing event at once), then the checkpoint.
 * commit() returns the batch's promise, and the run sends the frames only after it lands, so
 * every id a client holds is in the database. A second writer of the same (stream, seq) — two
 * instances running one turn — fails on the primary key and is logged as such.
 */
export class PgRunJournal implements RunJournal {
  readonly #batcher: PgEventBatcher;
  constructor(
    private readonly sql: Sql,
    private readonly options: PgRunJournalOptions = {},
  ) {
    this.#batcher = new PgEventBatcher(sql, options.notify);
  }

  open(sessionId: string, streamId: string): JournalWriter {
    const { sql } = this;
    const { logger, onCommitted } = this.options;
    let pending: EventRow[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    // The writer's queue: each statement starts once the one before has settled.
    let tail: Promise<void> = Promise.resolve();
    // The latest batch in flight: a commit with nothing new still waits for it.
    let lastBatch: Promise<void> | null = null;
    const enqueue = (job: () => Promise<void>): Promise<void> => {
      const done = tail.then(job);
      tail = done.catch(() => {});
      return done;
    };
    const failed = (what: string) => (err: unknown) => {
      logger?.error({ msg: `run journal ${what} failed`, stream_id: streamId, error: describe(err) });
      throw err;
    };
    // Reopened (a resumed turn, a recovery's closing event): the row is kept and appends continue after its last seq.
    enqueue(() =>
      sql`INSERT INTO hermes_run_streams (stream_id, session_id) VALUES (${streamId}, ${sessionId}) ON CONFLICT (stream_id) DO NOTHING`.then(() => {}),
    ).catch((err) => {
      // Nobody awaits the open: logged, and the first batch then fails on the missing row too.
      logger?.error({ msg: 'run journal open failed', stream_id: streamId, error: describe(err) });
    });

    // A batch waiting its turn takes everything appended by the time it starts: while one
    // statement is in flight, the commits of many event-loop turns become one INSERT.
    let queued: Promise<void> | null = null;
    // What the stream row says (unknown until this writer's first batch: a reopened run may be closed).
    let rowClosed: boolean | null = null;
    let notified = false;
    let soon = false;
    const writePending = async () => {
      queued = null;
      const rows = pending;
      pending = [];
      if (!rows.length) return;
      const last = rows.at(-1)!;
      const closed = CLOSING_EVENTS.has(last.event);
      try {
        const values = sql`
          SELECT ${streamId}, t.seq, t.event, t.data::json, t.at
          FROM unnest(${rows.map((r) => r.seq)}::int[], ${rows.map((r) => r.event)}::text[], ${rows.map((r) => r.data)}::text[], ${rows.map((r) => r.at)}::float8[])
            AS t(seq, event, data, at)`;
        // The stream row is written only when the run opens or closes: a token costs one insert.
        // Plain events join the other streams' rows in one INSERT (PgEventBatcher).
        notified = closed === rowClosed && !!this.options.notify;
        if (closed === rowClosed) await this.#batcher.write(streamId, rows);
        else
          await sql`
            WITH written AS (INSERT INTO hermes_run_events (stream_id, seq, event, data, at) ${values})
            UPDATE hermes_run_streams SET closed = ${closed}, updated_at = now() WHERE stream_id = ${streamId}`;
        rowClosed = closed;
      } catch (err) {
        failed(`write of events ${rows[0]!.seq}..${last.seq}`)(err);
      }
      onCommitted?.(streamId, last.seq, notified);
    };

    const commit = (): Promise<void> | undefined => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (pending.length && !queued) {
        const batch = enqueue(writePending);
        queued = batch;
        lastBatch = batch;
        const settled = () => void (lastBatch === batch && (lastBatch = null));
        void batch.then(settled, settled);
      }
      return lastBatch ?? undefined;
    };
    // Timer and closing-event writes have no caller to hand a failure to: it is logged (above).
    const commitQuietly = () => void commit()?.catch(() => {});
    const flush = async () => {
      commitQuietly();
      await tail;
    };

    return {
      append: (event, dataJson = JSON.stringify(event.data)) => {
        pending.push({ seq: event.seq, event: event.event, data: dataJson, at: event.at });
        if (CLOSING_EVENTS.has(event.event) || pending.length >= MAX_BATCH) commitQuietly();
        else if (this.options.batchMs === 0) {
          // Several instances: written after this event-loop turn (a timer would add a millisecond).
          if (!soon) {
            soon = true;
            setImmediate(() => {
              soon = false;
              commitQuietly();
            });
          }
        } else timer ??= setTimeout(commitQuietly, this.options.batchMs ?? BATCH_MS);
      },
      commit,
      checkpoint: (state: TurnCheckpoint) => {
        commitQuietly();
        const json = JSON.stringify(state);
        return enqueue(() =>
          sql`UPDATE hermes_run_streams SET checkpoint = ${json}::text::json, updated_at = now() WHERE stream_id = ${streamId}`.then(() => {}),
        ).catch(failed('checkpoint'));
      },
      flush,
      close: flush,
    };
  }

  async read(streamId: string, sessionId?: string): Promise<JournalRecord | null> {
    const [head] = await this.sql<{ session_id: string; checkpoint: TurnCheckpoint | null }[]>`
      SELECT session_id, checkpoint FROM hermes_run_streams WHERE stream_id = ${streamId}`;
    if (!head || (sessionId !== undefined && head.session_id !== sessionId)) return null;
    return { sessionId: head.session_id, events: await this.readAfter(streamId, 0), checkpoint: head.checkpoint ?? null };
  }

  async readAfter(streamId: string, afterSeq: number): Promise<RunEvent[]> {
    const rows = await this.sql<{ seq: number; event: string; data: unknown; at: number }[]>`
      SELECT seq, event, data, at FROM hermes_run_events WHERE stream_id = ${streamId} AND seq > ${afterSeq} ORDER BY seq`;
    return rows.map((r) => storedRunEvent(r.seq, r.event, r.data, r.at));
  }

  async readAfterMany(cursors: ReadonlyMap<string, number>): Promise<Map<string, RunEvent[]>> {
    const rows = await this.sql<{ stream_id: string; seq: number; event: string; data: unknown; at: number }[]>`
      SELECT e.stream_id, e.seq, e.event, e.data, e.at
      FROM unnest(${[...cursors.keys()]}::text[], ${[...cursors.values()]}::int[]) AS c(stream_id, after_seq)
      JOIN hermes_run_events e ON e.stream_id = c.stream_id AND e.seq > c.after_seq
      ORDER BY e.stream_id, e.seq`;
    const found = new Map<string, RunEvent[]>();
    for (const r of rows) {
      let list = found.get(r.stream_id);
      if (!list) found.set(r.stream_id, (list = []));
      list.push(storedRunEvent(r.seq, r.event, r.data, r.at));
    }
    return found;
  }

  async unclosed(): Promise<Array<{ sessionId: string; streamId: string }>> {
    // Served by the partial index on NOT closed: the cost is the open streams, not every run ever.
    const rows = await this.sql<{ session_id: string; stream_id: string }[]>`
      SELECT session_id, stream_id FROM hermes_run_streams WHERE NOT closed`;
    return rows.map((r) => ({ sessionId: r.session_id, streamId: r.stream_id }));
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.sql`DELETE FROM hermes_run_streams WHERE session_id = ${sessionId}`;
  }

  /**
   * Copies a whole journal in (the fs → Postgres import). Idempotent: events already there are
   * kept as they are, so a second import adds nothing; returns how many events were new.
   */
  async importJournal(sessionId: string, streamId: string, record: { events: RunEvent[]; checkpoint: TurnCheckpoint | null }): Promise<number> {
    const { events, checkpoint } = record;
    const last = events.at(-1);
    const closed = !!last && CLOSING_EVENTS.has(last.event);
    return this.sql.begin(async (tx) => {
      await tx`
        INSERT INTO hermes_run_streams (stream_id, session_id, closed, checkpoint)
        VALUES (${streamId}, ${sessionId}, ${closed}, ${checkpoint ? JSON.stringify(checkpoint) : null}::text::json)
        ON CONFLICT (stream_id) DO NOTHING`;
      if (!events.length) return 0;
      const added = await tx`
        INSERT INTO hermes_run_events (stream_id, seq, event, data, at)
        SELECT ${streamId}, t.seq, t.event, t.data::json, t.at
        FROM unnest(${events.map((e) => e.seq)}::int[], ${events.map((e) => e.event)}::text[], ${events.map((e) => JSON.stringify(e.data))}::text[], ${events.map((e) => e.at)}::float8[])
          AS t(seq, event, data, at)
        ON CONFLICT (stream_id, seq) DO NOTHING`;
      return added.count;
    }) as Promise<number>;
  }
}

/** A database error with what makes it actionable: a duplicate event means two writers of one run. */
function describe(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  if (code === '23505') return `${String(err)} (an event with this seq is already stored: another instance is writing this run)`;
  return String(err);
}
