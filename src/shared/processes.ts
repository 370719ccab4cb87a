/**
 * A background process of a chat session (`terminal` with `background: true`) as the process
 * tool's `list` shows it and GET /api/session/processes returns it. Field names are Hermes'.
 */
export interface BackgroundProcessRow {
  /** `proc_` and 12 hex digits. */
  session_id: string;
  /** The command, cut at 200 characters. */
  command: string;
  cwd: string;
  pid: number;
  /** Local time, `YYYY-MM-DDTHH:MM:SS`. */
  started_at: string;
  uptime_seconds: number;
  status: 'running' | 'exited';
  /** The last 200 characters of output. */
  output_preview: string;
  exit_code?: number | null;
  /** Epoch seconds. */
  exited_at?: number | null;
  /** `exited` or `killed`. */
  completion_reason?: string | null;
}

export interface SessionProcessesResponse {
  processes: BackgroundProcessRow[];
}
