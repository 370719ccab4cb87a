import type { FileTail } from './hermes-home.js';

/**
 * This server's own log file (Node: JSON lines in `<state dir>/logs/webui.log`), for
 * `GET /api/logs?file=webui`. Absent where the server keeps no log file (Workers).
 */
export interface ServerLog {
  /** The last `maxBytes` of the current file, with every line logged so far written first. */
  readTail(maxBytes: number): Promise<FileTail | null>;
  /** Writes what is buffered; resolves once it is on disk (shutdown waits for it). */
  flush(): Promise<void>;
}
