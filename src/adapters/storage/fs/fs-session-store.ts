import { mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BadRequest, Conflict } from '../../../ports/errors.js';
import type { Clock, Logger } from '../../../ports/platform.js';
import { SESSION_ROW_KEYS, isSafeSessionId, type Session, type SessionRow } from '../../../shared/session.js';
import { compareRows, toRow } from '../../../domain/session-rows.js';
import { RowIndexedSessionStore } from '../session-store-base.js';
import { readTextIfExists, removeStaleTemps, writeFileAtomic } from './atomic-file.js';
import { CorruptSessionFile, parseSession, serializeSession } from './session-file.js';

const INDEX_FILE = '_index.json';
/** How long index writes are coalesced: many appends in a burst rewrite the index once. */
const INDEX_FLUSH_MS = 250;
const READ_BATCH = 32;
/** Parsed sessions kept to skip re-reading a file this process wrote (checked by mtime and size). */
const CACHE_SIZE = 64;

export interface FsSessionStoreOptions {
  /** The state directory; sessions live in `<dir>/sessions`. */
  stateDir: string;
  clock: Clock;
  logger?: Logger;
}

/**
 * Sessions in the incumbent's state directory: one `sessions/<id>.json` per session and
 * `sessions/_index.json`, a list of compact rows so listing never parses a transcript.
 * The rows live in memory; the index file is rewritten shortly after changes and on dispose.
 *
 * @example
 * const store = new FsSessionStore({ stateDir: '/home/me/.hermes/webui', clock });
 * await store.init();
 */
export class FsSessionStore extends RowIndexedSessionStore {
  readonly kind = 'fs';
  readonly dir: string;
  #logger: Logger | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | null = null;
  #indexWrite: Promise<void> = Promise.resolve();
  #cache = new Map<string, { mtimeMs: number; size: number; session: Session }>();
  /** True while init() fills the rows: the index is written once at the end, not per row. */
  #loading = false;

  constructor(options: FsSessionStoreOptions) {
    super(options.clock);
    this.dir = join(options.stateDir, 'sessions');
    this.#logger = options.logger;
  }

  #path(id: string): string {
    // Ids are checked before any path is built from them.
    if (!isSafeSessionId(id)) throw new BadRequest('Invalid session id');
    return join(this.dir, `${id}.json`);
  }

  /**
   * Loads the index and checks it against the directory: rows whose file is gone are dropped,
   * files the index lacks or that changed after it was written are read. A missing or
   * unreadable index is rebuilt from the files.
   */
  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // Half-written copies a kill -9 left behind (the session files themselves are whole).
    const stale = await removeStaleTemps(this.dir);
    if (stale.length) this.#logger?.info({ msg: 'removed stale temp files', files: stale });
    const indexPath = join(this.dir, INDEX_FILE);
    let indexMtime = 0;
    const indexed = new Map<string, SessionRow>();
    const indexText = await readTextIfExists(indexPath);
    if (indexText !== null) {
      try {
        const rows: unknown = JSON.parse(indexText);
        if (!Array.isArray(rows)) throw new Error('not a list');
        for (const row of rows) {
          const normal = normaliseRow(row);
          if (normal) indexed.set(normal.session_id, normal);
        }
        indexMtime = (await stat(indexPath)).mtimeMs;
      } catch (err) {
        this.#logger?.error({ msg: 'session index unreadable; rebuilding', error: String(err) });
        indexed.clear();
      }
    }

    const ids = (await readdir(this.dir))
      .filter((name) => name.endsWith('.json') && !name.startsWith('_'))
      .map((name) => name.slice(0, -'.json'.length))
      .filter(isSafeSessionId);

    this.#loading = true;
    const toRead: string[] = [];
    for (const id of ids) {
      const row = indexed.get(id);
      // statSync: ~5 µs a file, far cheaper than 10,000 promise round trips at startup. `>=`:
      // mtimes are coarse (a few ms), so a file written in the same tick as the index is re-read.
      if (!row || statSync(join(this.dir, `${id}.json`)).mtimeMs >= indexMtime) toRead.push(id);
      else this.putRow(row);
    }
    // Files the index lacks are read a few at a time: parallel enough to hide I/O latency.
    for (let i = 0; i < toRead.length; i += READ_BATCH) {
      await Promise.all(toRead.slice(i, i + READ_BATCH).map((id) => this.#readIntoIndex(id)));
    }
    this.#loading = false;
    if (toRead.length || indexed.size !== ids.length || indexText === null) this.rowsChanged();
  }

  async #readIntoIndex(id: string): Promise<void> {
    try {
      const session = await this.load(id);
      if (session) this.putRow(toRow(session));
    } catch (err) {
      if (!this.brokenSessions.has(id)) this.brokenSessions.set(id, (err as Error).message);
      this.#logger?.error({ msg: 'session file unreadable; left untouched', session_id: id, error: this.brokenSessions.get(id) });
    }
  }

  async dispose(): Promise<void> {
    await this.locks.idle();
    await this.flushIndex();
  }

  /** Writes the index now (normally it is written shortly after each change). */
  async flushIndex(): Promise<void> {
    if (this.#flushTimer) {
      clearTimeout(this.#flushTimer);
      this.#flushTimer = null;
      this.#indexWrite = this.#indexWrite.then(() => this.#writeIndex());
    }
    await this.#indexWrite;
  }

  protected override rowsChanged(): void {
    if (this.#loading || this.#flushTimer) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = null;
      this.#indexWrite = this.#indexWrite.then(() => this.#writeIndex());
    }, INDEX_FLUSH_MS);
  }

  async #writeIndex(): Promise<void> {
    const rows = [...this.rows.values()].sort(compareRows);
    try {
      // Compact, unlike the session files: the index is a cache, read whole at every start.
      await writeFileAtomic(join(this.dir, INDEX_FILE), JSON.stringify(rows), { syncDir: false });
    } catch (err) {
      // The index is a cache: the session files stay the truth and the next start repairs it.
      this.#logger?.error({ msg: 'session index write failed', error: String(err) });
    }
  }

  protected async load(id: string): Promise<Session | null> {
    const path = this.#path(id);
    let st;
    try {
      st = await stat(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const cached = this.#cache.get(id);
    if (cached && cached.mtimeMs === st.mtimeMs && cached.size === st.size) return cached.session;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const session = parseSession(id, text, st.mtimeMs / 1000);
      this.brokenSessions.delete(id);
      this.#remember(id, { mtimeMs: st.mtimeMs, size: st.size, session });
      return session;
    } catch (err) {
      if (err instanceof CorruptSessionFile) {
        this.brokenSessions.set(id, err.message);
        this.dropRow(id);
        throw new Conflict(`Session file is unreadable (${err.message}); it was left untouched`);
      }
      throw err;
    }
  }

  #remember(id: string, entry: { mtimeMs: number; size: number; session: Session }) {
    this.#cache.delete(id);
    this.#cache.set(id, entry);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
  }

  protected async persist(session: Session, previous: Session | null): Promise<void> {
    const path = this.#path(session.session_id);
    if (previous && previous.messages.length > 0 && session.messages.length < previous.messages.length) {
      // A shrinking write (clear, truncate) keeps the longer transcript one step back.
      await writeFileAtomic(`${path}.bak`, await readFile(path), { syncDir: false });
    }
    const written = await writeFileAtomic(path, serializeSession(session));
    // The store never mutates a session it has handed to persist, so it can be cached as is.
    this.#remember(session.session_id, { ...written, session });
  }

  protected async remove(id: string): Promise<boolean> {
    this.#cache.delete(id);
    try {
      await unlink(this.#path(id));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}

/** A row from an index file, reduced to the keys this server lists; null when unusable. */
function normaliseRow(value: unknown): SessionRow | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (!isSafeSessionId(v.session_id) || typeof v.updated_at !== 'number' || typeof v.message_count !== 'number') return null;
  const row: Record<string, unknown> = {};
  for (const key of SESSION_ROW_KEYS) if (key in v) row[key] = v[key];
  row.title = typeof v.title === 'string' && v.title ? v.title : 'Untitled';
  row.created_at = typeof v.created_at === 'number' ? v.created_at : v.updated_at;
  row.pinned = v.pinned === true;
  row.archived = v.archived === true;
  row.project_id = typeof v.project_id === 'string' ? v.project_id : null;
  return row as SessionRow;
}
