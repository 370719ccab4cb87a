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
 * Summarises transcript[firstUser+1 .. anchor) (plus any earlier summary) with the model.
 * Returns the new anchor, or null when there is nothing to compress.
 */
export async function compressTranscript(input: {
  provider: ModelProvider;
  model: string;
  transcript: readonly Message[];
  previous: CompressionAnchor | null;
  protectFirstN: number;
  protectLastN: number;
  signal: AbortSignal;
  retry?: RetryOptions;
}): Promise<{ anchor: CompressionAnchor; summarised: number; tokens: { input: number; output: number; cost: number | null } } | null> {
  const { transcript, previous } = input;
  const headEnd = compressionHeadEnd(transcript, input.protectFirstN);
  const anchor = chooseAnchor(transcript, input.protectLastN, previous?.anchor ?? 0, headEnd);
  if (anchor === null) return null;
  const start = Math.max(headEnd, previous?.anchor ?? 0);
  const middle = transcript.slice(start, anchor).filter((m) => m._error !== true);
  const earlier = previous ? `Earlier summary:\n${previous.summary}\n\nNewer messages:\n` : '';
  const result = await callModel(input.provider, {
    model: input.model,
    messages: [
      { role: 'system', content: SUMMARY_INSTRUCTIONS },
      { role: 'user', content: `${earlier}${render(middle)}\n\nWrite the summary now.` },
    ],
    maxTokens: 2000,
    signal: input.signal,
    ...(input.retry ? { retry: input.retry } : {}),
  });
  const summary = result.text.trim() || result.reasoning.trim();
  if (!summary) return null;
  return {
    anchor: { anchor, summary },
    summarised: anchor - headEnd,
    tokens: { input: result.usage.inputTokens, output: result.usage.outputTokens, cost: result.usage.cost },
  };
}
