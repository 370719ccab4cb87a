import type { CronJobRow, CronRunRow, CronScheduler } from '../../api/crons.js';

/** The calm chip a job shows. */
export type TaskState = 'scheduled' | 'paused' | 'error' | 'running' | 'completed';

export function taskState(job: CronJobRow, running: boolean): TaskState {
  if (running || job.state === 'running') return 'running';
  if (job.state === 'paused' || job.enabled === false) return 'paused';
  if (job.state === 'completed') return 'completed';
  if (job.last_status === 'error') return 'error';
  return 'scheduled';
}

/** The schedule in words: the server's text, else Hermes' display. */
export const scheduleWords = (job: CronJobRow) => job.schedule_text || job.schedule_display || job.schedule?.display || '';

/** The schedule as the form's text field shows it (what create/update parse again). */
export function scheduleInput(job: CronJobRow): string {
  const s = job.schedule;
  if (!s) return '';
  if (s.kind === 'cron') return s.expr;
  if (s.kind === 'interval') return `every ${s.minutes}m`;
  return s.run_at;
}

export function whoRuns(s: CronScheduler | undefined): string {
  if (!s) return '';
  if (s.kind === 'webui') return 'This server runs these tasks.';
  if (s.kind === 'gateway') return "Hermes' gateway runs these tasks.";
  return 'Nothing runs these tasks here: no scheduler is running on this server, and no Hermes gateway is configured. Runs start only from “Run now” or Hermes itself.';
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "in 3 hours", "5 minutes ago", "now". */
export function relative(at: Date, now = Date.now()): string {
  const ms = at.getTime() - now;
  for (const [unit, size] of UNITS) if (Math.abs(ms) >= size) return rtf.format(Math.round(ms / size), unit);
  return 'now';
}

export const absolute = (at: Date) => at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function toDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function duration(seconds: number | undefined): string {
  if (seconds === undefined) return '';
  if (seconds < 60) return `${Math.round(seconds * 10) / 10}s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m}m ${Math.round(seconds % 60)}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** A run's status: the server's word, else what its file says (Hermes marks a failed run's title). */
export function runStatus(run: CronRunRow): string {
  return run.status ?? '';
}

/** The session a run was, from the server or the output file's header. */
export function runSession(detail: { session_id?: string | null; content: string }): string | null {
  if (detail.session_id) return detail.session_id;
  const m = /\*\*Session(?: ID)?:\*\*\s*`?([\w.-]+)`?/i.exec(detail.content);
  return m ? m[1]! : null;
}

/**
 * A run's output as the panel renders it: Hermes writes its header one `**Label:** value` per
 * line, which markdown would run together into one paragraph; a hard break ends each line.
 * The download keeps the file as written.
 */
export function outputForDisplay(content: string): string {
  const at = content.indexOf('\n## ');
  const head = at === -1 ? content : content.slice(0, at);
  return head.replace(/^(\*\*[^*\n]+:\*\*[^\n]*?)[ \t]*\n(?=\*\*)/gm, '$1  \n') + (at === -1 ? '' : content.slice(at));
}
