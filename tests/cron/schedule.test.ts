import { describe, expect, it } from 'vitest';
import { describeSchedule, nextRunAt, nextRuns, parseDuration, parseSchedule, assertSchedulable } from '../../src/domain/cron/schedule.js';
import { configuredTimeZone, isoInZone } from '../../src/domain/cron/time-zone.js';
import { BadRequest } from '../../src/ports/errors.js';

const NOW = new Date('2026-12-01T10:00:00Z');
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const refusal = (text: string, zone = 'UTC') => {
  try {
    parseSchedule(text, NOW, zone);
  } catch (err) {
    expect(err).toBeInstanceOf(BadRequest);
    return (err as Error).message;
  }
  throw new Error(`${text} was accepted`);
};

describe('parseSchedule: the forms Hermes stores', () => {
  it('reads bare and "every" durations as recurring intervals in minutes', () => {
    expect(parseSchedule('every 1h', NOW, 'UTC')).toEqual({ kind: 'interval', minutes: 60, display: 'every 60m' });
    expect(parseSchedule('every 30m', NOW, 'UTC')).toEqual({ kind: 'interval', minutes: 30, display: 'every 30m' });
    expect(parseSchedule('2h', NOW, 'UTC')).toEqual({ kind: 'interval', minutes: 120, display: 'every 120m' });
    expect(parseSchedule('1d', NOW, 'UTC')).toEqual({ kind: 'interval', minutes: 1440, display: 'every 1440m' });
    expect(parseSchedule('every hour', NOW, 'UTC')).toEqual({ kind: 'interval', minutes: 60, display: 'every 60m' });
    expect(parseDuration(' 45 mins ')).toBe(45);
  });

  it('reads "in <duration>" as a one-shot that far from now, in the profile zone', () => {
    expect(parseSchedule('in 30m', NOW, 'Europe/Berlin')).toEqual({ kind: 'once', run_at: '2026-12-01T11:30:00+01:00', display: 'once in 30m' });
  });

  it('keeps a cron expression as typed', () => {
    expect(parseSchedule('0 9 * * *', NOW, 'UTC')).toEqual({ kind: 'cron', expr: '0 9 * * *', display: '0 9 * * *' });
    expect(parseSchedule('*/15 8-18 * * MON-FRI', NOW, 'UTC').kind).toBe('cron');
  });

  it('turns day-and-time phrases into cron expressions, display as typed', () => {
    expect(parseSchedule('every monday 9am', NOW, 'UTC')).toEqual({ kind: 'cron', expr: '0 9 * * 1', display: 'every monday 9am' });
    expect(parseSchedule('weekdays at 9:30pm', NOW, 'UTC')).toEqual({ kind: 'cron', expr: '30 21 * * 1-5', display: 'weekdays at 9:30pm' });
    expect(parseSchedule('every day at noon', NOW, 'UTC')).toMatchObject({ expr: '0 12 * * *' });
    expect(parseSchedule('every monday, wednesday at 7', NOW, 'UTC')).toMatchObject({ expr: '0 7 * * 1,3' });
  });

  it('reads ISO timestamps as one-shots: naive ones in the profile zone, offsets kept', () => {
    expect(parseSchedule('2026-12-24T18:00:00', NOW, 'Europe/Berlin')).toEqual({
      kind: 'once',
      run_at: '2026-12-24T18:00:00+01:00',
      display: 'once at 2026-12-24 18:00',
    });
    expect(parseSchedule('2026-07-04T09:15', NOW, 'America/New_York')).toMatchObject({ run_at: '2026-07-04T09:15:00-04:00' });
    expect(parseSchedule('2026-12-24T18:00:00Z', NOW, 'Europe/Berlin')).toMatchObject({ run_at: '2026-12-24T18:00:00+00:00' });
    expect(parseSchedule('2026-12-24 07:05:30+05:30', NOW, 'UTC')).toMatchObject({ run_at: '2026-12-24T07:05:30+05:30', display: 'once at 2026-12-24 07:05' });
  });

  it("refuses what Hermes refuses, with Hermes' reasons", () => {
    expect(refusal('sometimes')).toMatch(/^Invalid schedule 'sometimes'\. Use:/);
    expect(refusal('every fortnight')).toMatch(/^Invalid duration: 'fortnight'/);
    expect(refusal('in soon')).toBe("Invalid duration 'soon' after 'in '. Use e.g. 'in 30m', 'in 2h'.");
    expect(refusal('61 * * * *')).toMatch(/^Invalid cron expression '61 \* \* \* \*': /);
    expect(refusal('2026-02-30T10:00:00')).toMatch(/^Invalid timestamp '2026-02-30T10:00:00': /);
    expect(refusal('every 0m')).toMatch(/at least 1 minute/);
  });

  it('refuses scheduling a one-shot more than the grace window in the past', () => {
    const past = parseSchedule('2026-12-01T09:00:00Z', NOW, 'UTC');
    expect(() => assertSchedulable(past, NOW, 'UTC')).toThrow(/more than 120s in the past/);
    const justPast = parseSchedule('2026-12-01T09:59:00Z', NOW, 'UTC');
    expect(() => assertSchedulable(justPast, NOW, 'UTC')).not.toThrow();
  });
});

describe('next runs', () => {
  it('runs a daily 09:00 job at 09:00 wall clock on both sides of spring-forward (Europe/Berlin)', () => {
    const s = parseSchedule('0 9 * * *', NOW, 'Europe/Berlin');
    expect(iso(nextRuns(s, new Date('2026-03-27T12:00:00Z'), 4, 'Europe/Berlin'))).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z',
    ]);
  });

  it('runs a time in the skipped hour once, just after the gap, and a repeated hour once (Europe/Berlin)', () => {
    const s = parseSchedule('30 2 * * *', NOW, 'Europe/Berlin');
    expect(iso(nextRuns(s, new Date('2026-03-28T12:00:00Z'), 2, 'Europe/Berlin'))).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(iso(nextRuns(s, new Date('2026-10-24T12:00:00Z'), 2, 'Europe/Berlin'))).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('follows America/New_York across fall-back, strictly after the anchor', () => {
    const s = parseSchedule('0 9 * * *', NOW, 'America/New_York');
    expect(nextRunAt(s, new Date('2026-10-31T13:00:00Z'), 'America/New_York')?.toISOString()).toBe('2026-11-01T14:00:00.000Z');
    // Anchored on the last run rather than now, as Hermes anchors recurring kinds.
    expect(nextRunAt(s, new Date('2026-11-05T00:00:00Z'), 'America/New_York', new Date('2026-11-01T14:00:00Z'))?.toISOString()).toBe(
      '2026-11-02T14:00:00.000Z',
    );
  });

  it('adds intervals in elapsed time, also across a DST change', () => {
    const s = parseSchedule('every 2h', NOW, 'Europe/Berlin');
    expect(iso(nextRuns(s, new Date('2026-03-29T00:00:00Z'), 3, 'Europe/Berlin'))).toEqual([
      '2026-03-29T02:00:00.000Z',
      '2026-03-29T04:00:00.000Z',
      '2026-03-29T06:00:00.000Z',
    ]);
    expect(nextRunAt(s, NOW, 'UTC', new Date('2026-12-01T09:30:00Z'))?.toISOString()).toBe('2026-12-01T11:30:00.000Z');
  });

  it('runs a one-shot once: its time (within the grace window), nothing after it ran', () => {
    const s = parseSchedule('2026-12-01T12:00:00', NOW, 'Europe/Berlin');
    expect(nextRunAt(s, NOW, 'Europe/Berlin')?.toISOString()).toBe('2026-12-01T11:00:00.000Z');
    expect(nextRunAt(s, new Date('2026-12-01T11:01:59Z'), 'Europe/Berlin')?.toISOString()).toBe('2026-12-01T11:00:00.000Z');
    expect(nextRunAt(s, new Date('2026-12-01T11:02:01Z'), 'Europe/Berlin')).toBeNull();
    expect(nextRunAt(s, NOW, 'Europe/Berlin', new Date('2026-12-01T11:00:05Z'))).toBeNull();
    expect(iso(nextRuns(s, NOW, 3, 'Europe/Berlin'))).toEqual(['2026-12-01T11:00:00.000Z']);
  });

  it('writes instants as Python isoformat in the zone', () => {
    expect(isoInZone(new Date('2026-07-01T07:00:00Z'), 'Europe/Berlin')).toBe('2026-07-01T09:00:00+02:00');
    expect(isoInZone(new Date('2026-01-01T07:00:00.250Z'), 'America/New_York')).toBe('2026-01-01T02:00:00.250000-05:00');
    expect(isoInZone(new Date('2026-01-01T07:00:00Z'), 'UTC')).toBe('2026-01-01T07:00:00+00:00');
  });
});

describe('describeSchedule and the profile zone', () => {
  it('says schedules in words', () => {
    const words = (t: string) => describeSchedule(parseSchedule(t, NOW, 'Europe/Berlin'));
    expect(words('0 9 * * *')).toBe('every day at 09:00');
    expect(words('every monday 9am')).toBe('every Monday at 09:00');
    expect(words('weekdays at 7:30')).toBe('every weekday at 07:30');
    expect(words('0 10 * * 0,6')).toBe('every Saturday and Sunday at 10:00');
    expect(words('*/15 * * * *')).toBe('every 15 minutes');
    expect(words('0 */3 * * *')).toBe('every 3 hours');
    expect(words('0 8 1 * *')).toBe('on day 1 of every month at 08:00');
    expect(words('every 2h')).toBe('every 2 hours');
    expect(words('90m')).toBe('every 90 minutes');
    expect(words('1d')).toBe('every day');
    expect(words('2026-12-24T18:00')).toBe('once at 2026-12-24 18:00');
    expect(words('0 9 L * *')).toBe('cron: 0 9 L * *');
  });

  it("reads config.yaml's timezone, ignoring one Intl does not know", () => {
    expect(configuredTimeZone('timezone: Europe/Berlin\nmodel: x\n')).toBe('Europe/Berlin');
    expect(configuredTimeZone('timezone: Mars/Olympus\n')).toBeNull();
    expect(configuredTimeZone('model: x\n')).toBeNull();
    expect(configuredTimeZone(': : bad yaml [')).toBeNull();
  });
});
