/**
 * Anthropic prompt caching as Hermes does it (agent/prompt_caching.py, "system and 3"): up to
 * four `cache_control` breakpoints, one on the system prompt and one on each of the last three
 * messages that can carry one. Each request moves the window one step, so the prefix the last
 * request wrote is read back by the next. Only Claude models are marked: natively on the
 * Messages API (blocks), and on OpenRouter inside content parts (the envelope layout).
 */

export type CacheTtl = '5m' | '1h';

/** What goes on a block: Anthropic's default TTL is five minutes, so only `1h` is spelled out. */
export type CacheMarker = { type: 'ephemeral' } | { type: 'ephemeral'; ttl: '1h' };

export function cacheMarker(ttl: CacheTtl): CacheMarker {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/** Breakpoints after the system prompt's: Anthropic allows four in all. */
export const MESSAGE_BREAKPOINTS = 3;

const OFF = new Set(['', '0', 'off', 'false', 'disabled', 'no', 'none']);

/**
 * `prompt_caching.cache_ttl`: absent → 5m (Hermes' default); `1h` → 1h; a falsy spelling
 * (false, off, none, no, disabled, 0, empty, null) → no caching; anything else → 5m.
 */
export function parseCacheTtl(present: boolean, value: unknown): CacheTtl | null {
  if (!present) return '5m';
  if (value === null || value === undefined || value === false || value === 0) return null;
  const text = String(value).trim().toLowerCase();
  if (OFF.has(text)) return null;
  return text === '1h' ? '1h' : '5m';
}

/**
 * Whether a request gets markers, and in which layout: `native` for the Messages API (a Claude
 * model, on Anthropic or a gateway speaking its protocol), `envelope` for Claude on OpenRouter.
 */
export function cacheLayout(options: { api: 'openai' | 'anthropic'; model: string; openRouter: boolean }): 'native' | 'envelope' | null {
  if (!/claude/i.test(options.model)) return null;
  if (options.api === 'anthropic') return 'native';
  return options.openRouter ? 'envelope' : null;
}

/** The indexes of the last `n` entries that `canCarry` accepts. */
export function lastCarriers<T>(items: readonly T[], n: number, canCarry: (item: T) => boolean): number[] {
  const out: number[] = [];
  for (let i = items.length - 1; i >= 0 && out.length < n; i--) if (canCarry(items[i]!)) out.unshift(i);
  return out;
}

interface EnvelopeMessage {
  role: string;
  content: string | Array<Record<string, unknown>> | null;
}

function carriesInParts(m: EnvelopeMessage): boolean {
  return typeof m.content === 'string' ? m.content !== '' : Array.isArray(m.content) && m.content.length > 0;
}

/** One message with its breakpoint on its last content part (a string becomes one text part). */
function markParts<M extends EnvelopeMessage>(m: M, marker: CacheMarker): M {
  if (typeof m.content === 'string') return { ...m, content: [{ type: 'text', text: m.content, cache_control: marker }] };
  const parts = [...(m.content ?? [])];
  parts[parts.length - 1] = { ...parts[parts.length - 1], cache_control: marker };
  return { ...m, content: parts };
}

/**
 * The envelope layout (OpenRouter): markers inside content parts, which OpenRouter hands on to
 * Anthropic. Messages with empty content cannot carry one there and are passed over. Returns
 * new messages; the input is not changed.
 */
export function withEnvelopeCacheMarkers<M extends EnvelopeMessage>(messages: readonly M[], ttl: CacheTtl): M[] {
  const marker = cacheMarker(ttl);
  const out = [...messages];
  if (out[0]?.role === 'system' && carriesInParts(out[0])) out[0] = markParts(out[0], marker);
  const candidates = out.map((m, i) => ({ m, i })).filter(({ m }) => m.role !== 'system');
  for (const k of lastCarriers(candidates, MESSAGE_BREAKPOINTS, ({ m }) => carriesInParts(m))) {
    const { m, i } = candidates[k]!;
    out[i] = markParts(m, marker);
  }
  return out;
}
