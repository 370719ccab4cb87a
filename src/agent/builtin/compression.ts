import type { Message } from '../../shared/session.js';
import type { ModelProvider } from '../providers/types.js';
import type { RetryOptions } from '../providers/retry.js';
import { messageText } from '../../domain/session-rows.js';
import { callModel } from './model-call.js';
import type { CompressionAnchor } from './history.js';

const SUMMARY_INSTRUCTIONS =
  'You compress the middle of a long conversation between a user and an AI agent so the agent can keep working. ' +
  "Write a faithful summary: the user's goals and preferences, decisions made, files and commands touched, results and errors, " +
  'and what remains to do. Keep exact names, paths, numbers and identifiers. Use terse bullet points. Do not invent anything.';

/**
 * Where the kept tail starts: the last `keep` messages, moved back so it never begins with a
 * tool result (a tool call and its results are never split). Null when nothing in the middle
 * would be summarised.
 */
export function chooseAnchor(transcript: readonly Message[], keep: number, previous: number): number | null {
  const firstUser = transcript.findIndex((m) => m.role === 'user');
  if (firstUser < 0) return null;
  let anchor = Math.max(transcript.length - keep, firstUser + 1);
  while (anchor > firstUser + 1 && transcript[anchor]?.role === 'tool') anchor--;
  // Also never keep a tool result whose call would be summarised away.
  if (transcript[anchor]?.role === 'tool') return null;
  if (anchor <= Math.max(previous, firstUser + 1)) return null;
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
  protectLastN: number;
  signal: AbortSignal;
  retry?: RetryOptions;
}): Promise<{ anchor: CompressionAnchor; summarised: number; tokens: { input: number; output: number; cost: number | null } } | null> {
  const { transcript, previous } = input;
  const anchor = chooseAnchor(transcript, input.protectLastN, previous?.anchor ?? 0);
  if (anchor === null) return null;
  const firstUser = transcript.findIndex((m) => m.role === 'user');
  const start = Math.max(firstUser + 1, previous?.anchor ?? 0);
  const middle = transcript.slice(start, anchor).filter((m) => m._error !== true);
  const earlier = previous ? `Earlier summary:\n${previous.summary}\n\nNewer messages:\n` : '';
  const result = await callModel(input.provider, {
    model: input.model,
    messages: [
      { role: 'system', content: SUMMARY_INSTRUCTIONS },
      { role: 'user', content: `${earlier}${render(middle)}\n\nWrite the summary now.` },
    ],
    maxTokens: 2000,
    promptCache: false,
    signal: input.signal,
    ...(input.retry ? { retry: input.retry } : {}),
  });
  const summary = result.text.trim() || result.reasoning.trim();
  if (!summary) return null;
  return {
    anchor: { anchor, summary },
    summarised: anchor - (firstUser + 1),
    tokens: { input: result.usage.inputTokens, output: result.usage.outputTokens, cost: result.usage.cost },
  };
}
