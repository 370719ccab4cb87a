import { formatNumber } from '../i18n/format.js';

/** Figures as the usage chips and the context ring print them, in the current language (Intl). */

/** 950 → "950", 12_345 → "12.3K", 1_500_000 → "1.5M" (the language's compact notation). */
export function formatTokens(n: number): string {
  // One decimal while the leading figure is under 100 (12.3K), none past it (123K), as before Intl.
  const lead = n >= 1_000_000 ? n / 1_000_000 : n / 1000;
  return formatNumber(Math.round(n), { notation: 'compact', maximumFractionDigits: lead >= 100 ? 0 : 1 });
}

/** USD: four decimals under a cent (a turn often costs a fraction of one), else two. */
export function formatCost(usd: number): string {
  const digits = usd > 0 && usd < 0.01 ? 4 : 2;
  return formatNumber(usd, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "3.4s" (one decimal at most, the language's unit). */
export function formatSeconds(seconds: number): string {
  return formatNumber(seconds, { style: 'unit', unit: 'second', unitDisplay: 'narrow', maximumFractionDigits: 1 });
}

/** Seconds: "850ms", "3.4s", "2m 05s". */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return formatNumber(Math.round(seconds * 1000), { style: 'unit', unit: 'millisecond', unitDisplay: 'narrow' });
  if (seconds < 60) return formatSeconds(seconds);
  const m = Math.floor(seconds / 60);
  const minutes = formatNumber(m, { style: 'unit', unit: 'minute', unitDisplay: 'narrow' });
  const rest = formatNumber(Math.round(seconds - m * 60), { style: 'unit', unit: 'second', unitDisplay: 'narrow', minimumIntegerDigits: 2 });
  return `${minutes} ${rest}`;
}

/** A share of a whole as a whole percent, never past 100 (a prompt can overshoot a stale window). */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.round((part / whole) * 100)) : 0;
}
