/**
 * The window `GET /api/insights` serves (seed-ARCHITECTURE §4.12): a trailing `days=N` window,
 * or an absolute `start`/`end` one whose bounds are epoch seconds or `YYYY-MM-DD` days of the
 * server's own calendar (the process time zone: a browser elsewhere cannot shift a picked day).
 * Calendar steps go through local midnights, never fixed 86 400 s, so DST days count once.
 */

/** A calendar day (month 1–12). */
export interface CalendarDay {
  y: number;
  m: number;
  d: number;
}

export interface InsightsWindow {
  /** What was served: `custom` only when the absolute bounds could be honoured faithfully. */
  mode: 'trailing' | 'custom';
  /** Daily buckets (`period_days`): first day through last day, inclusive. */
  days: number;
  firstDay: CalendarDay;
  /** Sessions count when their usage time is ≥ `from` and < `to` (≤ when `toInclusive`). */
  from: number;
  to: number;
  toInclusive: boolean;
  /** The calendar days actually queried (custom windows only; null when trailing). */
  effectiveStart: string | null;
  effectiveEnd: string | null;
}

export interface InsightsQuery {
  days?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
}

const DAY = 86_400;
/** No session predates 1970; 2100-01-01 keeps every bound inside what a calendar can show. */
const MAX_EPOCH = 4_102_444_800;
const DEFAULT_DAYS = 30;
const MAX_TRAILING_DAYS = 365;
const MAX_YEARS = 5;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Epoch seconds of the day's local midnight; null when the day does not exist (2026-02-31). */
export function localMidnight(day: CalendarDay): number | null {
  const t = new Date(2000, 0, 1);
  // setFullYear, not the constructor: the constructor reads years 0–99 as 1900–1999.
  t.setFullYear(day.y, day.m - 1, day.d);
  t.setHours(0, 0, 0, 0);
  if (t.getFullYear() !== day.y || t.getMonth() !== day.m - 1 || t.getDate() !== day.d) return null;
  return t.getTime() / 1000;
}

/** The local calendar day holding `ts` (epoch seconds). */
export function dayOf(ts: number): CalendarDay {
  const t = new Date(ts * 1000);
  return { y: t.getFullYear(), m: t.getMonth() + 1, d: t.getDate() };
}

/** Pure calendar arithmetic (UTC has no DST), so adding days never lands on 23:00 or 01:00. */
export function addDays(day: CalendarDay, n: number): CalendarDay {
  const t = new Date(Date.UTC(2000, 0, 1));
  t.setUTCFullYear(day.y, day.m - 1, day.d + n);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

export function daysBetween(a: CalendarDay, b: CalendarDay): number {
  const at = new Date(0);
  at.setUTCFullYear(a.y, a.m - 1, a.d);
  const bt = new Date(0);
  bt.setUTCFullYear(b.y, b.m - 1, b.d);
  return Math.round((bt.getTime() - at.getTime()) / (DAY * 1000));
}

export const isoDay = (day: CalendarDay) => `${String(day.y).padStart(4, '0')}-${String(day.m).padStart(2, '0')}-${String(day.d).padStart(2, '0')}`;

const before = (a: CalendarDay, b: CalendarDay) => daysBetween(a, b) > 0;

/** The same day `years` earlier; Feb 29 becomes Feb 28 in a year without one. */
function yearsBack(day: CalendarDay, years: number): CalendarDay {
  const y = day.y - years;
  if (day.m === 2 && day.d === 29 && localMidnight({ y, m: 2, d: 29 }) === null) return { y, m: 2, d: 28 };
  return { y, m: day.m, d: day.d };
}

type Bound = { kind: 'date' | 'num'; ts: number; day?: CalendarDay };

/**
 * One supplied bound: a `YYYY-MM-DD` day (its local midnight) or exact epoch seconds. Null when
 * it cannot be read, or lies outside 1970–2100 (a pre-epoch `0001-01-01` from a date input).
 */
export function parseBound(raw: string): Bound | null {
  const v = raw.trim();
  const date = DATE_RE.exec(v);
  if (date) {
    const day = { y: Number(date[1]), m: Number(date[2]), d: Number(date[3]) };
    const ts = localMidnight(day);
    if (ts === null || ts < 0 || ts > MAX_EPOCH) return null;
    return { kind: 'date', ts, day };
  }
  if (!NUMBER_RE.test(v)) return null;
  const ts = Number(v);
  if (!Number.isFinite(ts) || ts < 0 || ts > MAX_EPOCH) return null;
  return { kind: 'num', ts };
}

/** `days` as the incumbent reads it: an integer clamped to 1–365, else 30. */
export function trailingDays(raw: string | undefined): number {
  if (raw === undefined || !/^\s*[+-]?\d+\s*$/.test(raw)) return DEFAULT_DAYS;
  return Math.min(Math.max(Number.parseInt(raw, 10), 1), MAX_TRAILING_DAYS);
}

/** The last `days` calendar days through today, up to the clock (inclusive). */
export function trailingWindow(days: number, now: number): InsightsWindow {
  const firstDay = addDays(dayOf(now), -(days - 1));
  return {
    mode: 'trailing',
    days,
    firstDay,
    from: localMidnight(firstDay) ?? now - days * DAY,
    to: now,
    toInclusive: true,
    effectiveStart: null,
    effectiveEnd: null,
  };
}

/**
 * The window a query asks for, at server time `now` (epoch seconds). A supplied bound that
 * cannot be served faithfully (unreadable, out of range, a start in the future) serves the
 * trailing window instead — never an interval the caller did not ask for.
 */
export function resolveInsightsWindow(query: InsightsQuery, now: number): InsightsWindow {
  const trailing = () => trailingWindow(trailingDays(query.days), now);
  // An empty value is no value (the incumbent's parse_qs drops blank parameters).
  const startRaw = query.start === '' ? undefined : query.start;
  const endRaw = query.end === '' ? undefined : query.end;
  if (startRaw === undefined && endRaw === undefined) return trailing();
  const startIn = startRaw === undefined ? undefined : parseBound(startRaw);
  const endIn = endRaw === undefined ? undefined : parseBound(endRaw);
  if (startIn === null || endIn === null) return trailing();
  if (startIn && startIn.ts > now) return trailing();

  // An end beyond the clock is the clock (a day keeps its kind: today, for the 30-day step).
  let end: Bound = !endIn ? { kind: 'num', ts: now } : endIn.ts > now ? { ...endIn, ts: now, day: dayOf(now) } : endIn;
  let start: Bound;
  if (startIn) start = startIn;
  else if (end.kind === 'date' && end.day) {
    // A calendar end steps back 30 calendar days (local midnight to local midnight).
    const day = addDays(end.day, -30);
    start = { kind: 'date', ts: localMidnight(day) ?? end.ts - 30 * DAY, day };
  } else start = { kind: 'num', ts: end.ts - 30 * DAY };
  // Reversed bounds are swapped (both are at or before the clock by now).
  if (start.ts > end.ts) [start, end] = [end, start];

  let startDay = start.day ?? dayOf(start.ts);
  const endDay = end.day ?? dayOf(end.ts);
  let from = start.kind === 'date' ? (localMidnight(startDay) ?? start.ts) : start.ts;
  const oldest = yearsBack(endDay, MAX_YEARS);
  if (before(startDay, oldest)) {
    startDay = oldest;
    from = localMidnight(oldest) ?? from;
  }
  const today = dayOf(now);
  let to: number;
  let toInclusive: boolean;
  if (end.ts === now) {
    // Up to the server clock (omitted, future or clamped end): sessions at `now` belong in it.
    to = now;
    toInclusive = true;
  } else if (end.kind === 'date') {
    // A whole day: through its end (the next local midnight), but today is not over yet.
    const isToday = daysBetween(endDay, today) === 0;
    to = isToday ? now : (localMidnight(addDays(endDay, 1)) ?? end.ts + DAY);
    toInclusive = isToday;
  } else {
    to = end.ts;
    toInclusive = false;
  }
  return {
    mode: 'custom',
    days: Math.max(daysBetween(startDay, endDay) + 1, 1),
    firstDay: startDay,
    from,
    to,
    toInclusive,
    effectiveStart: isoDay(startDay),
    effectiveEnd: isoDay(endDay),
  };
}
