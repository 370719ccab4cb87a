/**
 * How Hermes reads loose config.yaml values: a value it cannot use falls back to the default
 * instead of stopping the agent (hermes_cli/config.py and agent_init's int()/float()/str()
 * coercions). Pure functions; config.ts applies them.
 */

/** Spellings Hermes reads as "no turn limit" (compared trimmed and lowercased). */
const UNLIMITED = new Set(['none', 'null', 'unlimited', 'infinite', 'infinity', 'inf', '∞', '-1', '0']);

/**
 * `agent.max_turns` as Hermes' resolve_turn_limit reads it: null = unlimited (the default).
 * A positive number caps; 0, negatives and the unlimited spellings mean no cap; booleans, lists
 * and unparseable text keep the default.
 *
 * @example
 * turnLimit('unlimited') // null
 * turnLimit('12')        // 12
 */
export function turnLimit(raw: unknown, fallback: number | null = null): number | null {
  if (raw === null || raw === undefined || typeof raw === 'boolean') return fallback;
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string') {
    const s = raw.trim().toLowerCase();
    if (!s) return fallback;
    if (UNLIMITED.has(s)) return null;
    n = Number(s);
    if (!Number.isFinite(n)) return fallback;
  } else return fallback;
  if (Number.isNaN(n)) return fallback;
  if (n === Number.POSITIVE_INFINITY) return null;
  const whole = Math.trunc(n);
  return whole <= 0 ? null : whole;
}

function numeric(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && raw.trim()) {
    const n = Number(raw.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Python's `float(x)` with a fallback for what it would reject. */
export function toFloat(raw: unknown, fallback: number): number {
  return numeric(raw) ?? fallback;
}

/** Python's `int(x)` (truncating) with a fallback for what it would reject. */
export function toInt(raw: unknown, fallback: number): number {
  const n = numeric(raw);
  return n === null ? fallback : Math.trunc(n);
}

/** A positive whole number, or null for absent, zero, negative or unusable values (Hermes' optional caps). */
export function positiveIntOrNull(raw: unknown): number | null {
  const n = numeric(raw);
  return n !== null && Math.trunc(n) > 0 ? Math.trunc(n) : null;
}

/** Hermes' `str(value).lower() in {"true", "1", "yes"}`, with the default when the key is absent. */
export function toBool(raw: unknown, fallback: boolean): boolean {
  if (raw === null || raw === undefined) return fallback;
  if (typeof raw === 'boolean') return raw;
  return ['true', '1', 'yes'].includes(String(raw).trim().toLowerCase());
}

/** A non-empty trimmed string, or null. */
export function text(raw: unknown): string | null {
  if (typeof raw === 'number') return String(raw);
  return typeof raw === 'string' && raw.trim() ? raw.trim() : null;
}

/** The mapping under `key`, or {} when it is absent or not a mapping (Hermes ignores a malformed section). */
export function section(parent: unknown, key: string): Record<string, unknown> {
  if (!parent || typeof parent !== 'object' || Array.isArray(parent)) return {};
  const value = (parent as Record<string, unknown>)[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
