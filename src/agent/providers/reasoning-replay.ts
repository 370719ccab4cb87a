import type { ChatMessage } from '../messages.js';

/**
 * Reasoning replay on the Chat Completions wire, where Hermes replays it: `reasoning_details`
 * (OpenRouter's opaque structured reasoning, signatures included) back to OpenRouter only, and
 * `reasoning_content` to the thinking-mode providers that reject a history without it
 * (DeepSeek, Kimi/Moonshot, Xiaomi MiMo), with a single space where a turn has none. Other
 * providers get neither: strict ones refuse unknown message fields.
 */

/** DeepSeek, Kimi/Moonshot and Xiaomi MiMo, by provider id, model name or host. */
export function needsReasoningEcho(providerId: string, model: string, baseUrl: string): boolean {
  const id = providerId.toLowerCase();
  const m = model.toLowerCase().replace(/^[^/]+\//, '');
  let host = '';
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    // not a URL: the id and model decide
  }
  return (
    /^(deepseek|kimi|moonshot|xiaomi)/.test(id) ||
    /^(deepseek|kimi|mimo)/.test(m) ||
    /(^|\.)(deepseek\.com|moonshot\.(ai|cn)|kimi\.com|xiaomimimo\.com)$/.test(host)
  );
}

export interface ReplayWire {
  reasoning_content?: string;
  reasoning_details?: unknown[];
}

/** Adds the replayed reasoning of one assistant message to its wire form. */
export function replayReasoning(source: ChatMessage, out: ReplayWire, options: { echo: boolean; details: boolean }): void {
  if (source.role !== 'assistant') return;
  if (options.details && source.reasoning_details?.length) out.reasoning_details = source.reasoning_details;
  if (!options.echo) return;
  // The provider's own field verbatim when a transcript kept it (Hermes writes it), else the
  // reasoning we kept, else a single space: an empty string is refused too.
  if (typeof source.reasoning_content === 'string') out.reasoning_content = source.reasoning_content || ' ';
  else if (source.reasoning) out.reasoning_content = source.reasoning;
  else out.reasoning_content = ' ';
}

/**
 * OpenRouter streams `reasoning_details` in pieces: entries with the same `index` are one
 * detail whose text-like fields continue each other; anything else (type, format, signature,
 * id) is taken as it comes.
 */
export function mergeReasoningDetails(into: Array<Record<string, unknown>>, pieces: unknown): void {
  if (!Array.isArray(pieces)) return;
  for (const raw of pieces) {
    if (!raw || typeof raw !== 'object') continue;
    const piece = raw as Record<string, unknown>;
    const at = typeof piece.index === 'number' ? into.findIndex((d) => d.index === piece.index) : -1;
    if (at === -1) {
      into.push({ ...piece });
      continue;
    }
    const detail = into[at]!;
    for (const [k, v] of Object.entries(piece)) {
      if ((k === 'text' || k === 'summary' || k === 'data') && typeof v === 'string' && typeof detail[k] === 'string') detail[k] = detail[k] + v;
      else if (v !== null && v !== undefined) detail[k] = v;
    }
  }
}
