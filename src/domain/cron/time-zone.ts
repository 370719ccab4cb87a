import { parse } from 'yaml';
import type { HermesHome } from '../../ports/hermes-home.js';

/**
 * Time zones as Hermes uses them (hermes_time): config.yaml `timezone` (an IANA name) when it
 * is set and valid, else the machine's zone. Wall clocks and UTC offsets come from Intl, so the
 * module runs on every runtime.
 */

/** The zone this process runs in (Node: TZ or the system's; Workers: UTC). */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Whether Intl knows `zone` as a time zone. */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** config.yaml's `timezone` when it is a zone Intl knows; null otherwise (Hermes ignores a bad one too). */
export function configuredTimeZone(configYaml: string | null): string | null {
  if (!configYaml) return null;
  let data: unknown;
  try {
    data = parse(configYaml);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const zone = (data as Record<string, unknown>).timezone;
  return typeof zone === 'string' && isTimeZone(zone.trim()) ? zone.trim() : null;
}

/** The zone a profile's schedules are read in. */
export async function profileTimeZone(home: HermesHome): Promise<string> {
  const { configYaml } = await home.config.readFiles();
  return configuredTimeZone(configYaml) ?? serverTimeZone();
}

/** Wall-clock fields of an instant in a zone. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function wallClock(instant: Date, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The zone's offset from UTC at `instant`, in minutes (east positive). */
export function offsetMinutes(instant: Date, zone: string): number {
  const w = wallClock(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60000);
}

/**
 * The instant a wall-clock time in `zone` names. A repeated hour (autumn) gives its first
 * occurrence; a skipped one (spring) is read with the offset before the change, as Python's
 * zoneinfo does for fold=0.
 */
export function instantOf(w: WallClock, zone: string, ms = 0): Date {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, ms);
  // The offsets in force a day either side bound every candidate.
  const before = offsetMinutes(new Date(asUtc - 86400000), zone);
  const after = offsetMinutes(new Date(asUtc + 86400000), zone);
  for (const offset of before >= after ? [before, after] : [after, before]) {
    const candidate = new Date(asUtc - offset * 60000);
    if (offsetMinutes(candidate, zone) === offset) return candidate;
  }
  return new Date(asUtc - before * 60000);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** `+01:00` / `-05:00` / `+00:00`, as Python's isoformat writes offsets. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/**
 * An instant as Python's `datetime.isoformat()` writes an aware time in `zone`:
 * `2026-12-01T09:00:00+01:00`, with `.ffffff` only when there are fractions of a second.
 */
export function isoInZone(instant: Date, zone: string): string {
  const w = wallClock(instant, zone);
  const ms = ((instant.getTime() % 1000) + 1000) % 1000;
  const fraction = ms ? `.${pad(ms, 3)}000` : '';
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${fraction}${formatOffset(offsetMinutes(instant, zone))}`;
}

/** `YYYY-MM-DD HH:MM` of the instant in `zone` (Hermes' `once at …` display). */
export function wallText(instant: Date, zone: string, seconds = false): string {
  const w = wallClock(instant, zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}${seconds ? `:${pad(w.second)}` : ''}`;
}

/** A fixed offset as an Intl zone name is not available for every offset; this formats wall text for one. */
export function wallTextAtOffset(instant: Date, offset: number, seconds = false): string {
  const shifted = new Date(instant.getTime() + offset * 60000);
  const w = wallClock(shifted, 'UTC');
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}${seconds ? `:${pad(w.second)}` : ''}`;
}
