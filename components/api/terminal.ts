import { apiUrl, q, request } from './client.js';

export interface TerminalStart {
  ok: true;
  session_id: string;
  workspace: string;
  running: boolean;
  rows: number;
  cols: number;
  /** `node-pty`, or `script` (the util-linux fallback: resizing is best effort). */
  engine: 'node-pty' | 'script';
}

/** The embedded terminal's endpoints (POST /api/terminal/*, SSE /api/terminal/output). */
export const terminalApi = {
  start: (sid: string, rows: number, cols: number, restart = false) =>
    request<TerminalStart>('POST', '/api/terminal/start', { session_id: sid, rows, cols, restart }),
  input: (sid: string, data: string) => request<{ ok: true }>('POST', '/api/terminal/input', { session_id: sid, data }),
  resize: (sid: string, rows: number, cols: number) => request<{ ok: true }>('POST', '/api/terminal/resize', { session_id: sid, rows, cols }),
  close: (sid: string) => request<{ ok: true; closed: boolean }>('POST', '/api/terminal/close', { session_id: sid }),
  /** EventSource sends Last-Event-ID itself when it reconnects: only newer output is replayed. */
  output: (sid: string) => new EventSource(apiUrl(`/api/terminal/output?${q({ session_id: sid })}`)),
};
