import { Cron } from 'croner';
import { BadRequest } from '../../ports/errors.js';
import type { CronSchedule } from './types.js';
import { formatOffset, instantOf, isoInZone, offsetMinutes } from './time-zone.js';

/**
 * Hermes' schedule forms (cron/jobs.py parse_schedule), re-expressed:
 *   `30m`, `2h`, `1d`, `every 30m`, `every 2h` → `{kind: "interval", minutes, display: "every <n>m"}`
 *   `in 30m`                                   → `{kind: "once", run_at, display: "once in 30m"}`
 *   `every monday 9am`, `weekdays at 9am`      → `{kind: "cron", expr: "0 9 * * 1-5", display: <as typed>}`
 *   `0 9 * * *` (5 or 6 fields)                → `{kind: "cron", expr, display: expr}`
 *   `2026-02-03T14:00:00` (naive = the profile's zone) → `{kind: "once", run_at, display: "once at 2026-02-03 14:00"}`
 * Cron expressions run through croner in the profile's zone (DST-correct).
 */

/** A one-shot created up to this long after its time still runs (Hermes' ONESHOT_GRACE_SECONDS). */
export const ONESHOT_GRACE_MS = 120_000;

const UNIT_MINUTES: Record<string, number> = { m: 1, h: 60, d: 1440 };
const DURATION = /^(\d*)\s*(m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days)$/;

/** `30m` → 30, `2h` → 120, `1d` → 1440, a bare `hour` → 60; Hermes' message for anything else. */
export function parseDuration(text: string): number {
  const s = text.trim().toLowerCase();
  const m = DURATION.exec(s);
  if (!m) throw new BadRequest(`Invalid duration: '${s}'. Use format like '30m', '2h', '1d', or a bare unit like 'hour' (defaults to 1).`);
  return (m[1] ? Number(m[1]) : 1) * UNIT_MINUTES[m[2]![0]!]!;
}

// Cron weekday numbers (0 = Sunday) for the natural phrases.
const WEEKDAYS: Record<string, string> = {
  sunday: '0',
  sun: '0',
  monday: '1',
  mon: '1',
  tuesday: '2',
  tue: '2',
  tues: '2',
  wednesday: '3',
  wed: '3',
  weds: '3',
  thursday: '4',
  thu: '4',
  thur: '4',
  thurs: '4',
  friday: '5',
  fri: '5',
  saturday: '6',
  sat: '6',
};
const DAY_SPECS: Record<string, string> = {
  day: '*',
  daily: '*',
  everyday: '*',
  weekday: '1-5',
  weekdays: '1-5',
  weekend: '0,6',
  weekends: '0,6',
};

/** `9am`, `9:30pm`, `14:00`, `7` (24 h), `noon`, `midnight` → [hour, minute]; null otherwise. */
function clockTime(text: string): [number, number] | null {
  const t = text.trim().toLowerCase().replace(/ /g, '');
  if (!t) return null;
  if (t === 'noon' || t === 'midday') return [12, 0];
  if (t === 'midnight') return [0, 0];
  const m = /^(\d{1,2})(?::(\d{2}))?(am|pm)?$/.exec(t);
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? 0);
  if (m[3]) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  return hour > 23 || minute > 59 ? null : [hour, minute];
}

/** `monday 9am`, `weekdays at 9am`, `monday, wednesday at 9am` → a 5-field expression, or null. */
function naturalToCron(rest: string): string | null {
  const tokens = rest.toLowerCase().replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  if (!tokens.length) return null;
  let dow = DAY_SPECS[tokens[0]!];
  let index = 1;
  if (dow === undefined) {
    const days: string[] = [];
    index = tokens.length;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i] === 'and') continue;
      const day = WEEKDAYS[tokens[i]!];
      if (day === undefined) {
        index = i;
        break;
      }
      if (!days.includes(day)) days.push(day);
    }
    if (!days.length) return null;
    dow = days.join(',');
  }
  let timeTokens = tokens.slice(index);
  if (timeTokens[0] === 'at') timeTokens = timeTokens.slice(1);
  if (!timeTokens.length) return null;
  const time = clockTime(timeTokens.join(' '));
  return time ? `${time[1]} ${time[0]} * * ${dow}` : null;
}

/** croniter puts seconds last (6 fields) and years 7th; croner wants seconds first. */
function cronerPattern(expr: string): string {
  const f = expr.trim().split(/\s+/);
  if (f.length === 6) return [f[5], ...f.slice(0, 5)].join(' ');
  if (f.length === 7) return [f[5], ...f.slice(0, 5), f[6]].join(' ');
  return f.join(' ');
}

function cron(expr: string, timeZone: string): Cron {
  return new Cron(cronerPattern(expr), { timezone: timeZone, paused: true });
}

function cronSchedule(expr: string, display: string, label: string): CronSchedule {
  const fields = expr.trim().split(/\s+/).length;
  try {
    if (fields > 7) throw new Error(`expected 5 to 7 fields, got ${fields}`);
    cron(expr, 'UTC');
  } catch (err) {
    throw new BadRequest(`Invalid ${label} '${display}': ${err instanceof Error ? err.message : String(err)}`);
  }
  return { kind: 'cron', expr, display };
}

function intervalSchedule(minutes: number): CronSchedule {
  // Hermes stores a 0-minute interval and then fires it every tick; refuse it instead.
  if (minutes < 1) throw new BadRequest('An interval must be at least 1 minute');
  return { kind: 'interval', minutes, display: `every ${minutes}m` };
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

interface IsoTime {
  instant: Date;
  /** The wall clock as written, `YYYY-MM-DDTHH:MM:SS[.ffffff]`. */
  wall: string;
  offset: number;
}

/** An ISO time as Python's fromisoformat reads it; naive times are wall clock in `timeZone`. */
function readIso(text: string, timeZone: string): IsoTime {
  const m = ISO.exec(text);
  const fail = (why: string) => new BadRequest(`Invalid timestamp '${text}': ${why}`);
  if (!m) throw fail(`Invalid isoformat string: '${text}'`);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const micros = Number((m[7] ?? '').padEnd(6, '0') || 0);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) throw fail('day is out of range for month');
  if (hour > 23 || minute > 59 || second > 59) throw fail('a time field is out of range');
  const ms = Math.floor(micros / 1000);
  let offset: number;
  let instant: Date;
  if (m[8]) {
    const z = m[8].toUpperCase();
    const digits = z.slice(1).replace(':', '');
    offset = z === 'Z' ? 0 : (z[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
    instant = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60000);
  } else {
    instant = instantOf({ year, month, day, hour, minute, second }, timeZone, ms);
    offset = offsetMinutes(instant, timeZone);
  }
  const p = (n: number) => String(n).padStart(2, '0');
  const wall = `${year}-${p(month)}-${p(day)}T${p(hour)}:${p(minute)}:${p(second)}${micros ? `.${String(micros).padStart(6, '0')}` : ''}`;
  return { instant, wall, offset };
}

function onceAt(text: string, timeZone: string): CronSchedule {
  const t = readIso(text, timeZone);
  return { kind: 'once', run_at: `${t.wall}${formatOffset(t.offset)}`, display: `once at ${t.wall.slice(0, 16).replace('T', ' ')}` };
}

const CRON_FIELD = /^[A-Za-z\d*\-,/]+$/;

/**
 * Reads a schedule as Hermes does; BadRequest with Hermes' reason for what it refuses.
 * `now` and `timeZone` place `in 30m` and naive timestamps.
 */
export function parseSchedule(text: string, now: Date, timeZone: string): CronSchedule {
  const schedule = text.trim();
  const lower = schedule.toLowerCase();
  const every = lower.startsWith('every ');
  const rest = every ? schedule.slice(6).trim() : lower;
  const natural = naturalToCron(rest);
  if (natural !== null) return cronSchedule(natural, schedule, 'schedule');
  if (every) return intervalSchedule(parseDuration(rest));

  const parts = schedule.split(/\s+/);
  if (parts.length >= 5 && parts.slice(0, 5).every((p) => CRON_FIELD.test(p))) return cronSchedule(schedule, schedule, 'cron expression');

  if (schedule.includes('T') || /^\d{4}-\d{2}-\d{2}/.test(schedule)) return onceAt(schedule, timeZone);

  if (lower.startsWith('in ')) {
    const duration = schedule.slice(3).trim();
    let minutes: number;
    try {
      minutes = parseDuration(duration);
    } catch {
      throw new BadRequest(`Invalid duration '${duration}' after 'in '. Use e.g. 'in 30m', 'in 2h'.`);
    }
    // Elapsed time, not wall-clock hours across a DST change.
    const at = new Date(now.getTime() + minutes * 60000);
    return { kind: 'once', run_at: isoInZone(at, timeZone), display: `once in ${duration}` };
  }
  try {
    return intervalSchedule(parseDuration(schedule));
  } catch {
    throw new BadRequest(
      `Invalid schedule '${schedule}'. Use:\n` +
        "  - Interval: '30m', 'every 30m', 'every 2h' (recurring)\n" +
        "  - One-shot delay: 'in 30m', 'in 2h' (fires once)\n" +
        "  - Weekly/daily: 'every monday 9am', 'weekdays at 9am' (recurring)\n" +
        "  - Cron: '0 9 * * *' (cron expression)\n" +
        "  - Timestamp: '2026-02-03T14:00:00' (one-shot at time)",
    );
  }
}

/** A stored time (ISO, with or without offset; naive = `timeZone`), or null when unreadable. */
export function parseStoredTime(value: unknown, timeZone: string): Date | null {
  if (typeof value !== 'string' || !value) return null;
  try {
    return readIso(value.trim(), timeZone).instant;
  } catch {
    return null;
  }
}

/**
 * When the schedule next runs after `after` (Hermes' compute_next_run). Recurring schedules
 * anchor on `lastRunAt` when given, so a restart does not move them; a one-shot that ran, or
 * whose time is more than the grace window past, has no next run.
 */
export function nextRunAt(schedule: CronSchedule, after: Date, timeZone: string, lastRunAt?: Date | null): Date | null {
  if (schedule.kind === 'once') {
    if (lastRunAt) return null;
    const at = parseStoredTime(schedule.run_at, timeZone);
    return at && at.getTime() >= after.getTime() - ONESHOT_GRACE_MS ? at : null;
  }
  const base = lastRunAt ?? after;
  if (schedule.kind === 'interval') {
    const minutes = Number(schedule.minutes);
    return Number.isFinite(minutes) && minutes > 0 ? new Date(base.getTime() + minutes * 60000) : null;
  }
  if (schedule.kind === 'cron' && typeof schedule.expr === 'string' && schedule.expr) {
    try {
      return cron(schedule.expr, timeZone).nextRun(base);
    } catch {
      return null;
    }
  }
  return null;
}

/** The next `count` run times from `from` (the panel's preview). */
export function nextRuns(schedule: CronSchedule, from: Date, count: number, timeZone: string): Date[] {
  if (count < 1) return [];
  if (schedule.kind === 'cron') {
    try {
      return cron(schedule.expr, timeZone).nextRuns(count, from);
    } catch {
      return [];
    }
  }
  const runs: Date[] = [];
  let at = nextRunAt(schedule, from, timeZone);
  while (at && runs.length < count) {
    runs.push(at);
    at = schedule.kind === 'interval' ? nextRunAt(schedule, at, timeZone) : null;
  }
  return runs;
}

/** Refuses a one-shot that would never run (Hermes refuses creating one more than the grace window past). */
export function assertSchedulable(schedule: CronSchedule, now: Date, timeZone: string): void {
  if (schedule.kind === 'once' && !nextRunAt(schedule, now, timeZone)) {
    throw new BadRequest(`Requested one-shot time ${schedule.run_at} is more than ${ONESHOT_GRACE_MS / 1000}s in the past and cannot be scheduled.`);
  }
}
export { describeSchedule, describeMinutes } from './schedule-words.js';
