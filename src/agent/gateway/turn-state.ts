import type { Message } from '../../shared/session.js';
import { cutBeforeToken } from '../../shared/redact.js';
import type { TurnOutput } from '../runtime.js';

/**
 * One gateway turn as this project stores and streams it. Hermes reports text deltas, reasoning
 * and tool starts/ends; this turns them into the builtin runtime's events (`token`, `reasoning`,
 * `tool`, `tool_complete`, same data shapes) and into transcript messages: each step's prose
 * with its tool calls as an assistant message followed by one tool message per call, then the
 * final answer. Stored that way, a reload shows exactly what the builtin agent's turns show.
 *
 * Hermes' run events carry a tool's name and a preview, not its call id, arguments or result:
 * ids are made up here (`gw_<n>`), the preview stands in for the arguments, and the result is a
 * short note unless the event brings one.
 */

interface Call {
  id: string;
  name: string;
  args: Record<string, unknown>;
  preview: string;
  done: boolean;
  isError: boolean;
  duration?: number;
  result?: string;
}

const PREVIEW_CHARS = 120;
const RESULT_PREVIEW_CHARS = 2000;

/** Which argument a tool's preview most likely is, so a stored call reads like a builtin one. */
function argKey(tool: string): string {
  if (/terminal|process|execute|shell|command/.test(tool)) return 'command';
  if (/search|grep|find/.test(tool)) return 'pattern';
  if (/file|patch|read|write|edit/.test(tool)) return 'path';
  if (tool === 'clarify') return 'question';
  return 'action';
}

function cut(text: string, max: number): string {
  return text.length > max ? `${cutBeforeToken(text, max)}…` : text;
}

export interface ToolStart {
  id?: string | undefined;
  name: string;
  preview?: string | undefined;
  args?: Record<string, unknown> | undefined;
}

export interface ToolEnd {
  id?: string | undefined;
  name?: string | undefined;
  duration?: number | undefined;
  error?: boolean | undefined;
  result?: string | undefined;
}

export class GatewayTurn {
  #text = '';
  #reasoning = '';
  #calls: Call[] = [];
  #emittedMessages = 0;
  #seq = 0;
  #anything = false;

  constructor(
    private readonly sessionId: string,
    private readonly emit: (out: TurnOutput) => void,
    private readonly now: () => number,
    private readonly model: string | null,
  ) {}

  get emittedMessages(): number {
    return this.#emittedMessages;
  }

  /** Anything at all streamed (text, reasoning or tools). */
  get streamed(): boolean {
    return this.#anything;
  }

  #event(name: string, data: Record<string, unknown>) {
    this.emit({ type: 'event', event: name, data });
  }

  /** A step with tool calls that have all finished is complete once something new begins. */
  #closeFinishedStep() {
    if (this.#calls.length && this.#calls.every((c) => c.done)) this.#flush(false);
  }

  text(delta: string) {
    if (!delta) return;
    this.#closeFinishedStep();
    this.#anything = true;
    this.#text += delta;
    this.#event('token', { text: delta });
  }

  reasoning(text: string) {
    if (!text) return;
    this.#closeFinishedStep();
    this.#anything = true;
    this.#reasoning += text;
    this.#event('reasoning', { text });
  }

  toolStarted(start: ToolStart) {
    this.#closeFinishedStep();
    this.#anything = true;
    const name = start.name || 'tool';
    const previewText = start.preview ?? '';
    const args = start.args && Object.keys(start.args).length ? start.args : previewText ? { [argKey(name)]: previewText } : {};
    const call: Call = { id: start.id || `gw_${++this.#seq}`, name, args, preview: `${name}${previewText ? ` ${cut(previewText, PREVIEW_CHARS)}` : ''}`, done: false, isError: false };
    if (this.#calls.some((c) => c.id === call.id)) call.id = `${call.id}_${++this.#seq}`;
    this.#calls.push(call);
    this.#event('tool', { name, preview: call.preview, args: argsPreview(args), tool_call_id: call.id, event_type: 'tool.started' });
  }

  /** Matches by id when Hermes gives one, else the oldest running call of that tool, else the oldest running one. */
  toolCompleted(end: ToolEnd) {
    const open = this.#calls.filter((c) => !c.done);
    const call = (end.id && open.find((c) => c.id === end.id)) || (end.name && open.find((c) => c.name === end.name)) || open[0];
    if (!call) return;
    call.done = true;
    call.isError = !!end.error;
    if (end.duration !== undefined) call.duration = Math.round(end.duration * 1000) / 1000;
    const result = end.result ?? (call.isError ? JSON.stringify({ error: `${call.name} failed (Hermes reported an error; its log has the details)` }) : `${call.name} finished${call.duration !== undefined ? ` in ${call.duration} s` : ''}; Hermes keeps the output.`);
    call.result = result;
    this.#event('tool_complete', {
      name: call.name,
      preview: call.preview,
      args: argsPreview(call.args),
      tool_call_id: call.id,
      event_type: 'tool.completed',
      ...(call.duration !== undefined ? { duration: call.duration } : {}),
      is_error: call.isError,
      result: cut(result, RESULT_PREVIEW_CHARS),
    });
  }

  /** Emits the step so far: its prose with its calls, and a result for each finished call. */
  #flush(partial: boolean) {
    const calls = this.#calls;
    if (!this.#text && !this.#reasoning && !calls.length) return;
    const assistant: Message = {
      role: 'assistant',
      content: this.#text,
      ...(this.#reasoning ? { reasoning: this.#reasoning } : {}),
      ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}),
      timestamp: this.now(),
      ...(this.model ? { _usedModel: this.model } : {}),
      ...(partial ? { _partial: true } : {}),
    };
    const results: Message[] = calls
      .filter((c) => c.done || !partial)
      .map((c) => ({ role: 'tool', tool_call_id: c.id, name: c.name, content: c.result ?? `${c.name}: no result reported`, timestamp: this.now() }));
    const messages = [assistant, ...results];
    this.#emittedMessages += messages.length;
    this.emit({ type: 'messages', messages });
    this.#text = '';
    this.#reasoning = '';
    this.#calls = [];
  }

  /**
   * The run completed. `output` is Hermes' final answer: used when nothing was streamed, or
   * when deltas may have been missed (`preferOutput`, after a reconnect).
   */
  finish(result: { output?: string | undefined; preferOutput?: boolean; usage?: { input: number; output: number } | null }) {
    // Calls still open when the run says it is done finished without telling us.
    for (const c of this.#calls) if (!c.done) this.toolCompleted({ id: c.id });
    const output = result.output ?? '';
    if (this.#calls.length) this.#flush(false);
    if (output && (result.preferOutput || !this.#text)) this.#text = output;
    const nothing = !this.#text && !this.#reasoning && this.#emittedMessages === 0;
    if (nothing) return false;
    if (this.#text || this.#reasoning) this.#flush(false);
    if (result.usage) this.usage(result.usage.input, result.usage.output);
    return true;
  }

  usage(input: number, output: number) {
    this.emit({ type: 'usage', input_tokens: input, output_tokens: output, cost: null, prompt_tokens: input });
    this.#event('metering', { session_id: this.sessionId, tps: 0, tps_available: false, estimated: false, usage: { input_tokens: input, output_tokens: output } });
  }

  /** Cancelled or failed mid-turn: what was streamed so far is kept, marked partial. */
  partial() {
    this.#flush(true);
  }
}

/** The first four arguments, each cut short (the builtin loop's shape). */
function argsPreview(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args).slice(0, 4)) {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    out[k] = s.length > PREVIEW_CHARS ? `${cutBeforeToken(s, PREVIEW_CHARS)}…` : v;
  }
  return out;
}
