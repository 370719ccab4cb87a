import { afterAll, describe, expect, it } from 'vitest';
import { resolveInsightsWindow, trailingDays } from '../../src/domain/insights-period.js';
import { InsightsTally, roundHalfEven } from '../../src/domain/insights.js';

// A zone with daylight saving: 2026-03-08 02:00 → 03:00 (a 23-hour day), 2026-11-01 02:00 → 01:00.
const previousTz = process.env.TZ;
process.env.TZ = 'America/New_York';
afterAll(() => {
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

/** Epoch seconds of a local wall-clock time in the test zone. */
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime() / 1000;
const NOW = local(2026, 3, 20, 15, 30);
const win = (query: Record<string, string>, now = NOW) => resolveInsightsWindow(query, now);

describe('insights period: trailing days', () => {
  it('is the zone the test runs in (the server calendar is the process time zone)', () => {
    expect(new Date(local(2026, 3, 7) * 1000).getTimezoneOffset()).toBe(300);
    expect(new Date(local(2026, 3, 9) * 1000).getTimezoneOffset()).toBe(240);
  });

  it('serves the last N calendar days through today, from a local midnight up to the clock', () => {
    const w = win({ days: '7' });
    expect(w).toMatchObject({
      mode: 'trailing',
      days: 7,
      firstDay: { y: 2026, m: 3, d: 14 },
      to: NOW,
      toInclusive: true,
      effectiveStart: null,
      effectiveEnd: null,
    });
    expect(w.from).toBe(local(2026, 3, 14));
  });

  it('steps back by calendar days across a DST change, not by 86 400 s', () => {
    // From 2026-03-10 back 7 days crosses the 23-hour 8 March: a fixed step would land at 23:00.
    const w = win({ days: '7' }, local(2026, 3, 10, 9));
    expect(w.firstDay).toEqual({ y: 2026, m: 3, d: 4 });
    expect(w.from).toBe(local(2026, 3, 4));
    expect(local(2026, 3, 10, 9) - w.from).toBe(6 * 86_400 + 9 * 3600 - 3600);
  });

  it('reads days as the incumbent does: an integer clamped to 1–365, else 30', () => {
    expect([undefined, '', 'abc', '7.5', '1e2', '0', '-4', '366', '99999', ' 90 ', '+14'].map(trailingDays)).toEqual([
      30, 30, 30, 30, 30, 1, 1, 365, 365, 90, 14,
    ]);
    expect(win({}).days).toBe(30);
  });
});

describe('insights period: absolute bounds', () => {
  it('reads YYYY-MM-DD as whole local days: local midnight to the next local midnight (exclusive)', () => {
    const w = win({ start: '2026-03-01', end: '2026-03-05', days: '7' });
    expect(w).toMatchObject({
      mode: 'custom',
      days: 5,
      firstDay: { y: 2026, m: 3, d: 1 },
      toInclusive: false,
      effectiveStart: '2026-03-01',
      effectiveEnd: '2026-03-05',
    });
    expect(w.from).toBe(local(2026, 3, 1));
    expect(w.to).toBe(local(2026, 3, 6));
  });

  it('counts a DST day once and keeps its 23 hours', () => {
    const w = win({ start: '2026-03-07', end: '2026-03-09' });
    expect(w.days).toBe(3);
    expect(w.to - w.from).toBe(3 * 86_400 - 3600);
    const autumn = win({ start: '2026-11-01', end: '2026-11-01' }, local(2026, 11, 5));
    expect(autumn.days).toBe(1);
    expect(autumn.to - autumn.from).toBe(86_400 + 3600);
  });

  it('clamps an end date of today to the clock (the day is not over)', () => {
    const w = win({ start: '2026-03-18', end: '2026-03-20' });
    expect(w).toMatchObject({ mode: 'custom', days: 3, to: NOW, toInclusive: true, effectiveEnd: '2026-03-20' });
  });

  it('keeps exact epoch bounds as [start, end), never widened to midnights', () => {
    const start = local(2026, 3, 2, 10, 15);
    const end = local(2026, 3, 4, 8);
    const w = win({ start: String(start), end: `${end}.5` });
    expect(w).toMatchObject({
      mode: 'custom',
      from: start,
      to: end + 0.5,
      toInclusive: false,
      days: 3,
      effectiveStart: '2026-03-02',
      effectiveEnd: '2026-03-04',
    });
  });

  it('runs a start with no end to the server clock', () => {
    const w = win({ start: '2026-03-15' });
    expect(w).toMatchObject({ mode: 'custom', days: 6, from: local(2026, 3, 15), to: NOW, toInclusive: true });
  });

  it('backs an end date with no start 30 calendar days (midnight to midnight, across DST)', () => {
    const w = win({ end: '2026-03-25' }, local(2026, 4, 10));
    expect(w.firstDay).toEqual({ y: 2026, m: 2, d: 23 });
    expect(w.from).toBe(local(2026, 2, 23));
    expect(w.days).toBe(31);
  });

  it('backs a numeric end with no start exactly 30 × 86 400 s, so across DST it lands an hour off the calendar', () => {
    const end = local(2026, 3, 25, 0, 30);
    const w = win({ end: String(end) }, local(2026, 4, 10));
    expect(w.from).toBe(end - 30 * 86_400);
    // 30 days of seconds before 00:30 EDT is 23:30 EST the evening before the calendar's day.
    expect(w.firstDay).toEqual({ y: 2026, m: 2, d: 22 });
    expect(win({ end: '2026-03-25' }, local(2026, 4, 10)).firstDay).toEqual({ y: 2026, m: 2, d: 23 });
  });

  it('swaps reversed bounds, each keeping its own precision', () => {
    const w = win({ start: '2026-03-10', end: '2026-03-05' });
    expect(w).toMatchObject({
      mode: 'custom',
      days: 6,
      from: local(2026, 3, 5),
      to: local(2026, 3, 11),
      effectiveStart: '2026-03-05',
      effectiveEnd: '2026-03-10',
    });
    const exact = local(2026, 3, 12, 6);
    const mixed = win({ start: String(exact), end: '2026-03-10' });
    expect(mixed).toMatchObject({ from: local(2026, 3, 10), to: exact, toInclusive: false, days: 3 });
  });

  it('never reaches into the future: a later end is the clock', () => {
    const w = win({ start: '2026-03-19', end: '2026-04-30' });
    expect(w).toMatchObject({ mode: 'custom', days: 2, to: NOW, toInclusive: true, effectiveEnd: '2026-03-20' });
    expect(win({ start: '2026-03-19', end: String(NOW + 86_400) })).toMatchObject({ to: NOW, toInclusive: true });
    // A future end alone still steps back by the calendar from today.
    expect(win({ end: '2026-06-01' })).toMatchObject({ firstDay: { y: 2026, m: 2, d: 18 }, to: NOW });
  });

  it('keeps a zero-length window pinned to the clock as an empty custom interval', () => {
    const w = win({ start: String(NOW) });
    expect(w).toMatchObject({ mode: 'custom', days: 1, from: NOW, to: NOW, effectiveStart: '2026-03-20' });
  });

  it('clamps a window to five calendar years before its end (leap day to 28 February)', () => {
    const w = win({ start: '2001-01-01', end: '2026-03-05' });
    expect(w).toMatchObject({ mode: 'custom', firstDay: { y: 2021, m: 3, d: 5 }, effectiveStart: '2021-03-05', from: local(2021, 3, 5) });
    expect(w.days).toBe(1827);
    expect(win({ start: '2010-06-01', end: '2024-02-29' }).firstDay).toEqual({ y: 2019, m: 2, d: 28 });
    // Exactly five years (with a leap day inside) loses no day.
    expect(win({ start: '2021-05-04', end: '2026-03-04' }).firstDay).toEqual({ y: 2021, m: 5, d: 4 });
    expect(win({ start: String(local(2000, 1, 1)), end: String(local(2026, 3, 1, 12)) }).from).toBe(local(2021, 3, 1));
  });
});

describe('insights period: fail closed to the trailing window', () => {
  const trailing = { mode: 'trailing', days: 7, effectiveStart: null } as const;

  it.each([
    ['an impossible date', { start: '2026-02-31', end: '2026-03-05' }],
    ['an impossible end beside a valid start', { start: '2026-03-01', end: '2026-02-30' }],
    ['an impossible start with no end', { start: '2026-13-01' }],
    ['a pre-epoch date', { start: '0001-01-01', end: '2026-03-05' }],
    ['a pre-epoch number', { start: '-86400' }],
    ['a number past the supported range', { start: '2026-03-01', end: '1e20' }],
    ['a strictly future start', { start: '2026-03-21' }],
    ['a future epoch start beside a past end', { start: String(NOW + 1), end: '2026-03-01' }],
    ['text', { start: 'yesterday' }],
    ['infinity', { end: 'Infinity' }],
    ['hex', { start: '0x10' }],
    ['a date with a time', { start: '2026-03-01T00:00' }],
    ['whitespace', { start: '  ' }],
  ])('%s', (_, query) => {
    expect(win({ ...query, days: '7' })).toMatchObject(trailing);
  });

  it('treats an empty value as omitted (as parse_qs drops blank parameters)', () => {
    expect(win({ start: '', end: '', days: '7' })).toMatchObject(trailing);
    expect(win({ start: '2026-03-15', end: '' })).toMatchObject({ mode: 'custom', to: NOW });
  });
});

describe('insights tally: buckets in the local calendar', () => {
  it('puts a session in its local day, weekday and hour, across the 23-hour day', () => {
    const w = win({ start: '2026-03-07', end: '2026-03-09' });
    const tally = new InsightsTally(w);
    const at = [local(2026, 3, 7, 23, 59), local(2026, 3, 8, 1, 30), local(2026, 3, 8, 15, 30), local(2026, 3, 9, 0, 0)];
    for (const ts of at) tally.add(ts, 'm', 2, 10, 5, 0, 0.25);
    const r = tally.report();
    expect(r.daily_tokens.map((d) => [d.date, d.sessions])).toEqual([
      ['2026-03-07', 1],
      ['2026-03-08', 2],
      ['2026-03-09', 1],
    ]);
    // 7 March 2026 is a Saturday.
    expect(r.activity_by_day.filter((d) => d.sessions).map((d) => [d.day, d.sessions])).toEqual([
      ['Mon', 1],
      ['Sat', 1],
      ['Sun', 2],
    ]);
    expect(r.activity_by_hour.filter((h) => h.sessions).map((h) => [h.hour, h.sessions])).toEqual([
      [0, 1],
      [1, 1],
      [15, 1],
      [23, 1],
    ]);
    expect(r.total_cost).toBe(1);
  });

  it('sums per model, shares with round-half-even and sorts by cost, sessions, name', () => {
    const tally = new InsightsTally(win({ days: '7' }));
    tally.add(NOW - 60, 'b', 1, 100, 100, 0, 0);
    tally.add(NOW - 60, 'a', 1, 100, 100, 0, 0);
    tally.add(NOW - 60, null, 1, 0, 0, 0, 0.5);
    tally.add(NOW - 60, 'c', 1, 100, 0, 300, 0);
    const r = tally.report();
    expect(r.models.map((m) => [m.model, m.cost, m.session_share, m.token_share, m.cost_share, m.cache_hit_percent])).toEqual([
      ['unknown', 0.5, 25, 0, 100, null],
      ['a', 0, 25, 40, 0, null],
      ['b', 0, 25, 40, 0, null],
      ['c', 0, 25, 20, 0, 75],
    ]);
    expect(r.total_cache_hit_percent).toBe(50);
    expect([0.5, 1.5, 2.5, -0.5, 12.5, 12.51].map(roundHalfEven)).toEqual([0, 2, 2, -0, 12, 13]);
  });
});
