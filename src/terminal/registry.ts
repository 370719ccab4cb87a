import type { PtyHost, PtyProcess } from '../ports/pty.js';
import { Conflict, NotFound } from '../ports/errors.js';
import { Terminal } from './terminal.js';

export const MAX_TERMINALS = 32;
/** The incumbent's grace: a terminal nobody has watched for 15 minutes is closed. */
export const IDLE_MS = 15 * 60 * 1000;
const REAP_EVERY_MS = 60 * 1000;

export interface TerminalOptions {
  host: PtyHost;
  /** Milliseconds. */
  now?: () => number;
  max?: number;
  idleMs?: number;
  reapEveryMs?: number;
  /** How often an open output stream gets a comment line (proxies close silent connections). */
  heartbeatMs?: number;
}

/** The incumbent's window clamps: 8–80 rows, 20–240 columns. */
export function clampSize(rows: number, cols: number): { rows: number; cols: number } {
  return { rows: Math.max(8, Math.min(Math.round(rows) || 24, 80)), cols: Math.max(20, Math.min(Math.round(cols) || 80, 240)) };
}

/**
 * The embedded terminals, one per session: at most `max` in all (the next start is refused), each
 * closed when nobody has watched it for `idleMs`, retired when its shell exits.
 */
export class TerminalRegistry {
  private readonly terminals = new Map<string, Terminal>();
  private readonly now: () => number;
  private readonly max: number;
  private readonly idleMs: number;
  private readonly reapEveryMs: number;
  private reaper: ReturnType<typeof setInterval> | null = null;
  readonly heartbeatMs: number;

  constructor(private readonly options: TerminalOptions) {
    this.now = options.now ?? (() => Date.now());
    this.max = options.max ?? MAX_TERMINALS;
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.reapEveryMs = options.reapEveryMs ?? REAP_EVERY_MS;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
  }

  /** `node-pty` or `script` (the fallback): what the start answer reports. */
  engine(): Promise<'node-pty' | 'script'> {
    return this.options.host.kind();
  }

  get count(): number {
    return this.terminals.size;
  }

  get(sessionId: string): Terminal | undefined {
    return this.terminals.get(sessionId);
  }

  /** The session's running terminal (resized to `size`), or a new one; `restart` always starts anew. */
  async start(sessionId: string, workspace: string, size: { rows: number; cols: number }, restart = false): Promise<Terminal> {
    const { rows, cols } = clampSize(size.rows, size.cols);
    const current = this.terminals.get(sessionId);
    if (current && !current.closed && !restart && current.workspace === workspace) {
      current.resize(rows, cols);
      return current;
    }
    if (current) this.close(sessionId);
    if (this.terminals.size >= this.max) {
      throw new Conflict(`Too many terminals open (${this.max}); close one first`, { limit: this.max });
    }
    let proc: PtyProcess;
    let failure: string | null = null;
    try {
      proc = await this.options.host.spawn({ cwd: workspace, rows, cols });
    } catch (err) {
      failure = `Could not start the shell: ${err instanceof Error ? err.message : String(err)}`;
      proc = deadProcess();
    }
    // Another start for this session may have finished while this one spawned: the later one wins.
    if (this.terminals.has(sessionId)) this.close(sessionId);
    const term = new Terminal(sessionId, workspace, proc, { rows, cols }, this.now);
    this.terminals.set(sessionId, term);
    this.startReaper();
    if (failure) {
      // Kept (closed) so the panel's stream replays the terminal_error; the next start replaces it.
      term.fail(failure);
      return term;
    }
    term.onExit(() => {
      if (this.terminals.get(sessionId) === term) this.terminals.delete(sessionId);
      this.stopReaperIfIdle();
    });
    return term;
  }

  require(sessionId: string): Terminal {
    const term = this.terminals.get(sessionId);
    if (!term || term.closed) throw new NotFound('terminal not running');
    return term;
  }

  resize(term: Terminal, rows: number, cols: number): void {
    const size = clampSize(rows, cols);
    term.resize(size.rows, size.cols);
  }

  /** Kills the session's shell; false when it had none. */
  close(sessionId: string): boolean {
    const term = this.terminals.get(sessionId);
    if (!term) return false;
    this.terminals.delete(sessionId);
    term.kill();
    this.stopReaperIfIdle();
    return true;
  }

  /** Closes the terminals nobody has watched for the grace; the count closed. */
  reap(): number {
    const now = this.now();
    let closed = 0;
    for (const [sid, term] of [...this.terminals]) {
      if (term.unwatchedSince !== null && now - term.unwatchedSince >= this.idleMs) {
        this.close(sid);
        closed++;
      }
    }
    return closed;
  }

  /** Every shell, killed and waited for (shutdown). */
  async closeAll(): Promise<void> {
    const all = [...this.terminals.values()];
    const exited = Promise.all(all.map((t) => new Promise<void>((resolve) => t.onExit(resolve))));
    for (const sid of [...this.terminals.keys()]) this.close(sid);
    await exited;
  }

  private startReaper(): void {
    if (this.reaper) return;
    this.reaper = setInterval(() => this.reap(), this.reapEveryMs);
    // A pending sweep never holds a Node process open.
    (this.reaper as { unref?: () => void }).unref?.();
  }

  private stopReaperIfIdle(): void {
    if (this.terminals.size > 0 || !this.reaper) return;
    clearInterval(this.reaper);
    this.reaper = null;
  }
}

/** Stands in for a shell that never started. */
function deadProcess(): PtyProcess {
  return { pid: 0, onData() {}, onExit() {}, write() {}, resize() {}, kill() {} };
}
