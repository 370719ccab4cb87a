/**
 * Argument coercion and result helpers shared by the builtin tools. Models send loosely typed
 * JSON (numbers as strings, "true" for booleans), so tools coerce instead of rejecting.
 */

/** The JSON text a tool returns; every tool answers the model in JSON except where noted. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}

export function toolError(message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ error: message, ...extra });
}

/** A non-empty string argument, or null. */
export function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** An integer argument (numeric strings accepted), or `fallback` when absent or unusable. */
export function int(value: unknown, fallback: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : fallback;
}

export function bool(value: unknown, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}

export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/** Length in code points, as Hermes (Python `len`) counts characters. */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Size in UTF-8 bytes (TextEncoder: runs on any runtime). */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
