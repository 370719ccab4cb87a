import type { Message } from '../../shared/session.js';
import type { ModelProvider } from '../providers/types.js';
import type { RetryOptions } from '../providers/retry.js';
import { messageText } from '../../domain/session-rows.js';
import { callModel } from './model-call.js';
import { compressionHeadEnd, type CompressionAnchor } from './history.js';

const SUMMARY_INSTRUCTIONS =
  'You compress the middle of a long conversation between a user and an AI agent so the agent can keep working. ' +
  "Write a faithful summary: the user's goals and preferences, decisions made, files and commands touched, results and errors, " +
  'and what remains to do. Keep exact names, paths, numbers and identifiers. Use terse bullet points. Do not invent anything.';

/**
 * Where the kept tail starts: the last `keep` messages, moved back so it never begins with a
 * tool result (a tool call and its results are never split), and never into the head. Null
 * when nothing in the middle would be summarised.
 */
export function chooseAnchor(transcript: readonly Message[], keep: number, previous: number, headEnd: number): number | null {
  if (!transcript.some((m) => m.role === 'user')) return null;
  let anchor = Math.max(transcript.length - keep, headEnd);
  while (anchor > headEnd && transcript[anchor]?.role === 'tool') anchor--;
  // Also never keep a tool result whose call would be summarised away.
  if (transcript[anchor]?.role === 'tool') return null;
  if (anchor <= Math.max(previous, headEnd)) return null;
  return anchor;
}

function render(messages: readonly Message[]): string {
  return messages
    .map((m) => {
      const calls = Array.isArray(m.tool_calls)
        ? (m.tool_calls as Array<{ function?: { name?: string; arguments?: string } }>)
            .map((c) => `\n  → ${c.function?.name}(${(c.function?.arguments ?? '').slice(0, 500)})`)
            .join('')
        : '';
      const body = messageText(m).slice(0, m.role === 'tool' ? 1500 : 6000);
      return `[${m.role}${typeof m.name === 'string' ? ` ${m.name}` : ''}] ${body}${calls}`;
    })
    .join('\n\n');
}

/**
 * What the model reads when no summary could be written (Hermes' default, unless
 * `compression.abort_on_summary_failure`): the dropped span is named and its user requests kept
 * in brief, so the turn can go on instead of failing.
 */
export function fallbackSummary(middle: readonly Message[], previous: CompressionAnchor | null): string {
  const cut = (text: string, n: number) => ([...text].length > n ? `${[...text].slice(0, n).join('')}…` : text);
  const asks = middle.filter((m) => m.role === 'user').map((m) => `- ${cut(messageText(m).replace(/\s+/g, ' ').trim(), 300)}`);
  const tools = [...new Set(middle.filter((m) => m.role === 'tool' && typeof m.name === 'string').map((m) => m.name as string))];
  const parts = [
    `No summary could be written for ${middle.length} earlier messages, so they were left out. Ask the user or look again at files and state if something from them is needed.`,
    previous ? `Summary from before them:\n${cut(previous.summary, 3000)}` : '',
    asks.length ? `What the user asked in them:\n${asks.join('\n')}` : '',
    tools.length ? `Tools used in them: ${tools.join(', ')}` : '',
  ];
  return cut(parts.filter(Boolean).join('\n\n'), 8000);
}

type Summariser = { provider: ModelProvider; model: string };

/**
 * Summarises the middle, transcript[headEnd .. anchor) (plus any earlier summary), with the
 * summary model, then the turn's model if that is another one. Returns the new anchor, or null
 * when there is nothing to compress (or no summary and `abortOnFailure`).
 */
export async function compressTranscript(input: {
  provider: ModelProvider;
  model: string;
  /** Asked when the summary model fails (the turn's own model). */
  fallback?: Summariser;
  /** `compression.abort_on_summary_failure`: keep the transcript uncompressed rather than drop the middle. */
  abortOnFailure?: boolean;
  transcript: readonly Message[];
  previous: CompressionAnchor | null;
  protectFirstN: number;
  protectLastN: number;
  signal: AbortSignal;
  retry?: RetryOptions;
  /** A manual compression's focus (`/compress <focus>`): what the summary keeps in most detail. */
  focusTopic?: string | null;
}): Promise<{
  anchor: CompressionAnchor;
  summarised: number;
  tokens: { input: number; output: number; cost: number | null };
  /** Why the deterministic stand-in was used, when it was. */
  failure?: string;
} | null> {
  const { transcript, previous } = input;
  const headEnd = compressionHeadEnd(transcript, input.protectFirstN);
  const anchor = chooseAnchor(transcript, input.protectLastN, previous?.anchor ?? 0, headEnd);
  if (anchor === null) return null;
  const start = Math.max(headEnd, previous?.anchor ?? 0);
  const middle = transcript.slice(start, anchor).filter((m) => m._error !== true);
  const earlier = previous ? `Earlier summary:\n${previous.summary}\n\nNewer messages:\n` : '';
  const instructions = input.focusTopic
    ? `${SUMMARY_INSTRUCTIONS}\n\nFocus the summary on: ${input.focusTopic}. Keep what concerns it in full detail and the rest brief.`
    : SUMMARY_INSTRUCTIONS;
  const ask = async (who: Summariser) => {
    const result = await callModel(who.provider, {
      model: who.model,
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: `${earlier}${render(middle)}\n\nWrite the summary now.` },
      ],
      maxTokens: 2000,
      // A one-off request: a cache write would cost more than it saves.
      promptCache: false,
      signal: input.signal,
      ...(input.retry ? { retry: input.retry } : {}),
    });
    const summary = result.text.trim() || result.reasoning.trim();
    if (!summary) throw new Error('the model returned an empty summary');
    return { summary, tokens: { input: result.usage.inputTokens, output: result.usage.outputTokens, cost: result.usage.cost } };
  };
  const summarisers: Summariser[] = [{ provider: input.provider, model: input.model }];
  if (input.fallback && (input.fallback.provider !== input.provider || input.fallback.model !== input.model)) summarisers.push(input.fallback);
  let failure = '';
  for (const who of summarisers) {
    try {
      const done = await ask(who);
      return { anchor: { anchor, summary: done.summary }, summarised: anchor - headEnd, tokens: done.tokens };
    } catch (err) {
      if (input.signal.aborted) throw err;
      failure = (err as Error)?.message ?? String(err);
    }
  }
  if (input.abortOnFailure) return null;
  return { anchor: { anchor, summary: fallbackSummary(middle, previous) }, summarised: anchor - headEnd, tokens: { input: 0, output: 0, cost: null }, failure };
}
