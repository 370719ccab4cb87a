import type { CronSchedule } from './types.js';

/**
 * A schedule in words for the Tasks panel: "every day at 09:00", "every 2 hours",
 * "once at 2026-02-03 14:00". Cron expressions outside the common shapes fall back to
 * "cron: <expr>" rather than a wrong sentence.
 */

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_ALIASES: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const pad = (n: number) => String(n).padStart(2, '0');
const plural = (n: number, unit: string) => (n === 1 ? `every ${unit}` : `every ${n} ${unit}s`);
const isNumber = (s: string) => /^\d+$/.test(s);

export function describeMinutes(minutes: number): string {
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

function dayNumber(token: string): number | null {
  if (isNumber(token)) {
    const n = Number(token);
    return n >= 0 && n <= 7 ? n % 7 : null;
  }
  return DAY_ALIASES[token.toLowerCase().slice(0, 3)] ?? null;
}

/** `1-5` → "weekday", `0,6` → "Saturday and Sunday", `1,3` → "Monday and Wednesday". */
function describeDays(dow: string): string | null {
  const lower = dow.toLowerCase();
  if (lower === '1-5' || lower === 'mon-fri') return 'weekday';
  const days: number[] = [];
  for (const part of dow.split(',')) {
    const range = part.split('-');
    if (range.length === 2) {
      const [from, to] = range.map(dayNumber);
      if (from == null || to == null || to < from) return null;
      for (let d = from; d <= to; d++) days.push(d);
    } else {
      const d = dayNumber(part);
      if (d == null) return null;
      days.push(d);
    }
  }
  const unique = [...new Set(days)].sort((a, b) => a - b);
  if (unique.length === 2 && unique[0] === 0 && unique[1] === 6) return 'Saturday and Sunday';
  const names = unique.map((d) => DAY_NAMES[d]!);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? null);
}

function describeCron(expr: string): string {
  const fields = expr.trim().split(/\s+/);
  const fallback = `cron: ${expr.trim()}`;
  if (fields.length !== 5) return fallback;
  const [min, hour, dom, mon, dow] = fields as [string, string, string, string, string];
  const step = (f: string) => /^\*\/(\d+)$/.exec(f)?.[1];
  if (dom === '*' && mon === '*' && dow === '*') {
    if (min === '*' && hour === '*') return 'every minute';
    const minuteStep = step(min);
    if (minuteStep && hour === '*') return plural(Number(minuteStep), 'minute');
    if (isNumber(min) && hour === '*') return Number(min) === 0 ? 'every hour' : `every hour at :${pad(Number(min))}`;
    const hourStep = step(hour);
    if (isNumber(min) && hourStep) return `${plural(Number(hourStep), 'hour')}${Number(min) ? ` at :${pad(Number(min))}` : ''}`;
  }
  if (!isNumber(min) || !/^\d+(,\d+)*$/.test(hour)) return fallback;
  const times = hour
    .split(',')
    .map((h) => `${pad(Number(h))}:${pad(Number(min))}`)
    .join(', ');
  if (mon === '*' && dom === '*') {
    if (dow === '*') return `every day at ${times}`;
    const days = describeDays(dow);
    return days ? `every ${days} at ${times}` : fallback;
  }
  if (isNumber(dom) && dow === '*') {
    if (mon === '*') return `on day ${Number(dom)} of every month at ${times}`;
    if (isNumber(mon) && Number(mon) >= 1 && Number(mon) <= 12) return `every year on ${MONTH_NAMES[Number(mon) - 1]} ${Number(dom)} at ${times}`;
  }
  return fallback;
}

export function describeSchedule(schedule: CronSchedule | null | undefined): string {
  if (!schedule || typeof schedule !== 'object') return 'no schedule';
  switch (schedule.kind) {
    case 'interval':
      return Number(schedule.minutes) > 0 ? describeMinutes(Number(schedule.minutes)) : String(schedule.display ?? 'interval');
    case 'cron':
      return typeof schedule.expr === 'string' ? describeCron(schedule.expr) : String(schedule.display ?? 'cron');
    case 'once': {
      const at = typeof schedule.run_at === 'string' ? schedule.run_at : '';
      // The wall clock as stored, in the zone it was stored in.
      return at.length >= 16 ? `once at ${at.slice(0, 10)} ${at.slice(11, 16)}` : String(schedule.display ?? 'once');
    }
    default:
      return String((schedule as { display?: unknown }).display ?? 'unknown schedule');
  }
}
