import type { ToolCall } from '../agent/messages.js';
import type { TurnResume } from '../agent/runtime.js';
import type { Message } from '../shared/session.js';
import type { RunEvent } from './events.js';
import type { JournalRecord } from './journal.js';

/** The result a tool call gets when the process died while it ran: the model decides what next. */
export const INTERRUPTED_TOOL_RESULT = JSON.stringify({
  error: 'The server restarted while this ran, so it did not finish and was not run again. Check what it may have done before running it again.',
});

/** What carrying a cut-short turn on needs: what to store first, and where the loop starts. */
export interface ResumePlan {
  /** This resume's number (1 for the first). */
  attempt: number;
  /** Stored before the model is called again: the partial answer, and the cut-short step when none of its calls runs again. */
  store: Message[];
  /** What the turn starts from (TurnInput.resume). */
  resume: TurnResume;
  /** The calls that were running (or not yet started) and are recorded as interrupted. */
  interrupted: Array<{ tool_call_id: string; name: string }>;
}

/** How many times this turn was resumed already (its `resumed` events). */
export function resumeCount(events: readonly RunEvent[]): number {
  return events.filter((e) => e.event === 'resumed').length;
}

/**
 * Rebuilds a turn a restart cut short, from the stored transcript (the user message and every
 * step the driver stored), the journal's checkpoint and its events:
 * - the checkpoint's step, unless the transcript has it already (the driver stored it before the
 *   checkpoint moved on; matched by tool_call ids): its finished results stay, a call that waited
 *   for an approval or a clarify answer (the journal's `approval`/`clarify` for it, and no
 *   `tool_complete`) runs again so the question is asked again, and every other unfinished call
 *   gets INTERRUPTED_TOOL_RESULT — never run again silently;
 * - text and reasoning streamed after the checkpoint (a model call in progress) become an
 *   assistant message marked `_partial`, and the model is asked to continue after it.
 */
export function planResume(transcript: readonly Message[], record: JournalRecord, now: number): ResumePlan {
  const attempt = resumeCount(record.events) + 1;
  const checkpoint = record.checkpoint;
  const after = checkpoint?.seq ?? 0;
  const store: Message[] = [];
  const interrupted: ResumePlan['interrupted'] = [];
  let step: TurnResume['step'] = null;

  const cut = checkpoint?.step;
  const calls = (cut?.assistant.tool_calls as ToolCall[] | undefined) ?? [];
  if (cut && calls.length && !isStored(transcript, calls)) {
    const finished = new Map(cut.results.map((r) => [String(r.tool_call_id), r]));
    const waiting = waitingForPerson(record.events);
    const rerun: ToolCall[] = [];
    const results: Message[] = [];
    for (const call of calls) {
      const done = finished.get(call.id);
      if (done) results.push(done);
      else if (waiting.has(call.id)) rerun.push(call);
      else {
        interrupted.push({ tool_call_id: call.id, name: call.function.name });
        results.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content: INTERRUPTED_TOOL_RESULT, timestamp: now });
      }
    }
    if (rerun.length) step = { assistant: cut.assistant, results, rerun };
    else store.push(cut.assistant, ...results);
  }

  const partial = streamedAfter(record.events, after);
  const last = transcript.at(-1);
  const storedAlready = last?._partial === true && last.content === partial.text;
  if ((partial.text || partial.reasoning) && !step && !storedAlready) {
    store.push({
      role: 'assistant',
      content: partial.text,
      ...(partial.reasoning ? { reasoning: partial.reasoning } : {}),
      _partial: true,
      timestamp: now,
      ...(attempt > 1 ? { _resume_attempt: attempt - 1 } : {}),
    });
  }
  const continues = !step && (!!partial.text || storedAlready);
  return { attempt, store, resume: { attempt, step, partial: continues }, interrupted };
}

/** Whether the transcript already holds the step (its call, or a result of it). */
function isStored(transcript: readonly Message[], calls: ToolCall[]): boolean {
  const ids = new Set(calls.map((c) => c.id));
  return transcript.some(
    (m) =>
      (m.role === 'tool' && ids.has(String(m.tool_call_id))) ||
      (m.role === 'assistant' && Array.isArray(m.tool_calls) && (m.tool_calls as ToolCall[]).some((c) => ids.has(c.id))),
  );
}

/**
 * The tool calls that were waiting for a person when the process died: an `approval` or
 * `clarify` belongs to the latest started call not yet completed (such calls run one at a
 * time), and a call that completed afterwards is not waiting. An approval that was granted
 * while its command then ran cannot be told apart here: it is asked again, which never runs
 * anything the person did not confirm.
 */
function waitingForPerson(events: readonly RunEvent[]): Set<string> {
  const open: string[] = [];
  const waiting = new Set<string>();
  for (const e of events) {
    if (e.event === 'tool') open.push(e.data.tool_call_id ?? '');
    else if (e.event === 'tool_complete') {
      const id = e.data.tool_call_id ?? '';
      const at = open.lastIndexOf(id);
      if (at >= 0) open.splice(at, 1);
      waiting.delete(id);
    } else if ((e.event === 'approval' || e.event === 'clarify') && open.length) waiting.add(open.at(-1)!);
  }
  return waiting;
}

/** The answer streamed after event `seq`: what a model call in progress had sent. */
function streamedAfter(events: readonly RunEvent[], seq: number): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  for (const e of events) {
    if (e.seq <= seq) continue;
    if (e.event === 'token') text += e.data.text;
    else if (e.event === 'reasoning') reasoning += e.data.text;
  }
  return { text, reasoning };
}
