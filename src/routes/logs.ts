import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest } from '../ports/errors.js';
import type { FileTail } from '../ports/hermes-home.js';
import { queryParams } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { redactSecrets } from '../shared/redact.js';
import { type CodedHint, logHint } from '../shared/server-texts-en.js';

/** Hermes' own logs under the profile's `logs/` (the incumbent's whitelist), plus this server's. */
const HERMES_LOGS = { agent: 'agent.log', errors: 'errors.log', gateway: 'gateway.log' } as const;
export const LOG_FILES = [...(Object.keys(HERMES_LOGS) as (keyof typeof HERMES_LOGS)[]), 'webui'] as const;
export type LogFile = (typeof LOG_FILES)[number];
export const LOG_TAILS = [100, 200, 500, 1000] as const;
const DEFAULT_TAIL = 200;
/** The most read from the end of a file, whatever its size (the incumbent's bound). */
export const LOG_MAX_BYTES = 4 * 1024 * 1024;

const LogsQuery = z.object({
  file: z
    .string()
    .optional()
    .transform((v) => (v ?? '').trim().toLowerCase() || 'agent'),
  // As the incumbent: a tail that is not one of the offered lengths falls back to the default.
  tail: z
    .string()
    .optional()
    .transform((v) => {
      const n = Number((v ?? '').trim());
      return (LOG_TAILS as readonly number[]).includes(n) ? n : DEFAULT_TAIL;
    }),
});

/** Python's `str.splitlines()` boundaries, so a line is what Hermes' reader would call one. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

const BREAK_CODES = new Set([0x0a, 0x0d, 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029]);

/** Where the last `count` lines of `text` begin (just after a line break), or 0 when it has fewer. */
function startOfLast(text: string, count: number): number {
  // The break ending the last line does not start one.
  let i = text.length - 1;
  if (i >= 0 && BREAK_CODES.has(text.charCodeAt(i))) i -= text.charCodeAt(i) === 0x0a && text.charCodeAt(i - 1) === 0x0d ? 2 : 1;
  for (let seen = 0; i >= 0; i--) {
    const code = text.charCodeAt(i);
    if (!BREAK_CODES.has(code)) continue;
    if (++seen === count) return i + 1;
    // \r\n is one break.
    if (code === 0x0a && text.charCodeAt(i - 1) === 0x0d) i--;
  }
  return 0;
}

/**
 * The last `tail` lines of what was read; a line the read cut at its start is left out. Only
 * the end is split (a 4 MB window holds tens of thousands of lines; the panel wants ≤ 1000).
 */
function lastLines(read: FileTail, tail: number): string[] {
  const start = startOfLast(read.text, tail);
  const lines = read.text.slice(start).split(LINE_BREAK);
  if (lines.at(-1) === '') lines.pop();
  if (start === 0 && read.bytesRead < read.size) lines.shift();
  return lines.slice(-tail).map(redactSecrets);
}

/**
 * GET /api/logs?file=agent|errors|gateway|webui&tail=100|200|500|1000: the end of one log, in
 * the incumbent's shape. Hermes' files are the request's profile's; `webui` is this server's
 * JSON lines. At most the last 4 MB is read; every line is masked again on the way out (a
 * Hermes log may predate its redaction, or come from a plugin that logs a key).
 */
export function logRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/logs', async (c) => {
    const parsed = queryParams(c, LogsQuery);
    // Checked here so the answer is the incumbent's text alone (zod would prefix the field's name).
    if (!(LOG_FILES as readonly string[]).includes(parsed.file)) throw new BadRequest('Unknown log file');
    const q = { ...parsed, file: parsed.file as LogFile };
    // The English hint (the incumbent's field) with its code and values beside it, for the web app to translate.
    const empty = (hint: CodedHint) =>
      c.json({
        file: q.file,
        tail: q.tail,
        lines: [],
        truncated: false,
        total_bytes: 0,
        mtime: null,
        hint: hint.text,
        hint_code: hint.code,
        hint_args: hint.args,
      });
    let read: FileTail | null;
    if (q.file === 'webui') {
      if (!deps.serverLog) return empty(logHint('server_log_not_kept', {}));
      read = await deps.serverLog.readTail(LOG_MAX_BYTES);
    } else if (deps.options.features?.files === false) {
      // Workers: the agent runs elsewhere (or is the builtin), and nothing writes Hermes' logs here.
      return empty(logHint('hermes_logs_not_kept', {}));
    } else {
      const home = await requestHome(c, deps);
      const dir = `${home.root.replace(/\/+$/, '')}/logs`;
      const path = `${dir}/${HERMES_LOGS[q.file]}`;
      // The name is fixed above; a symlink may still point out of the logs folder.
      const real = await home.files.realPath(path);
      if (real.slice(0, real.lastIndexOf('/')) !== (await home.files.realPath(dir))) throw new BadRequest('Invalid log file');
      read = await home.files.readTail(path, LOG_MAX_BYTES);
    }
    if (!read) return empty(logHint('log_file_missing', { file: q.file }));
    return c.json({
      file: q.file,
      tail: q.tail,
      lines: lastLines(read, q.tail),
      truncated: read.bytesRead < read.size,
      total_bytes: read.size,
      mtime: read.mtime,
      hint: '',
    });
  });

  return app;
}
