import type { Logger } from '../../../ports/platform.js';
import { ClusterUnreachable, type Cluster, type ClusterReply, type ClusterRequest } from '../../../ports/cluster.js';
import type { AppEvent } from '../../../runs/app-events.js';
import { connectPostgres, type Sql } from './pg-client.js';
import { RepeatFilter } from './pg-cluster-repeats.js';
import { MAX_PAYLOAD_BYTES, MESSAGE_CHANNEL, RUN_CHANNEL, decodeWakes, encodeWakes, parseEnvelope, presenceName, type Envelope } from './pg-cluster-wire.js';

/** How long an old listening connection is given to hear what was sent before its successor listened. */
const FENCE_MS = 1000;

export interface PgClusterOptions {
  url: string;
  instanceId: string;
  logger: Logger;
  /** How long a run request waits for the owner's answer (default 5 s). */
  requestTimeoutMs?: number;
  /** How often the listening connection checks it still hears the database (default 5 s). */
  watchdogMs?: number;
}

interface Waiting {
  owner: string;
  resolve: (reply: ClusterReply) => void;
  reject: (err: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The instances on one Postgres database, joined by LISTEN/NOTIFY. One connection listens (its
 * application name says this instance is alive); one sends, so what this instance notifies
 * arrives in the order it was sent. Run wake-ups of one event-loop turn share a payload; an
 * envelope past the NOTIFY size cap travels as a row. A watchdog pings itself through the
 * database and listens anew when the ping does not come back (the driver re-listens after a
 * dropped connection, but gives up if the database was down at that moment).
 *
 * @example
 * const cluster = await startPgCluster({ url, instanceId, logger });
 */
export async function startPgCluster(options: PgClusterOptions): Promise<PgCluster> {
  const cluster = new PgCluster(options);
  await cluster.listen();
  return cluster;
}

export class PgCluster implements Cluster {
  readonly instanceId: string;
  #send: Sql;
  #listener: Sql | null = null;
  #runListeners = new Set<(streamId: string, seq: number) => void>();
  #eventListeners = new Set<(event: AppEvent, origin: string) => void>();
  #handler: ((request: ClusterRequest) => Promise<ClusterReply>) | null = null;
  #waiting = new Map<string, Waiting>();
  #wakes = new Map<string, number>();
  #wakeScheduled = false;
  /** Envelopes go out one after another (a row's insert must not let a later one overtake it). */
  #outbox: Promise<unknown> = Promise.resolve();
  /** And are handled in arrival order (a row's read holds the ones behind it). */
  #inbox: Promise<unknown> = Promise.resolve();
  #watchdog: ReturnType<typeof setInterval>;
  #pingOut: string | null = null;
  #closed = false;
  /** This process's messages are `<boot>.<n>`; what was heard once is not handled again. */
  readonly #boot = crypto.randomUUID().slice(0, 8);
  #sent = 0;
  #heard = new RepeatFilter();
  /** A listen in progress (the watchdog's and a caller's share it). */
  #listening: Promise<void> | null = null;
  /** Pings an old listening connection must hear before it is ended (id → its connection and what to call). */
  #fences = new Map<string, { via: Sql; heard: () => void }>();

  constructor(private readonly options: PgClusterOptions) {
    this.instanceId = options.instanceId;
    this.#send = connectPostgres(options.url, { max: 1, applicationName: `hermes-webui ${options.instanceId}`.slice(0, 63) });
    this.#watchdog = setInterval(() => void this.#checkListening(), options.watchdogMs ?? 5000);
    this.#watchdog.unref();
  }

  /**
   * Opens the listening connection (again). The new one listens before the old one ends, so
   * nothing sent meanwhile is missed; what both hear is handled once (message ids).
   */
  listen(): Promise<void> {
    this.#listening ??= this.#listen().finally(() => {
      this.#listening = null;
    });
    return this.#listening;
  }

  async #listen(): Promise<void> {
    if (this.#closed) return;
    const old = this.#listener;
    const sql = connectPostgres(this.options.url, { max: 1, applicationName: presenceName(this.instanceId) });
    try {
      await sql.listen(RUN_CHANNEL, (payload) => this.#hearWakes(payload));
      await sql.listen(MESSAGE_CHANNEL, (payload) => this.#hearMessage(payload, sql));
    } catch (err) {
      await sql.end({ timeout: 0 }).catch(() => {});
      throw err;
    }
    if (this.#closed) {
      // Closed while this connected: close() ended the old one and never saw this one.
      await sql.end({ timeout: 0 }).catch(() => {});
      return;
    }
    this.#listener = sql;
    if (!old) return;
    // What was sent before the new connection listened reaches only the old one: end it once it
    // has heard a ping sent after (in commit order, so everything before too), or has had a moment.
    await this.#fence(old);
    await old.end({ timeout: 0 }).catch(() => {});
  }

  #fence(via: Sql): Promise<void> {
    const id = crypto.randomUUID();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(heard, FENCE_MS);
      function heard() {
        clearTimeout(timer);
        resolve();
      }
      this.#fences.set(id, {
        via,
        heard: () => {
          this.#fences.delete(id);
          heard();
        },
      });
      this.#post({ k: 'ping', from: this.instanceId, to: this.instanceId, id });
    }).finally(() => this.#fences.delete(id));
  }

  runAppended(streamId: string, seq: number): void {
    if (this.#closed) return;
    this.wakeHere(streamId, seq);
    this.#wakes.set(streamId, Math.max(seq, this.#wakes.get(streamId) ?? 0));
    if (this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      const payloads = encodeWakes(this.instanceId, this.#wakes);
      this.#wakes.clear();
      for (const p of payloads) this.#notify(RUN_CHANNEL, p).catch((err) => this.#failed('sending a run wake-up', err));
    });
  }

  /**
   * Tells only this instance's listeners (the wire carried the wake-up already, or will): a
   * watcher here that followed the run while another instance owned it keeps following it once
   * this one has taken the turn over.
   */
  wakeHere(streamId: string, seq: number): void {
    if (this.#closed) return;
    for (const l of this.#runListeners) this.#safely(() => l(streamId, seq));
  }

  /**
   * The wake-up NOTIFYs for `wakes` (stream → last seq), for a statement that stores those events
   * to send itself: delivered at its commit, so the rows are visible to whoever wakes, and one
   * round trip is saved (PgRunJournal's `notify` option).
   */
  readonly wakeUps = {
    channel: RUN_CHANNEL,
    encode: (wakes: Map<string, number>): string[] => encodeWakes(this.instanceId, wakes),
  };

  onRunAppended(listener: (streamId: string, seq: number) => void): () => void {
    this.#runListeners.add(listener);
    return () => this.#runListeners.delete(listener);
  }

  publish(event: AppEvent): void {
    if (this.#closed) return;
    const { origin: _o, ...local } = event;
    this.#post({ k: 'event', from: this.instanceId, e: local as AppEvent });
  }

  onEvent(listener: (event: AppEvent, origin: string) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  async request(owner: string, request: ClusterRequest, timeoutMs = this.options.requestTimeoutMs ?? 5000): Promise<ClusterReply> {
    if (owner === this.instanceId) return this.#answer(request);
    if (!(await this.isAlive(owner))) throw new ClusterUnreachable(owner, 'gone');
    const id = crypto.randomUUID();
    const reply = new Promise<ClusterReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        // Gone while we waited, or alive and slow: the caller may take the run over only in the first case.
        this.isAlive(owner).then(
          (alive) => reject(new ClusterUnreachable(owner, alive ? 'timeout' : 'gone')),
          () => reject(new ClusterUnreachable(owner, 'timeout')),
        );
      }, timeoutMs);
      this.#waiting.set(id, { owner, resolve, reject, timer });
    });
    this.#post({ k: 'request', from: this.instanceId, to: owner, id, r: request });
    return reply;
  }

  serve(handler: (request: ClusterRequest) => Promise<ClusterReply>): void {
    this.#handler = handler;
  }

  /** Whether `instanceId` has its listening connection open on this database now. */
  async isAlive(instanceId: string): Promise<boolean> {
    const rows = await this.#send<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${presenceName(instanceId)}`;
    return (rows[0]?.n ?? 0) > 0;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#watchdog);
    for (const f of [...this.#fences.values()]) f.heard();
    for (const [id, w] of this.#waiting) {
      clearTimeout(w.timer);
      w.reject(new ClusterUnreachable(w.owner, 'timeout'));
      this.#waiting.delete(id);
    }
    await this.#outbox.catch(() => {});
    await this.#listening?.catch(() => {});
    await Promise.all([this.#listener?.end({ timeout: 0 }), this.#send.end({ timeout: 1 })]);
  }

  #notify(channel: string, payload: string) {
    return this.#send`SELECT pg_notify(${channel}, ${payload})`;
  }

  /** Sends an envelope, through a row when it is too big to notify. */
  #post(message: Envelope): void {
    const envelope: Envelope = { ...message, m: this.#nextId() };
    const text = JSON.stringify(envelope);
    this.#outbox = this.#outbox
      .then(async () => {
        if (Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES) return this.#notify(MESSAGE_CHANNEL, text);
        const [row] = await this.#send<{ id: number }[]>`INSERT INTO hermes_cluster_messages (body) VALUES (${text}) RETURNING id`;
        // Every reader has had a minute: older rows are litter.
        await this.#send`DELETE FROM hermes_cluster_messages WHERE created_at < now() - interval '1 minute'`;
        const pointer: Envelope = { k: 'row', from: this.instanceId, id: row!.id, ...('to' in envelope ? { to: envelope.to } : {}), m: this.#nextId() };
        return this.#notify(MESSAGE_CHANNEL, JSON.stringify(pointer));
      })
      .catch((err) => this.#failed(`sending ${envelope.k}`, err));
  }

  #hearWakes(payload: string) {
    const { origin, wakes } = decodeWakes(payload);
    if (origin === this.instanceId) return;
    for (const [streamId, seq] of wakes) for (const l of this.#runListeners) this.#safely(() => l(streamId, seq));
  }

  #hearMessage(payload: string, via: Sql) {
    const envelope = parseEnvelope(payload);
    if (!envelope) return;
    // Before the repeat check: the new connection may have heard this fence first.
    if (envelope.k === 'ping' && this.#fences.get(envelope.id)?.via === via) this.#fences.get(envelope.id)!.heard();
    if ('to' in envelope && envelope.to !== undefined && envelope.to !== this.instanceId) return;
    if (envelope.from === this.instanceId && envelope.k !== 'ping') return;
    if (envelope.m !== undefined && !this.#heard.firstTime(`${envelope.from}\n${envelope.m}`)) return;
    this.#inbox = this.#inbox.then(() => this.#handle(envelope)).catch((err) => this.#failed(`handling ${envelope.k}`, err));
  }

  async #handle(envelope: Envelope): Promise<void> {
    switch (envelope.k) {
      case 'row': {
        const rows = await this.#send<{ body: string }[]>`SELECT body FROM hermes_cluster_messages WHERE id = ${envelope.id}`;
        const inner = rows[0] && parseEnvelope(rows[0].body);
        if (inner && inner.k !== 'row') await this.#handle(inner);
        return;
      }
      case 'event':
        for (const l of this.#eventListeners) this.#safely(() => l(envelope.e, envelope.from));
        return;
      case 'request': {
        // Answered without holding up the inbox: a slow handler must not delay other instances' events.
        void this.#answer(envelope.r).then((r) => this.#post({ k: 'reply', from: this.instanceId, to: envelope.from, id: envelope.id, r }));
        return;
      }
      case 'reply': {
        const w = this.#waiting.get(envelope.id);
        if (!w) return;
        this.#waiting.delete(envelope.id);
        clearTimeout(w.timer);
        w.resolve(envelope.r);
        return;
      }
      case 'ping':
        if (envelope.id === this.#pingOut) this.#pingOut = null;
        return;
    }
  }

  async #answer(request: ClusterRequest): Promise<ClusterReply> {
    if (!this.#handler) return { status: 503, body: JSON.stringify({ error: 'this instance does not answer run requests' }) };
    try {
      return await this.#handler(request);
    } catch (err) {
      this.#failed('answering a run request', err);
      return { status: 500, body: JSON.stringify({ error: 'the instance running this turn failed to answer' }) };
    }
  }

  /** The last ping not heard back: listen anew. Then ping again. */
  async #checkListening() {
    if (this.#closed) return;
    if (this.#pingOut) {
      this.options.logger.error({ msg: 'cluster: not hearing the database; listening again', instance: this.instanceId });
      this.#pingOut = null;
      try {
        await this.listen();
      } catch (err) {
        this.#failed('listening again', err);
        return;
      }
    }
    const id = crypto.randomUUID();
    this.#pingOut = id;
    this.#post({ k: 'ping', from: this.instanceId, to: this.instanceId, id });
  }

  #nextId(): string {
    return `${this.#boot}.${++this.#sent}`;
  }

  #safely(fn: () => void) {
    try {
      fn();
    } catch (err) {
      this.#failed('a cluster listener', err);
    }
  }

  #failed(what: string, err: unknown) {
    if (this.#closed) return;
    this.options.logger.error({ msg: `cluster: ${what} failed`, error: String(err) });
  }
}
