import type { BackgroundProcessRow } from '../../shared/processes.js';
import { RollingBuffer } from './output-window.js';
import type { SpawnedProcess, ToolHost } from './types.js';

/**
 * Background processes started by `terminal` with `background: true`, as Hermes' process
 * registry keeps them: a 200,000-character rolling output buffer each, finished ones kept
 * 30 minutes, at most 64 tracked (the oldest finished go first). They belong to a chat session
 * and outlive its turns; they are stopped when the session is deleted or the server stops.
 * Runtime-free: the host spawns, this keeps the books.
 */

export const PROCESS_OUTPUT_CHARS = 200_000;
const FINISHED_TTL_MS = 30 * 60_000;
const MAX_PROCESSES = 64;
/** A wait's and a kill's output tail, and a poll's preview (Hermes' sizes). */
const COMPLETION_TAIL = 2000;
const PREVIEW_TAIL = 1000;
const LIST_PREVIEW_TAIL = 200;
const MIN_PREFIX = 4;

export interface ProcessEntry {
  id: string;
  sessionId: string;
  command: string;
  cwd: string;
  pid: number;
  startedAt: number;
  exitedAt: number | null;
  exitCode: number | null;
  /** `exited` (ran to its end) or `killed` (process.kill, session delete, server stop). */
  completionReason: 'exited' | 'killed' | null;
  terminationSource: string | null;
  output: RollingBuffer;
  handle: SpawnedProcess;
  done: Promise<void>;
}

/** One row of `process(action="list")` and of GET /api/session/processes. */
export type ProcessRow = BackgroundProcessRow;

type Result = Record<string, unknown>;

const notFound = (id: string): Result => ({ status: 'not_found', error: `No process with ID ${id}` });

/** Hermes' ids: `proc_` and 12 hex digits. */
function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `proc_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function isoLocal(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export class ProcessRegistry {
  #entries = new Map<string, ProcessEntry>();
  #listeners = new Set<(sessionId: string) => void>();

  constructor(
    private readonly host: ToolHost,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called with the session id whenever one of its processes starts or ends (the Activity list). */
  onChange(listener: (sessionId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(sessionId: string, command: string, cwd: string): ProcessEntry {
    if (!this.host.spawn) throw new Error('Background processes are not available on this runtime');
    this.#prune();
    const output = new RollingBuffer(PROCESS_OUTPUT_CHARS);
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const entry = {
      id: newId(),
      sessionId,
      command,
      cwd,
      startedAt: this.now(),
      exitedAt: null,
      exitCode: null,
      completionReason: null,
      terminationSource: null,
      output,
      done,
    } as unknown as ProcessEntry;
    entry.handle = this.host.spawn({
      command,
      cwd,
      onOutput: (text) => output.push(text),
      onExit: (code, signal) => {
        entry.exitedAt = this.now();
        if (!entry.completionReason) {
          entry.completionReason = 'exited';
          entry.exitCode = code ?? (signal === 'SIGKILL' ? -9 : -15);
        }
        settle();
        this.#changed(sessionId);
      },
    });
    entry.pid = entry.handle.pid;
    this.#entries.set(entry.id, entry);
    this.#changed(sessionId);
    return entry;
  }

  #changed(sessionId: string): void {
    for (const l of this.#listeners) l(sessionId);
  }

  /** Drops finished processes past their 30 minutes, then the oldest finished while over 64. */
  #prune(): void {
    const now = this.now();
    const finished = [...this.#entries.values()].filter((e) => e.exitedAt !== null);
    for (const e of finished) if (now - e.startedAt > FINISHED_TTL_MS) this.#entries.delete(e.id);
    const left = finished.filter((e) => this.#entries.has(e.id)).sort((a, b) => a.startedAt - b.startedAt);
    while (this.#entries.size >= MAX_PROCESSES && left.length) this.#entries.delete((left.shift() as ProcessEntry).id);
  }

  /** By full id or a unique prefix of at least 4 hex digits (`proc_4dae` or `4dae`), within the session. */
  get(sessionId: string, id: string): ProcessEntry | null {
    const exact = this.#entries.get(id);
    if (exact) return exact.sessionId === sessionId ? exact : null;
    const q = id.trim().startsWith('proc_') ? id.trim() : `proc_${id.trim()}`;
    if (q.length - 5 < MIN_PREFIX) return null;
    const hits = [...this.#entries.values()].filter((e) => e.sessionId === sessionId && e.id.startsWith(q));
    return hits.length === 1 ? (hits[0] as ProcessEntry) : null;
  }

  list(sessionId: string): ProcessRow[] {
    this.#prune();
    const now = this.now();
    return [...this.#entries.values()]
      .filter((e) => e.sessionId === sessionId)
      .sort((a, b) => b.startedAt - a.startedAt)
      .map((e) => {
        const row: ProcessRow = {
          session_id: e.id,
          command: e.command.slice(0, 200),
          cwd: e.cwd,
          pid: e.pid,
          started_at: isoLocal(e.startedAt),
          uptime_seconds: Math.floor(((e.exitedAt ?? now) - e.startedAt) / 1000),
          status: e.exitedAt === null ? 'running' : 'exited',
          output_preview: e.output.text().slice(-LIST_PREVIEW_TAIL),
        };
        if (e.exitedAt !== null) Object.assign(row, { exit_code: e.exitCode, exited_at: e.exitedAt / 1000, completion_reason: e.completionReason });
        return row;
      });
  }

  #head(e: ProcessEntry): Result {
    return { session_id: e.id, command: e.command, status: e.exitedAt === null ? 'running' : 'exited' };
  }

  #exitFields(e: ProcessEntry): Result {
    return { exit_code: e.exitCode, completion_reason: e.completionReason, termination_source: e.terminationSource };
  }

  poll(sessionId: string, id: string): Result {
    const e = this.get(sessionId, id);
    if (!e) return notFound(id);
    const result: Result = {
      ...this.#head(e),
      pid: e.pid,
      uptime_seconds: Math.floor((this.now() - e.startedAt) / 1000),
      output_preview: e.output.text().slice(-PREVIEW_TAIL),
    };
    if (e.exitedAt !== null) Object.assign(result, this.#exitFields(e));
    return result;
  }

  /** Lines of the buffer: the last `limit` by default, or `limit` from line `offset`. */
  log(sessionId: string, id: string, offset: number | null, limit: number): Result {
    const e = this.get(sessionId, id);
    if (!e) return notFound(id);
    const lines = e.output.text().split(/\r?\n|\r/);
    if (lines.at(-1) === '') lines.pop();
    const selected = offset === null && limit > 0 ? lines.slice(-limit) : lines.slice(offset ?? 0, (offset ?? 0) + limit);
    return { ...this.#head(e), output: selected.join('\n'), total_lines: lines.length, showing: `${selected.length} lines` };
  }

  /** Blocks until the process exits, `timeoutSeconds` pass, or the turn is cancelled. */
  async wait(sessionId: string, id: string, timeoutSeconds: number | null, maxSeconds: number, signal: AbortSignal): Promise<Result> {
    if (timeoutSeconds !== null && timeoutSeconds <= 0) return { status: 'error', error: `timeout must be positive (got ${timeoutSeconds})` };
    const e = this.get(sessionId, id);
    if (!e) return notFound(id);
    let effective = timeoutSeconds ?? maxSeconds;
    let clampNote: string | null = null;
    if (timeoutSeconds !== null && timeoutSeconds > maxSeconds) {
      effective = maxSeconds;
      clampNote = `Requested wait of ${timeoutSeconds}s was clamped to configured limit of ${maxSeconds}s`;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const outcome = await Promise.race([
      e.done.then(() => 'exited' as const),
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), effective * 1000))),
      new Promise<'interrupted'>((resolve) => {
        onAbort = () => resolve('interrupted');
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    let result: Result;
    if (outcome === 'exited') {
      result = { status: 'exited', command: e.command, ...this.#exitFields(e), output: e.output.text().slice(-COMPLETION_TAIL) };
    } else if (outcome === 'interrupted') {
      result = { status: 'interrupted', command: e.command, output: e.output.text().slice(-PREVIEW_TAIL), note: 'User sent a new message -- wait interrupted' };
    } else {
      const uptime = Math.floor((this.now() - e.startedAt) / 1000);
      const note =
        `Wait window of ${effective}s elapsed — the process is still running. This is not an error. Uptime: ${uptime}s.` +
        ' Poll again later, or wait again if there is nothing else to do.';
      return {
        status: 'timeout',
        command: e.command,
        output: e.output.text().slice(-PREVIEW_TAIL),
        process_running: true,
        timeout_note: clampNote ? `${clampNote}. ${note}` : note,
      };
    }
    if (clampNote) result.timeout_note = clampNote;
    return result;
  }

  async kill(sessionId: string, id: string, source = 'process.kill'): Promise<Result> {
    const e = this.get(sessionId, id);
    if (!e) return notFound(id);
    if (e.exitedAt !== null) {
      return { status: 'already_exited', command: e.command, ...this.#exitFields(e), output: e.output.text().slice(-COMPLETION_TAIL) };
    }
    e.completionReason = 'killed';
    e.terminationSource = source;
    e.exitCode = -15;
    await e.handle.kill();
    await e.done;
    return { status: 'killed', session_id: e.id, completion_reason: 'killed', termination_source: source, output: e.output.text().slice(-COMPLETION_TAIL) };
  }

  write(sessionId: string, id: string, data: string): Result {
    const e = this.get(sessionId, id);
    if (!e) return notFound(id);
    if (e.exitedAt !== null) return { status: 'already_exited', error: 'Process has already finished' };
    if (!e.handle.write(data)) return { status: 'error', error: 'Process stdin not available (stdin closed)' };
    return { status: 'ok', bytes_written: data.length };
  }

  closeStdin(sessionId: string, id: string): Result {
    const e = this.get(sessionId, id);
    if (!e) return notFound(id);
    if (e.exitedAt !== null) return { status: 'already_exited', error: 'Process has already finished' };
    e.handle.closeStdin();
    return { status: 'ok', message: 'stdin closed' };
  }

  /** Stops every running process of a session (it was deleted) and forgets them all. */
  async stopSession(sessionId: string, source = 'session_deleted'): Promise<number> {
    const mine = [...this.#entries.values()].filter((e) => e.sessionId === sessionId);
    const running = mine.filter((e) => e.exitedAt === null);
    await Promise.all(running.map((e) => this.kill(sessionId, e.id, source)));
    for (const e of mine) this.#entries.delete(e.id);
    return running.length;
  }

  /** Stops everything (server shutdown, a test's teardown). */
  async stopAll(source = 'server_stop'): Promise<void> {
    const sessions = new Set([...this.#entries.values()].map((e) => e.sessionId));
    await Promise.all([...sessions].map((s) => this.stopSession(s, source)));
  }

  /** The per-session view a tool call gets. */
  forSession(sessionId: string): SessionProcesses {
    return {
      start: (command, cwd) => this.start(sessionId, command, cwd),
      list: () => this.list(sessionId),
      poll: (id) => this.poll(sessionId, id),
      log: (id, offset, limit) => this.log(sessionId, id, offset, limit),
      wait: (id, timeout, max, signal) => this.wait(sessionId, id, timeout, max, signal),
      kill: (id) => this.kill(sessionId, id),
      write: (id, data) => this.write(sessionId, id, data),
      closeStdin: (id) => this.closeStdin(sessionId, id),
    };
  }
}

export interface SessionProcesses {
  start(command: string, cwd: string): ProcessEntry;
  list(): ProcessRow[];
  poll(id: string): Result;
  log(id: string, offset: number | null, limit: number): Result;
  wait(id: string, timeoutSeconds: number | null, maxSeconds: number, signal: AbortSignal): Promise<Result>;
  kill(id: string): Promise<Result>;
  write(id: string, data: string): Result;
  closeStdin(id: string): Result;
}
