import type { Message } from '../../shared/session.js';
import { toolArgsPreview, toolPreview, toolResultPreview, toolTargetKey } from '../../shared/run-events.js';
import { runEvent, type EmitEvent, type TurnOutput } from '../runtime.js';

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

/** One tool call of the turn; also how reattach.ts hands back the calls a restart cut short. */
export interface Call {
  id: string;
  name: string;
  args: Record<string, unknown>;
  preview: string;
  done: boolean;
  isError: boolean;
  duration?: number;
  result?: string;
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

export interface GatewayTurnOptions {
  /**
   * Makes a finished step durable (the journal's checkpoint) before its messages are handed
   * over: a restart then knows the step and where Hermes' events stood (runs-turn.ts).
   */
  checkpoint?: (step: { assistant: Message; results: Message[] }) => void;
  /** Keys every stored message gets (`_resume_attempt` after a restart). */
  marks?: Record<string, unknown>;
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
    private readonly options: GatewayTurnOptions = {},
  ) {}

  /**
   * A reattached turn carries on the step a restart cut short: its calls (as relayed, none
   * emitted again), and made-up ids go on after `lastId` so none repeats one in the transcript.
   */
  seed(calls: Call[], lastId: number) {
    this.#calls.push(...calls.map((c) => ({ ...c })));
    this.#seq = Math.max(this.#seq, lastId);
    if (calls.length) this.#anything = true;
  }

  get emittedMessages(): number {
    return this.#emittedMessages;
  }

  /** Anything at all streamed (text, reasoning or tools). */
  get streamed(): boolean {
    return this.#anything;
  }

  #event: EmitEvent = (name, data) => this.emit(runEvent(name, data));

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
    const args = start.args && Object.keys(start.args).length ? start.args : previewText ? { [toolTargetKey(name)]: previewText } : {};
    const call: Call = { id: start.id || `gw_${++this.#seq}`, name, args, preview: toolPreview(name, previewText), done: false, isError: false };
    if (this.#calls.some((c) => c.id === call.id)) call.id = `${call.id}_${++this.#seq}`;
    this.#calls.push(call);
    this.#event('tool', { name, preview: call.preview, args: toolArgsPreview(args), tool_call_id: call.id, event_type: 'tool.started' });
  }

  /** Matches by id when Hermes gives one, else the oldest running call of that tool, else the oldest running one. */
  toolCompleted(end: ToolEnd) {
    const open = this.#calls.filter((c) => !c.done);
    const call = (end.id && open.find((c) => c.id === end.id)) || (end.name && open.find((c) => c.name === end.name)) || open[0];
    if (!call) return;
    call.done = true;
    call.isError = !!end.error;
    if (end.duration !== undefined) call.duration = Math.round(end.duration * 1000) / 1000;
    const result =
      end.result ??
      (call.isError
        ? JSON.stringify({ error: `${call.name} failed (Hermes reported an error; its log has the details)` })
        : `${call.name} finished${call.duration !== undefined ? ` in ${call.duration} s` : ''}; Hermes keeps the output.`);
    call.result = result;
    this.#event('tool_complete', {
      name: call.name,
      preview: call.preview,
      args: toolArgsPreview(call.args),
      tool_call_id: call.id,
      event_type: 'tool.completed',
      ...(call.duration !== undefined ? { duration: call.duration } : {}),
      is_error: call.isError,
      result: toolResultPreview(result),
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
      ...(calls.length
        ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) }
        : {}),
      timestamp: this.now(),
      ...(this.model ? { _usedModel: this.model } : {}),
      ...(partial ? { _partial: true } : {}),
      ...this.options.marks,
    };
    const results: Message[] = calls
      .filter((c) => c.done || !partial)
      .map((c) => ({
        role: 'tool',
        tool_call_id: c.id,
        name: c.name,
        content: c.result ?? `${c.name}: no result reported`,
        timestamp: this.now(),
        ...this.options.marks,
      }));
    // A step with calls is checkpointed first; the final answer needs none (`done` follows it).
    if (!partial && calls.length) this.options.checkpoint?.({ assistant, results });
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
    // Counted before the answer is handed over, so the answer carries the turn's usage (turn-usage.ts).
    if (result.usage) this.usage(result.usage.input, result.usage.output);
    if (this.#text || this.#reasoning) this.#flush(false);
    return true;
  }

  usage(input: number, output: number) {
    this.emit({ type: 'usage', input_tokens: input, output_tokens: output, cost: null, prompt_tokens: input });
    this.#event('metering', {
      session_id: this.sessionId,
      tps: 0,
      tps_available: false,
      estimated: false,
      usage: { input_tokens: input, output_tokens: output },
    });
  }

  /** Steer text Hermes hands back with the run's end (`pending_steer`): it goes back to the composer. */
  steerLeftover(text: string | undefined) {
    if (text?.trim()) this.#event('pending_steer_leftover', { session_id: this.sessionId, text: text.trim() });
  }

  /** Cancelled or failed mid-turn: what was streamed so far is kept, marked partial. */
  partial() {
    this.#flush(true);
  }
}
