import type { Message } from '../../shared/session.js';
import type { ChatMessage, ToolCall } from '../messages.js';

/** Where context compression left the transcript: messages before `anchor` are summarised. */
export interface CompressionAnchor {
  /** Index into the transcript where the kept tail starts. */
  anchor: number;
  summary: string;
}

/**
 * How a compression summary is framed for the model, as Hermes frames it: reference material
 * from an earlier context window, not instructions. The bracketed tag is the one Hermes uses to
 * recognise a summary; the wording after it is ours.
 */
export const SUMMARY_PREFIX =
  '[CONTEXT COMPACTION — REFERENCE ONLY] The earlier part of this conversation was condensed into the summary below, ' +
  'written when the context window filled up. Read it as background, not as instructions: the requests it mentions ' +
  'were already handled, so do not answer or redo them. Only the latest user message after this summary says what to do now; ' +
  'if it changes course or says stop, drop any unfinished work the summary describes. Your persistent memory in the system ' +
  'prompt still applies in full, and your tools stay available for the current task. Files and settings may already ' +
  'reflect the work described here; do not repeat it.';
export const SUMMARY_END = '--- END OF CONTEXT SUMMARY: reply to the messages that follow, not to the summary above ---';

/** The summary as the model reads it. */
export const framedSummary = (summary: string) => `${SUMMARY_PREFIX}\n${summary}\n\n${SUMMARY_END}`;

/**
 * Where the verbatim head ends: the first `protectFirstN` conversation messages (Hermes'
 * `compression.protect_first_n`; the system prompt is always kept besides), stretched so a tool
 * call is never separated from its results.
 */
export function compressionHeadEnd(transcript: readonly Message[], protectFirstN: number): number {
  let end = 0;
  let kept = 0;
  while (end < transcript.length && kept < protectFirstN) {
    if (!isNotice(transcript[end]!)) kept++;
    end++;
  }
  while (end < transcript.length && transcript[end]!.role === 'tool') end++;
  return end;
}

/**
 * The verbatim head kept before a summary: none when it would reach the anchor, as after a
 * manual compression of a session shorter than protect_first_n (its summary covers it all).
 */
const headBefore = (headEnd: number, anchor: number) => (headEnd < anchor ? headEnd : 0);

/** The head as it was before protect_first_n: everything through the first user message. */
function legacyHeadEnd(transcript: readonly Message[], anchor: number): number {
  const firstUser = transcript.findIndex((m) => m.role === 'user' && !isNotice(m));
  return firstUser >= 0 && firstUser < anchor ? firstUser + 1 : 0;
}

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
export function modelHistory(transcript: readonly Message[], compression?: CompressionAnchor | null, options: { protectFirstN?: number } = {}): ChatMessage[] {
  let source: Message[] = [...transcript];
  if (compression && compression.anchor > 0 && compression.anchor <= transcript.length) {
    const end =
      options.protectFirstN === undefined
        ? legacyHeadEnd(transcript, compression.anchor)
        : headBefore(compressionHeadEnd(transcript, options.protectFirstN), compression.anchor);
    source = withSummary(transcript.slice(0, end), transcript.slice(compression.anchor), compression.summary);
  }
  const chat = source
    .filter((m) => !isNotice(m))
    .map(toChat)
    .filter((m): m is ChatMessage => m !== null);
  return pairToolCalls(chat);
}

/**
 * Head, summary, tail, with roles that keep alternating (Hermes' rule): the summary takes the
 * role the head's last message does not have; if that clashes with the tail's first message the
 * other role is tried, and if both clash (or the summary would open the conversation as the
 * assistant) it is put in front of the tail's first message instead.
 */
function withSummary(head: Message[], tail: Message[], summary: string): Message[] {
  const text = framedSummary(summary);
  const last = head.filter((m) => !isNotice(m)).at(-1)?.role ?? 'system';
  const firstIndex = tail.findIndex((m) => !isNotice(m));
  const first = firstIndex >= 0 ? tail[firstIndex]!.role : null;
  // Right after the system prompt the summary speaks as the user: a conversation opens with one.
  let role: 'user' | 'assistant' = last === 'user' ? 'assistant' : 'user';
  if (role === first) {
    const other = role === 'user' ? 'assistant' : 'user';
    const clashes = other === last || (other === 'assistant' && last === 'system');
    if (clashes && firstIndex >= 0) {
      const merged = [...tail];
      const target = merged[firstIndex]!;
      merged[firstIndex] = { ...target, content: prependText(target.content, `${text}\n\n`) };
      return [...head, ...merged];
    }
    role = other;
  }
  return [...head, { role, content: text }, ...tail];
}

function prependText(content: unknown, text: string): unknown {
  if (typeof content === 'string') return text + content;
  if (Array.isArray(content)) return [{ type: 'text', text }, ...content];
  return text.trimEnd();
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
