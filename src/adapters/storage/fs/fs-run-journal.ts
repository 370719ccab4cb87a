import { closeSync, fsync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../ports/platform.js';
import { CLOSING_EVENTS, storedRunEvent, type RunEvent } from '../../../runs/events.js';
import type { JournalWriter, RunJournal } from '../../../runs/journal.js';
import { isSafeSessionId } from '../../../shared/session.js';

const SAFE_STREAM_ID = /^[A-Za-z0-9_-]{1,128}$/;
/**
 * Lines are gathered this long before one write. A write per token costs a system call per
 * token; the journal only serves replays, and a crash loses at most this much of one (the
 * transcript itself is stored separately, step by step). Closing events are written at once.
 */
const BATCH_MS = 200;

/**
 * Run journals in the incumbent's place: `sessions/_run_journal/<sid>/<stream_id>.jsonl`, one
 * JSON line per event (`{version, event_id, seq, run_id, session_id, event, created_at,
 * terminal, payload}`). Lines are batched; closing events are written and fsynced at once.
 */
export class FsRunJournal implements RunJournal {
  readonly root: string;
  constructor(stateDir: string, readonly logger?: Logger) {
    this.root = join(stateDir, 'sessions', '_run_journal');
  }

  #path(sessionId: string, streamId: string): string | null {
    if (!isSafeSessionId(sessionId) || !SAFE_STREAM_ID.test(streamId)) return null;
    return join(this.root, sessionId, `${streamId}.jsonl`);
  }

  open(sessionId: string, streamId: string): JournalWriter {
    const path = this.#path(sessionId, streamId);
    if (!path) throw new Error('unsafe journal id');
    mkdirSync(join(this.root, sessionId), { recursive: true });
    let fd: number | null = openSync(path, 'a');
    let pending: string[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const logger = this.logger;
    // Both ids passed SAFE_STREAM_ID / isSafeSessionId, so they need no JSON escaping.
    const prefix = `{"version":1,"event_id":"${streamId}:`;
    const ids = `,"run_id":"${streamId}","session_id":"${sessionId}"`;
    const writeOut = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (!pending.length || fd === null) return;
      const text = pending.join('');
      pending = [];
      try {
        writeSync(fd, text);
      } catch (err) {
        logger?.error({ msg: 'run journal write failed', stream_id: streamId, error: String(err) });
      }
    };
    const sync = () =>
      new Promise<void>((resolve) => {
        writeOut();
        if (fd === null) return resolve();
        fsync(fd, () => resolve());
      });
    return {
      append: (event, dataJson = JSON.stringify(event.data)) => {
        const terminal = CLOSING_EVENTS.has(event.event);
        // Built by hand around the already-serialised payload: this runs once per token.
        pending.push(
          `${prefix}${event.seq}","seq":${event.seq}${ids},"event":${JSON.stringify(event.event)},"created_at":${event.at},"terminal":${terminal},"payload":${dataJson}}\n`,
        );
        if (terminal) void sync();
        else timer ??= setTimeout(writeOut, BATCH_MS);
      },
      flush: sync,
      close: async () => {
        await sync();
        if (fd !== null) closeSync(fd);
        fd = null;
      },
    };
  }

  async read(streamId: string, sessionId?: string) {
    let sid = sessionId;
    if (!sid) sid = (await this.#findSession(streamId)) ?? undefined;
    if (!sid) return null;
    const path = this.#path(sid, streamId);
    if (!path) return null;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return null;
    }
    const events: RunEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const row = JSON.parse(line) as { seq: number; event: string; payload: unknown; created_at: number };
        events.push(storedRunEvent(row.seq, row.event, row.payload, row.created_at));
      } catch {
        // A line cut short by a crash: everything before it is still good.
        break;
      }
    }
    return { sessionId: sid, events };
  }

  async deleteSession(sessionId: string) {
    if (!isSafeSessionId(sessionId)) return;
    await rm(join(this.root, sessionId), { recursive: true, force: true });
  }

  /** Which session a stream belongs to, by looking for its file (rare: replay after a restart). */
  async #findSession(streamId: string): Promise<string | null> {
    if (!SAFE_STREAM_ID.test(streamId)) return null;
    const dirs = await readdir(this.root).catch(() => [] as string[]);
    for (const dir of dirs) {
      const files = await readdir(join(this.root, dir)).catch(() => [] as string[]);
      if (files.includes(`${streamId}.jsonl`)) return dir;
    }
    return null;
  }
}
