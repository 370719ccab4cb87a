import type { Sql } from './pg-client.js';

export interface BatchedEventRow {
  seq: number;
  event: string;
  data: string;
  at: number;
}

/**
 * One INSERT for the events of every stream a journal writes at once. Each stream's writer
 * still waits for its own rows before its next statement (its order holds); across streams,
 * rows handed over while an INSERT is in flight go out together in the next one, so 50 busy
 * streams cost a few statements per round trip instead of 50.
 */
/** Wake-ups sent by the statement that stores the events (PgCluster.wakeUps). */
export interface StatementWakeUps {
  channel: string;
  encode(wakes: Map<string, number>): string[];
}

export class PgEventBatcher {
  #waiting: Array<{ streamId: string; rows: BatchedEventRow[]; done: (err?: unknown) => void }> = [];
  #inFlight = false;

  constructor(
    private readonly sql: Sql,
    private readonly wakeUps?: StatementWakeUps,
  ) {}

  /** The pg_notify calls for these streams' last seqs (none without wake-ups). */
  notifies(last: Map<string, number>) {
    const payloads = this.wakeUps ? this.wakeUps.encode(last) : [];
    return payloads.length ? this.sql`SELECT pg_notify(${this.wakeUps!.channel}, p) FROM unnest(${payloads}::text[]) AS p` : null;
  }

  /** Resolves once the rows are stored; rejects with the statement's error (a duplicate seq fails the whole batch). */
  write(streamId: string, rows: BatchedEventRow[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ streamId, rows, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.#inFlight) void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    this.#inFlight = true;
    while (this.#waiting.length) {
      const batch = this.#waiting;
      this.#waiting = [];
      const streams: string[] = [];
      const seqs: number[] = [];
      const events: string[] = [];
      const data: string[] = [];
      const ats: number[] = [];
      const last = new Map<string, number>();
      for (const { streamId, rows } of batch)
        for (const r of rows) {
          last.set(streamId, r.seq);
          streams.push(streamId);
          seqs.push(r.seq);
          events.push(r.event);
          data.push(r.data);
          ats.push(r.at);
        }
      let error: unknown;
      try {
        const insert = this.sql`
          INSERT INTO hermes_run_events (stream_id, seq, event, data, at)
          SELECT t.stream_id, t.seq, t.event, t.data::json, t.at
          FROM unnest(${streams}::text[], ${seqs}::int[], ${events}::text[], ${data}::text[], ${ats}::float8[]) AS t(stream_id, seq, event, data, at)`;
        const notify = this.notifies(last);
        // The wake-ups go with the rows: NOTIFY is delivered at commit, when the rows are visible.
        await (notify ? this.sql`WITH stored AS (${insert} RETURNING 1) ${notify}` : insert);
      } catch (err) {
        error = err ?? new Error('insert failed');
      }
      if (error !== undefined && batch.length > 1) {
        // One stream's duplicate must not fail the others: each is retried on its own.
        await Promise.all(batch.map((item) => this.#single(item)));
      } else for (const item of batch) item.done(error);
    }
    this.#inFlight = false;
  }

  async #single(item: { streamId: string; rows: BatchedEventRow[]; done: (err?: unknown) => void }): Promise<void> {
    const { rows, streamId } = item;
    try {
      const insert = this.sql`
        INSERT INTO hermes_run_events (stream_id, seq, event, data, at)
        SELECT ${streamId}, t.seq, t.event, t.data::json, t.at
        FROM unnest(${rows.map((r) => r.seq)}::int[], ${rows.map((r) => r.event)}::text[], ${rows.map((r) => r.data)}::text[], ${rows.map((r) => r.at)}::float8[]) AS t(seq, event, data, at)`;
      const notify = this.notifies(new Map([[streamId, rows.at(-1)!.seq]]));
      await (notify ? this.sql`WITH stored AS (${insert} RETURNING 1) ${notify}` : insert);
      item.done();
    } catch (err) {
      item.done(err ?? new Error('insert failed'));
    }
  }
}
