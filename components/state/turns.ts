import { msg, str } from '@lit/localize';
import type { Message } from '../api/client.js';
import { isToolErrorResult, toolRowTarget } from '../../src/shared/run-event-rules.js';
import { subagentsFromResult, type SubagentView } from './subagents.js';
import { turnUsageOf, type TurnUsageView } from './turn-usage.js';
import type { FileChange } from '../../src/shared/file-changes.js';

/** One tool call of an assistant turn, as the activity disclosure shows it. */
export interface ToolView {
  id: string;
  name: string;
  preview: string;
  args: Record<string, unknown>;
  status: 'running' | 'done' | 'error';
  duration?: number;
  result?: string;
}

/** What one assistant turn shows: its prose, and its internals for the activity row. */
export interface AssistantTurn {
  kind: 'assistant';
  /** Transcript index of the turn's first message (for keys and "fork from here"). */
  index: number;
  /** Index just past the turn's last message. */
  end: number;
  text: string;
  reasoning: string;
  tools: ToolView[];
  /** `hintCode`/`hintArgs`: the hint's code and values (src/shared/server-texts.ts), shown translated by chat/failure-hints.ts. */
  error?: { message: string; type: string; hint?: string; hintCode?: string; hintArgs?: Record<string, string> };
  interrupted?: boolean;
  partial?: boolean;
  compression?: 'compressing' | 'compressed';
  /** Live only: the model call is being retried (the `retrying` event) until it streams again. */
  retrying?: { attempt: number; max: number; reason: string } | undefined;
  warnings: string[];
  /** delegate_task's children: live from `subagent` events, else from the stored results. */
  subagents?: SubagentView[];
  /** The turn's tokens, cost and timing, from its final answer (hermes-turn-usage shows them). */
  usage?: TurnUsageView;
  /** Steer text that joined the turn, each at the length `text` had when it entered. */
  steers?: SteerView[];
  /** "Resumed after a restart" lines (the `resumed` event), each at the length `text` had then. */
  resumes?: ResumeView[];
  /** The files the turn changed: live from `turn_changes`, on reload from the message's `file_changes`. */
  changes?: TurnChangesView;
  /** Live only: the prefill context the turn got (`context_status`; absent when none is configured). */
  context?: ContextStatusView;
}

/** What the quiet "Context added from …" line shows of a turn's prefill (never its text). */
export interface ContextStatusView {
  status: 'loaded' | 'error';
  label: string;
  error?: string;
  /** Over the character budget: a short stand-in went instead. */
  leftOut?: boolean;
}

/** The line's text: where the context came from, or why it did not come. */
export function contextStatusLine(c: ContextStatusView): string {
  if (c.status === 'error') return c.error ? msg(str`Context unavailable: ${c.label} (${c.error})`) : msg(str`Context unavailable: ${c.label}`);
  return c.leftOut ? msg(str`Context from ${c.label} left out: over the size budget`) : msg(str`Context added from ${c.label}`);
}

/** What "Changed N files (+a −d)" shows, and the run to ask for its diffs (GET /api/session/changes). */
export interface TurnChangesView {
  streamId: string;
  files: FileChange[];
  additions: number;
  deletions: number;
}

/** The change record a stored assistant message carries (`file_changes` and `_stream_id`), if any. */
export function changesOf(m: Message): TurnChangesView | undefined {
  const files = m.file_changes;
  const streamId = m._stream_id;
  if (!Array.isArray(files) || !files.length || typeof streamId !== 'string') return undefined;
  const list = files as FileChange[];
  return {
    streamId,
    files: list,
    additions: list.reduce((n, f) => n + (f.additions || 0), 0),
    deletions: list.reduce((n, f) => n + (f.deletions || 0), 0),
  };
}

/** A restart the turn carried on through: drawn where the prose stood (`at`, an offset into the turn's text). */
export interface ResumeView {
  at: number;
  message: string;
}

/** What the resumed line says, live and on reload alike (the event's own message is its tooltip). */
export const resumedLine = (): string => msg('Resumed after a restart');

/** A steer in the turn: drawn where it entered the prose (`at`, an offset into the turn's text). */
export interface SteerView {
  text: string;
  at: number;
}

/** Hermes' marker before steer text in a tool result (src/agent/builtin/steer.ts). */
const STEER_MARKER = '\n\nUser guidance: ';

export interface UserTurn {
  kind: 'user';
  index: number;
  message: Message;
  text: string;
}

export type Turn = UserTurn | AssistantTurn;

export function messageText(m: Message): string {
  const c = m.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p: { text?: unknown } | null) => (p && typeof p.text === 'string' ? p.text : '')).join('\n');
  return '';
}

/** The text and attachment paths of a sent user message (the server appends an "[Attached files: …]" line). */
export interface Unsent {
  text: string;
  paths: string[];
}

export function unsend(m: Message): Unsent {
  const paths = Array.isArray(m.attachments) ? (m.attachments as Array<{ path?: string }>).map((a) => a.path ?? '').filter(Boolean) : [];
  const text = messageText(m);
  return { text: paths.length ? text.replace(/\n\n\[Attached files: [^\]]*\]$/, '') : text, paths };
}

/** A stored notice's `hint_args`: only its string values (anything else is left out, and the hint falls back to English). */
function stringValues(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object') return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function toolArgs(raw: string | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(raw || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return { arguments: raw };
  }
}

export function emptyAssistantTurn(index: number): AssistantTurn {
  return { kind: 'assistant', index, end: index, text: '', reasoning: '', tools: [], warnings: [] };
}

/**
 * Groups a transcript into turns: each user message, then everything the agent did until the
 * next user message as ONE assistant turn (prose joined; reasoning and tools gathered).
 */
export function groupTurns(messages: readonly Message[], offset = 0): Turn[] {
  const turns: Turn[] = [];
  let current: AssistantTurn | null = null;
  /** The current turn's highest `_resume_attempt` so far (0: written before any restart). */
  let attempt = 0;
  messages.forEach((m, i) => {
    const index = offset + i;
    if (m.role === 'user') {
      current = null;
      turns.push({ kind: 'user', index, message: m, text: messageText(m).replace(/\n\n\[Attached files: [^\]]*\]$/, '') });
      return;
    }
    if (m.role !== 'assistant' && m.role !== 'tool') return;
    if (!current) {
      current = emptyAssistantTurn(index);
      turns.push(current);
      attempt = 0;
    }
    const turn: AssistantTurn = current;
    turn.end = index + 1;
    const resumedAs = typeof m._resume_attempt === 'number' ? m._resume_attempt : 0;
    if (resumedAs > attempt) {
      // A later attempt after a restart: the line goes before its first message, and the
      // answer cut short before it is no longer the turn's last word (not "partial").
      (turn.resumes ??= []).push({ at: turn.text.length, message: resumedLine() });
      turn.partial = false;
      attempt = resumedAs;
    }
    if (m.role === 'tool') {
      const view = turn.tools.find((t) => t.id === m.tool_call_id);
      let result = messageText(m);
      if (typeof m._steer === 'string') {
        // The steer is drawn as its own line here; the tool card shows the tool's own output.
        (turn.steers ??= []).push({ text: m._steer, at: turn.text.length });
        if (result.endsWith(STEER_MARKER + m._steer)) result = result.slice(0, -(STEER_MARKER.length + m._steer.length));
      }
      if (view) {
        view.result = result;
        view.status = isToolErrorResult(result) ? 'error' : 'done';
        if (view.name === 'delegate_task') turn.subagents = [...(turn.subagents ?? []), ...subagentsFromResult(view.args, result, '')];
      }
      return;
    }
    if (m._error === true) {
      turn.error = {
        message: messageText(m).split('\n\n')[0] ?? '',
        type: String(m.error_type ?? 'error'),
        hint: messageText(m).split('\n\n').slice(1).join('\n\n') || undefined,
        ...(typeof m.hint_code === 'string' ? { hintCode: m.hint_code, hintArgs: stringValues(m.hint_args) } : {}),
      };
      if (m._interrupted === true) turn.interrupted = true;
      return;
    }
    if (m._partial === true) turn.partial = true;
    const changes = changesOf(m);
    if (changes) turn.changes = changes;
    const usage = turnUsageOf(m);
    if (usage) turn.usage = usage;
    const text = messageText(m);
    if (text.trim()) turn.text = turn.text ? `${turn.text}\n\n${text}` : text;
    if (typeof m.reasoning === 'string' && m.reasoning) turn.reasoning = turn.reasoning ? `${turn.reasoning}\n\n${m.reasoning}` : m.reasoning;
    for (const call of (m.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }> | undefined) ?? []) {
      const args = toolArgs(call.function?.arguments);
      turn.tools.push({
        id: call.id,
        name: call.function?.name ?? 'tool',
        preview: toolRowTarget(call.function?.name ?? 'tool', args),
        args,
        status: m._partial ? 'error' : 'running',
      });
    }
  });
  // A call whose result never came (cancelled) is not still running.
  for (const t of turns) if (t.kind === 'assistant') for (const tool of t.tools) if (tool.status === 'running') tool.status = 'error';
  return turns;
}
