import { closeSync, fstatSync, fsync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { writeFileAtomic, readTextIfExists } from './atomic-file.js';
import { open, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../ports/platform.js';
import { CLOSING_EVENTS, storedRunEvent, type RunEvent } from '../../../runs/events.js';
import type { JournalRecord, JournalWriter, RunJournal, TurnCheckpoint } from '../../../runs/journal.js';
import { isSafeSessionId } from '../../../shared/session.js';

const SAFE_STREAM_ID = /^[A-Za-z0-9_-]{1,128}$/;
/**
 * Lines nobody is watching are gathered this long before one write (a run with no open stream
 * costs no system call per token). commit() writes them at once: the run calls it before it
 * sends a frame, so a kill -9 never loses an event a client has seen. Closing events are
 * written and fsynced at once.
 */
const BATCH_MS = 200;
/** How much of a journal's end is read to find its last event (longer lines fall back to the whole file). */
const TAIL_BYTES = 16 * 1024;

/**
 * Run journals in the incumbent's place: `sessions/_run_journal/<sid>/<stream_id>.jsonl`, one
 * JSON line per event (`{version, event_id, seq, run_id, session_id, event, created_at,
 * terminal, payload}`). Lines are batched until committed; closing events are fsynced at once.
 * A resumable turn's checkpoint sits beside it as `<stream_id>.checkpoint.json` (ours: the
 * incumbent's journal lines stay exactly its format).
 */
export class FsRunJournal implements RunJournal {
  readonly root: string;
  constructor(
    stateDir: string,
    readonly logger?: Logger,
  ) {
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
    let fd: number | null = openSync(path, 'a+');
    let pending: string[] = [];
    // Reopened after a crash that cut its last line short (power loss, a full disk): the next
    // line starts on its own, so the cut one is the only line lost.
    if (!endsLine(fd)) pending.push('\n');
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
      commit: writeOut,
      // The events it covers go first: a checkpoint never names a seq the journal lacks.
      checkpoint: async (state) => {
        writeOut();
        await writeFileAtomic(checkpointPath(path), JSON.stringify(state));
      },
      flush: sync,
      close: async () => {
        await sync();
        if (fd !== null) closeSync(fd);
        fd = null;
      },
    };
  }

  async read(streamId: string, sessionId?: string): Promise<JournalRecord | null> {
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
      } catch {}
    }
    const saved = await readTextIfExists(checkpointPath(path)).catch(() => null);
    let checkpoint: TurnCheckpoint | null = null;
    try {
      checkpoint = saved ? (JSON.parse(saved) as TurnCheckpoint) : null;
    } catch {}
    return { sessionId: sid, events, checkpoint };
  }

  async unclosed() {
    const open: Array<{ sessionId: string; streamId: string }> = [];
    for (const run of await this.list()) {
      const closed = await isClosed(join(this.root, run.sessionId, `${run.streamId}.jsonl`)).catch(() => true);
      if (!closed) open.push(run);
    }
    return open;
  }

  /** Every journal in the state dir (the import into Postgres walks them). */
  async list() {
    const all: Array<{ sessionId: string; streamId: string }> = [];
    for (const sessionId of await readdir(this.root).catch(() => [] as string[])) {
      if (!isSafeSessionId(sessionId)) continue;
      for (const name of await readdir(join(this.root, sessionId)).catch(() => [] as string[])) {
        const streamId = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
        if (SAFE_STREAM_ID.test(streamId)) all.push({ sessionId, streamId });
      }
    }
    return all;
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

const checkpointPath = (journalPath: string) => journalPath.replace(/\.jsonl$/, '.checkpoint.json');

/** Whether the file is empty or its last byte ends a line. */
function endsLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** Whether a journal's last readable event is a closing one (ours, or the incumbent's `terminal`). */
async function isClosed(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  let text: string;
  let whole: boolean;
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    text = buffer.toString('utf8');
    whole = start === 0;
  } finally {
    await handle.close();
  }
  const last = lastEvent(text, whole);
  if (last !== undefined || whole) return last?.closed ?? false;
  // No whole line in the tail: one very long last event.
  return lastEvent(await readFile(path, 'utf8'), true)?.closed ?? false;
}

function lastEvent(text: string, whole: boolean): { closed: boolean } | undefined {
  const lines = text.split('\n');
  // A tail's first piece may be the end of a longer line.
  for (let i = lines.length - 1; i >= (whole ? 0 : 1); i--) {
    if (!lines[i]!.trim()) continue;
    try {
      const row = JSON.parse(lines[i]!) as { event?: unknown; terminal?: unknown };
      return { closed: row.terminal === true || CLOSING_EVENTS.has(String(row.event)) };
    } catch {
      // A line cut short: look at the one before.
    }
  }
  return undefined;
}
