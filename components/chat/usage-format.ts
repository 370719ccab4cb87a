/** Figures as the usage chips and the context ring print them. */

/** 950 → "950", 12_345 → "12.3K", 1_500_000 → "1.5M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${trim(n / 1000)}K`;
  return `${trim(n / 1_000_000)}M`;
}

const trim = (v: number) => (v >= 100 ? String(Math.round(v)) : v.toFixed(1).replace(/\.0$/, ''));

/** USD: four decimals under a cent (a turn often costs a fraction of one), else two. */
export function formatCost(usd: number): string {
  return `$${usd > 0 && usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** Seconds: "850ms", "3.4s", "2m 05s". */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  if (seconds < 60) return `${seconds.toFixed(1).replace(/\.0$/, '')}s`;
  const m = Math.floor(seconds / 60);
  return `${m}m ${String(Math.round(seconds - m * 60)).padStart(2, '0')}s`;
}

/** A share of a whole as a whole percent, never past 100 (a prompt can overshoot a stale window). */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.round((part / whole) * 100)) : 0;
}
