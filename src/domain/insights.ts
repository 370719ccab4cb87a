import { addDays, isoDay, localMidnight, type InsightsWindow } from './insights-period.js';

/** The incumbent's `/api/insights` answer (api/routes.py `_handle_insights`). */
export interface InsightsModelRow {
  model: string;
  sessions: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_hit_percent: number | null;
  total_tokens: number;
  cost: number;
  session_share: number;
  token_share: number;
  cost_share: number;
}

export interface InsightsDay {
  date: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  sessions: number;
  cost: number;
}

export interface InsightsReport {
  period_days: number;
  mode: 'trailing' | 'custom';
  effective_start: string | null;
  effective_end: string | null;
  total_sessions: number;
  total_messages: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_cache_read_tokens: number;
  total_cache_hit_percent: number | null;
  total_tokens: number;
  total_cost: number;
  models: InsightsModelRow[];
  daily_tokens: InsightsDay[];
  activity_by_day: { day: string; sessions: number }[];
  activity_by_hour: { hour: number; sessions: number }[];
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** A token or message count as the incumbent coerces it: a non-negative integer, else 0. */
export const usageInt = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : 0;
  return Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0;
};

/** A cost: a non-negative number; strings may carry `$` and thousands commas. */
export const usageCost = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim().replace(/[$,]/g, '') || 0) : 0;
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** Python's round(): halves go to the even neighbour (the incumbent's shares and percents). */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Cached reads over the whole prompt (input + cache reads), 0–100; null when nothing to show. */
export function cacheHitPercent(cacheRead: number, prompt: number): number | null {
  if (cacheRead <= 0 || prompt <= 0) return null;
  return Math.min(100, roundHalfEven((cacheRead / prompt) * 100));
}

interface ModelTally {
  sessions: number;
  input: number;
  output: number;
  cacheRead: number;
  cost: number;
}

/**
 * Sums sessions into one window's report. Daily buckets are found by binary search over the
 * window's local midnights (computed once), and the hour from the bucket's midnight when that
 * day has no UTC-offset change, so 10 000 sessions cost no per-session calendar work.
 */
export class InsightsTally {
  readonly #w: InsightsWindow;
  /** Local midnight of each day of the window, and of the day after the last. */
  readonly #bounds: number[];
  readonly #steady: boolean[];
  readonly #weekday0: number;
  readonly #daily: { input: Float64Array; output: Float64Array; cacheRead: Float64Array; sessions: Float64Array; cost: Float64Array };
  readonly #byWeekday = new Array<number>(7).fill(0);
  readonly #byHour = new Array<number>(24).fill(0);
  readonly #models = new Map<string, ModelTally>();
  #sessions = 0;
  #messages = 0;
  #input = 0;
  #output = 0;
  #cacheRead = 0;
  #cost = 0;

  constructor(window: InsightsWindow) {
    this.#w = window;
    this.#bounds = [];
    for (let i = 0; i <= window.days; i++) {
      const day = addDays(window.firstDay, i);
      // A day whose midnight does not exist (a DST jump at 00:00) starts at its first instant.
      this.#bounds.push(localMidnight(day) ?? new Date(day.y, day.m - 1, day.d).getTime() / 1000);
    }
    this.#steady = [];
    for (let i = 0; i < window.days; i++) {
      const a = this.#bounds[i]!;
      const b = this.#bounds[i + 1]!;
      this.#steady.push(b - a === 86_400 && new Date(a * 1000).getTimezoneOffset() === new Date(b * 1000).getTimezoneOffset());
    }
    const first = window.firstDay;
    this.#weekday0 = (new Date(first.y, first.m - 1, first.d, 12).getDay() + 6) % 7;
    const n = window.days;
    this.#daily = {
      input: new Float64Array(n),
      output: new Float64Array(n),
      cacheRead: new Float64Array(n),
      sessions: new Float64Array(n),
      cost: new Float64Array(n),
    };
  }

  /** Whether a usage time falls inside the window. */
  admits(ts: number): boolean {
    const w = this.#w;
    return ts >= w.from && (w.toInclusive ? ts <= w.to : ts < w.to);
  }

  /** Adds one session whose usage time is `ts` (callers check `admits` first). */
  add(ts: number, model: string | null | undefined, messages: number, input: number, output: number, cacheRead: number, cost: number): void {
    this.#sessions++;
    this.#messages += messages;
    this.#input += input;
    this.#output += output;
    this.#cacheRead += cacheRead;
    this.#cost += cost;
    const name = model || 'unknown';
    let m = this.#models.get(name);
    if (!m) this.#models.set(name, (m = { sessions: 0, input: 0, output: 0, cacheRead: 0, cost: 0 }));
    m.sessions++;
    m.input += input;
    m.output += output;
    m.cacheRead += cacheRead;
    m.cost += cost;
    if (!ts) return;
    const i = this.#dayIndex(ts);
    if (i < 0) return;
    const d = this.#daily;
    d.input[i]! += input;
    d.output[i]! += output;
    d.cacheRead[i]! += cacheRead;
    d.sessions[i]! += 1;
    d.cost[i]! += cost;
    this.#byWeekday[(this.#weekday0 + i) % 7]! += 1;
    const hour = this.#steady[i] ? Math.floor((ts - this.#bounds[i]!) / 3600) : new Date(ts * 1000).getHours();
    this.#byHour[hour]! += 1;
  }

  #dayIndex(ts: number): number {
    const b = this.#bounds;
    if (ts < b[0]! || ts >= b[b.length - 1]!) return -1;
    let lo = 0;
    let hi = b.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (b[mid]! <= ts) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  report(): InsightsReport {
    const totalTokens = this.#input + this.#output;
    const totalCost = this.#cost;
    const models: InsightsModelRow[] = [];
    for (const [model, s] of this.#models) {
      const tokens = s.input + s.output;
      const cost = round6(s.cost);
      models.push({
        model,
        sessions: s.sessions,
        input_tokens: s.input,
        output_tokens: s.output,
        cache_read_tokens: s.cacheRead,
        cache_hit_percent: cacheHitPercent(s.cacheRead, s.input + s.cacheRead),
        total_tokens: tokens,
        cost,
        session_share: this.#sessions ? roundHalfEven((s.sessions / this.#sessions) * 100) : 0,
        token_share: totalTokens ? roundHalfEven((tokens / totalTokens) * 100) : 0,
        cost_share: totalCost ? roundHalfEven((cost / totalCost) * 100) : 0,
      });
    }
    models.sort((a, b) => b.cost - a.cost || b.sessions - a.sessions || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
    const d = this.#daily;
    const daily: InsightsDay[] = [];
    for (let i = 0; i < this.#w.days; i++) {
      daily.push({
        date: isoDay(addDays(this.#w.firstDay, i)),
        input_tokens: d.input[i]!,
        output_tokens: d.output[i]!,
        cache_read_tokens: d.cacheRead[i]!,
        sessions: d.sessions[i]!,
        cost: round6(d.cost[i]!),
      });
    }
    return {
      period_days: this.#w.days,
      mode: this.#w.mode,
      effective_start: this.#w.effectiveStart,
      effective_end: this.#w.effectiveEnd,
      total_sessions: this.#sessions,
      total_messages: this.#messages,
      total_input_tokens: this.#input,
      total_output_tokens: this.#output,
      total_cache_read_tokens: this.#cacheRead,
      total_cache_hit_percent: cacheHitPercent(this.#cacheRead, this.#input + this.#cacheRead),
      total_tokens: totalTokens,
      total_cost: round6(totalCost),
      models,
      daily_tokens: daily,
      activity_by_day: WEEKDAYS.map((day, i) => ({ day, sessions: this.#byWeekday[i]! })),
      activity_by_hour: this.#byHour.map((sessions, hour) => ({ hour, sessions })),
    };
  }
}
