import { appendFile, mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../../ports/platform.js';
import type { ServerLog } from '../../ports/server-log.js';
import type { FileTail } from '../../ports/hermes-home.js';
import { readFileTail } from './node-file-tail.js';

export interface LogFileOptions {
  /** A file about to grow past this is renamed to `.1` first (the last line may cross it). */
  maxBytes: number;
  /** How many rotated files are kept (`.1` newest … `.<keep>` oldest); 0 keeps none. */
  keep: number;
  /** Where a failing write is reported (the file logger cannot log its own failure). */
  onError?: (err: unknown) => void;
}

/**
 * A log file of JSON lines (`{ts, level, msg, …fields}`), appended in batches: `info`/`error`
 * only queue the line; one append per event-loop turn writes what queued, so a burst of
 * requests costs one write and never waits on the disk. Rotated by size, as Python's
 * RotatingFileHandler does (`webui.log` → `webui.log.1` → … `.keep`). Mask secrets before it
 * (compose it behind `redactingLogger`).
 */
export class NodeLogFile implements Logger, ServerLog {
  #queue: string[] = [];
  #writing: Promise<void> | null = null;
  #size: number | null = null;

  constructor(
    readonly path: string,
    private readonly options: LogFileOptions,
    private readonly now: () => Date = () => new Date(),
  ) {}

  info(record: Record<string, unknown>): void {
    this.#push('info', record);
  }

  error(record: Record<string, unknown>): void {
    this.#push('error', record);
  }

  flush(): Promise<void> {
    // Drain until nothing is queued: lines logged while a batch was on its way go too.
    return (this.#writing ??= this.#drain()).then(() => (this.#queue.length ? this.flush() : undefined));
  }

  async readTail(maxBytes: number): Promise<FileTail | null> {
    await this.flush();
    return readFileTail(this.path, maxBytes);
  }

  #push(level: string, record: Record<string, unknown>) {
    const { msg, ...fields } = record;
    const line = JSON.stringify({ ts: this.now().toISOString(), level: typeof record.level === 'string' ? record.level : level, msg: msg ?? '', ...fields });
    this.#queue.push(`${line.replace(/[\r\n\u2028\u2029]/g, ' ')}\n`);
    this.#writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length) {
        const batch = this.#queue.join('');
        this.#queue = [];
        await this.#append(batch);
      }
    } finally {
      this.#writing = null;
    }
  }

  async #append(batch: string) {
    const bytes = Buffer.byteLength(batch);
    try {
      this.#size ??= (await stat(this.path).catch(() => null))?.size ?? 0;
      if (this.#size > 0 && this.#size + bytes > this.options.maxBytes) await this.#rotate();
      await appendFile(this.path, batch).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
        // The logs folder went away: make it again, but only inside a state dir that still exists.
        await mkdir(dirname(this.path));
        await appendFile(this.path, batch);
      });
      this.#size += bytes;
    } catch (err) {
      // A lost batch must not take the server down; the next one tries again from a fresh stat.
      this.#size = null;
      this.options.onError?.(err);
    }
  }

  async #rotate() {
    const { keep } = this.options;
    for (let n = keep - 1; n >= 1; n--) await rename(`${this.path}.${n}`, `${this.path}.${n + 1}`).catch(() => {});
    if (keep > 0) await rename(this.path, `${this.path}.1`);
    else await writeFile(this.path, '');
    this.#size = 0;
  }
}

/** Hands every record to each logger in turn. */
export function teeLogger(...loggers: Logger[]): Logger {
  return {
    info: (record) => {
      for (const l of loggers) l.info(record);
    },
    error: (record) => {
      for (const l of loggers) l.error(record);
    },
  };
}
