/** One day of the incumbent's cost-history chart: cumulative `used` and that day's `delta` (USD). */
export interface CostDay {
  date: string;
  used: number;
  delta: number;
}

const DAY = 86_400;
const utcDate = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
/** Cents and below rounded away from float noise, as the incumbent rounds its deltas (6 places). */
const round6 = (x: number) => (Math.abs(x) < 1e-9 ? 0 : Math.round(x * 1e6) / 1e6);

/**
 * The last `days` UTC days ending today, each with what was spent that day and the running total
 * over the window. `spends` are `[epoch seconds, USD]`; anything outside the window is ignored.
 */
export function costDays(spends: Iterable<[number, number]>, days: number, now: number): CostDay[] {
  const dates: string[] = [];
  for (let i = days - 1; i >= 0; i--) dates.push(utcDate(now - i * DAY));
  const perDay = new Map(dates.map((d) => [d, 0]));
  for (const [ts, usd] of spends) {
    const d = utcDate(ts);
    if (perDay.has(d) && Number.isFinite(usd) && usd > 0) perDay.set(d, perDay.get(d)! + usd);
  }
  let used = 0;
  return dates.map((date) => {
    const delta = round6(perDay.get(date)!);
    used = round6(used + delta);
    return { date, used, delta };
  });
}
