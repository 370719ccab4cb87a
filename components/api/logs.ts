import { q, request } from './client.js';

export const LOG_FILES = ['agent', 'errors', 'gateway', 'webui'] as const;
export type LogFile = (typeof LOG_FILES)[number];
export const LOG_TAILS = [100, 200, 500, 1000] as const;

/** GET /api/logs, the incumbent's shape (`webui` is this server's own JSON lines). */
export interface LogsAnswer {
  file: LogFile;
  tail: number;
  lines: string[];
  truncated: boolean;
  total_bytes: number;
  /** Epoch seconds; null when the file does not exist yet. */
  mtime: number | null;
  /** Why there is nothing to show (the file does not exist yet); '' otherwise. */
  hint: string;
  /** Ours: the hint's code and values (src/shared/server-texts.ts LOG_HINTS), for the panel to translate. */
  hint_code?: string;
  hint_args?: Record<string, string>;
}

export const logsApi = {
  get: (file: LogFile, tail: number) => request<LogsAnswer>('GET', `/api/logs?${q({ file, tail })}`),
};
