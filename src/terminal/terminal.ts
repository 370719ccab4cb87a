import type { PtyProcess } from '../ports/pty.js';

/** What the output stream carries, with the numeric id EventSource sends back as Last-Event-ID. */
export type TerminalFrame =
  | { id: number; event: 'output'; data: { text: string } }
  | { id: number; event: 'terminal_error'; data: { error: string } }
  | { id: number; event: 'terminal_closed'; data: { exit_code: number | null } };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type FrameBody = WithoutId<TerminalFrame>;

/** The incumbent keeps 2,000 output chunks; chunks here are coalesced, and the text is capped too. */
export const BACKLOG_FRAMES = 2000;
export const BACKLOG_CHARS = 1_000_000;
/** Output arriving within one timer turn goes out as one frame; a flood flushes at this size. */
const COALESCE_CHARS = 32_768;

export type FrameListener = (frame: TerminalFrame) => void;

/**
 * One session's shell: its output fanned out to every attached viewer plus a bounded backlog a
 * new viewer replays (a reconnecting one only what is newer than its Last-Event-ID).
 */
export class Terminal {
  rows: number;
  cols: number;
  closed = false;
  exitCode: number | null = null;
  /** When the last viewer left (ms); null while one is attached. A terminal is born unwatched. */
  unwatchedSince: number | null;
  private readonly backlog: TerminalFrame[] = [];
  private backlogChars = 0;
  private nextId = 1;
  private readonly viewers = new Set<FrameListener>();
  private pending = '';
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly exitListeners: Array<() => void> = [];

  constructor(
    readonly sessionId: string,
    readonly workspace: string,
    readonly proc: PtyProcess,
    size: { rows: number; cols: number },
    private readonly now: () => number,
  ) {
    this.rows = size.rows;
    this.cols = size.cols;
    this.unwatchedSince = now();
    proc.onData((text) => this.output(text));
    proc.onExit((code) => this.exited(code));
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Attaches a viewer: the backlog after `afterId` (all of it when absent) now, then everything new. */
  attach(listener: FrameListener, afterId?: number): () => void {
    this.flush();
    for (const f of this.backlog) if (afterId === undefined || f.id > afterId) listener(f);
    this.viewers.add(listener);
    this.unwatchedSince = null;
    return () => {
      if (!this.viewers.delete(listener)) return;
      if (this.viewers.size === 0) this.unwatchedSince = this.now();
    };
  }

  write(data: string): void {
    if (!this.closed) this.proc.write(data);
  }

  resize(rows: number, cols: number): void {
    this.rows = rows;
    this.cols = cols;
    if (!this.closed) this.proc.resize(rows, cols);
  }

  /** Ends the shell; `terminal_closed` follows when it has exited. */
  kill(): void {
    this.proc.kill();
  }

  onExit(fn: () => void): void {
    if (this.closed) fn();
    else this.exitListeners.push(fn);
  }

  /** The shell could not start (or its pty broke): `terminal_error`, and the terminal is closed. */
  fail(message: string): void {
    this.flush();
    this.publish({ event: 'terminal_error', data: { error: message } });
    this.exited(null);
  }

  private output(text: string): void {
    if (this.closed) return;
    this.pending += text;
    if (this.pending.length >= COALESCE_CHARS) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), 0);
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.publish({ event: 'output', data: { text } });
  }

  private exited(code: number | null): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.exitCode = code;
    this.publish({ event: 'terminal_closed', data: { exit_code: code } });
    for (const fn of this.exitListeners.splice(0)) fn();
  }

  private publish(body: FrameBody): void {
    const frame = { id: this.nextId++, ...body } as TerminalFrame;
    this.backlog.push(frame);
    this.backlogChars += frame.event === 'output' ? frame.data.text.length : 0;
    while (this.backlog.length > BACKLOG_FRAMES || (this.backlogChars > BACKLOG_CHARS && this.backlog.length > 1)) {
      const old = this.backlog.shift()!;
      if (old.event === 'output') this.backlogChars -= old.data.text.length;
    }
    for (const v of this.viewers) v(frame);
  }
}
