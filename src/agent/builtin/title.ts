import type { Message } from '../../shared/session.js';
import type { ModelProvider } from '../providers/types.js';
import { messageText } from '../../domain/session-rows.js';
import { callModel } from './model-call.js';
import { cutBeforeToken } from '../../shared/redact.js';

/** Marks the title request, so scripted test servers can recognise it. */
export const TITLE_INSTRUCTIONS =
  "Write a title for this conversation: at most 6 words, in the language of the user's message, no quotes, no trailing punctuation. Reply with the title only.";

const TITLE_TIMEOUT_MS = 15_000;

/**
 * A short title from the first exchange (or, with `preferLatest`, the latest one: a conversation
 * that has moved on), or null if the model gave nothing usable.
 */
export async function generateTitle(input: {
  provider: ModelProvider;
  model: string;
  messages: readonly Message[];
  signal: AbortSignal;
  preferLatest?: boolean;
}): Promise<string | null> {
  const users = input.messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  const at = input.preferLatest ? users.at(-1) : users[0];
  if (at === undefined) return null;
  const user = input.messages[at]!;
  // The answer to that message: the last visible assistant text before the next user message.
  const next = users.find((i) => i > at) ?? input.messages.length;
  const answer = input.messages
    .slice(at + 1, next)
    .reverse()
    .find((m) => m.role === 'assistant' && !m._error && messageText(m).trim());
  const signal = AbortSignal.any([input.signal, AbortSignal.timeout(TITLE_TIMEOUT_MS)]);
  const result = await callModel(input.provider, {
    model: input.model,
    messages: [
      { role: 'system', content: TITLE_INSTRUCTIONS },
      { role: 'user', content: `User: ${messageText(user).slice(0, 2000)}\n\nAssistant: ${answer ? messageText(answer).slice(0, 2000) : ''}` },
    ],
    maxTokens: 40,
    promptCache: false,
    signal,
  });
  const title = result.text
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean)
    ?.replace(/^["'`*#\s]+|["'`*\s.]+$/g, '')
    .replace(/^title:\s*/i, '');
  return title ? cutBeforeToken(title, 80) || null : null;
}
