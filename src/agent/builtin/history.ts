import type { Message } from '../../shared/session.js';
import type { ChatMessage, ToolCall } from '../messages.js';

/** Where context compression left the transcript: messages before `anchor` are summarised. */
export interface CompressionAnchor {
  /** Index into the transcript where the kept tail starts. */
  anchor: number;
  summary: string;
}

export const SUMMARY_PREFIX = '[Summary of the earlier conversation, written when the context grew long]\n\n';

/** Messages that are notices for people (errors, interruptions), not part of the conversation. */
function isNotice(m: Message): boolean {
  return m._error === true || m._interrupted === true;
}

function toChat(m: Message): ChatMessage | null {
  const role = m.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'tool' && role !== 'system') return null;
  const out: ChatMessage = { role, content: (m.content as ChatMessage['content']) ?? null };
  if (role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length) out.tool_calls = m.tool_calls as ToolCall[];
  if (role === 'assistant') {
    // Kept for the providers that want reasoning replayed (providers/reasoning-replay.ts).
    if (typeof m.reasoning === 'string' && m.reasoning) out.reasoning = m.reasoning;
    if (typeof m.reasoning_content === 'string') out.reasoning_content = m.reasoning_content;
    if (Array.isArray(m.reasoning_details) && m.reasoning_details.length) out.reasoning_details = m.reasoning_details;
  }
  if (role === 'tool') {
    out.tool_call_id = String(m.tool_call_id ?? '');
    if (typeof m.name === 'string') out.name = m.name;
    if (typeof out.content !== 'string') out.content = JSON.stringify(out.content ?? '');
  }
  return out;
}

/**
 * The conversation as the model should see it: notices dropped, internal keys stripped, every
 * tool call paired with its result (a call whose result was lost gets a stand-in, a result
 * without its call is dropped), and — after compression — head, summary, then the kept tail.
 */
export function modelHistory(transcript: readonly Message[], compression?: CompressionAnchor | null): ChatMessage[] {
  let source: Message[] = [...transcript];
  if (compression && compression.anchor > 0 && compression.anchor <= transcript.length) {
    const firstUser = transcript.findIndex((m) => m.role === 'user' && !isNotice(m));
    const head = firstUser >= 0 && firstUser < compression.anchor ? transcript.slice(0, firstUser + 1) : [];
    source = [...head, { role: 'user', content: SUMMARY_PREFIX + compression.summary }, ...transcript.slice(compression.anchor)];
  }
  const chat = source
    .filter((m) => !isNotice(m))
    .map(toChat)
    .filter((m): m is ChatMessage => m !== null);
  return pairToolCalls(chat);
}

function pairToolCalls(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') continue; // placed right after its call below
    if (m.role === 'assistant' && m.tool_calls?.length) {
      const results: ChatMessage[] = [];
      let j = i + 1;
      while (j < messages.length && messages[j]!.role === 'tool') results.push(messages[j++]!);
      out.push(m);
      for (const call of m.tool_calls) {
        const result = results.find((r) => r.tool_call_id === call.id);
        out.push(
          result ?? {
            role: 'tool',
            tool_call_id: call.id,
            name: call.function.name,
            content: '{"error": "This tool call was interrupted before it finished."}',
          },
        );
      }
      i = j - 1;
      continue;
    }
    out.push(m);
  }
  return out;
}
