import { msg } from '@lit/localize';
import type { CronJobRow, CronRunRow, CronScheduler } from '../../api/crons.js';
import { formatDate, formatNumber, formatRelative } from '../../i18n/format.js';

/** The calm chip a job shows. */
export type TaskState = 'scheduled' | 'paused' | 'error' | 'running' | 'completed';

/** The chip's words for a state (its `data-state` stays the code). */
export function stateLabel(state: TaskState): string {
  return { scheduled: msg('scheduled'), paused: msg('paused'), error: msg('error'), running: msg('running'), completed: msg('completed') }[state];
}

/** The `data-state` hook of a run's chip. */
export const runTone = (status: string): 'error' | 'ok' => (status === 'error' ? 'error' : 'ok');

/** A run's status in words: the two the server says, else its word as it is. */
export const runStatusLabel = (status: string): string => (status === 'ok' ? msg('ok') : status === 'error' ? msg('error') : status);

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
  if (s.kind === 'webui') return msg('This server runs these tasks.');
  if (s.kind === 'gateway') return msg("Hermes' gateway runs these tasks.");
  return msg(
    'Nothing runs these tasks here: no scheduler is running on this server, and no Hermes gateway is configured. Runs start only from “Run now” or Hermes itself.',
  );
}

/** "in 3 hours", "5 minutes ago", in the app's language. */
export const relative = (at: Date, now = Date.now()): string => formatRelative(at.getTime(), now, 'long');

export const absolute = (at: Date) => formatDate(at);

export function toDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** One part of a duration, narrow ("12.3s", "5 min"…) in the app's language. */
const unit = (n: number, u: string, digits = 0) => formatNumber(n, { style: 'unit', unit: u, unitDisplay: 'narrow', maximumFractionDigits: digits });

export function duration(seconds: number | undefined): string {
  if (seconds === undefined) return '';
  if (seconds < 60) return unit(seconds, 'second', 1);
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${unit(m, 'minute')} ${unit(Math.round(seconds % 60), 'second')}` : `${unit(Math.floor(m / 60), 'hour')} ${unit(m % 60, 'minute')}`;
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
