import type { Message } from '../../shared/session.js';
import { isToolErrorResult, toolArgsPreview, toolPreview, toolResultPreview, toolTarget } from '../../shared/run-events.js';
import type { AgentConfig } from '../config.js';
import type { ChatMessage, ToolCall } from '../messages.js';
import type { ModelProvider } from '../providers/types.js';
import { FallbackChain, type FallbackRoute } from '../providers/fallback.js';
import type { BackoffPolicy, RetryOptions } from '../providers/retry.js';
import type { Tool, ToolContext } from '../tools/types.js';
import { runEvent, type EmitEvent, type TurnOutput, type TurnResume, type TurnStep } from '../runtime.js';
import { callModel } from './model-call.js';
import { compressTranscript } from './compression.js';
import { compressionTrigger } from './compression-policy.js';
import { modelHistory, type CompressionAnchor } from './history.js';
import { parseArguments } from './tool-calls.js';
import { finishAtTurnLimit } from './turn-limit.js';
import { planToolBatches } from './tool-batches.js';
import { toolBaseDir } from '../tools/paths.js';
import { steerAtBoundary, type SteerSource } from './steer.js';

export interface LoopInput {
  sessionId: string;
  provider: ModelProvider;
  model: string;
  contextLength: number;
  config: AgentConfig;
  systemPrompt: string;
  /** Browser-turn prefill (src/agent/prefill.ts): between the system prompt and the conversation, never stored. */
  prefill?: ChatMessage[];
  /** The stored transcript, ending with this turn's user message. */
  transcript: Message[];
  compression: CompressionAnchor | null;
  lastPromptTokens: number;
  tools: Tool[];
  toolContext: ToolContext;
  signal: AbortSignal;
  now: () => number;
  /** Who writes compression summaries (`auxiliary.compression`); the turn's model when absent. */
  compressionModel?: { provider: ModelProvider; model: string };
  /** Overrides of the retry waits (tests shorten them); how many retries is `config.apiMaxRetries`. */
  backoff?: Partial<BackoffPolicy>;
  /** `fallback_providers`, resolved: asked in order when the model fails before answering. */
  fallbacks?: FallbackRoute[];
  /** Steer text for this turn (POST /api/chat/steer), taken at each tool-result boundary. */
  steer?: SteerSource;
  /** Makes the step in flight durable (TurnInput.checkpoint); awaited before a tool runs. */
  checkpoint?: (step: TurnStep | null) => Promise<void>;
  /** The turn carries on after a restart (TurnInput.resume). */
  resume?: TurnResume;
  emit(out: TurnOutput): void;
}

/** Stopped for a restart the turn resumes after (SuspendedForRestart), or taken over by another instance (LeaseLost): the journal and checkpoint keep what it had. */
const resumesLater = (signal: AbortSignal) => (signal.reason as { resumes?: unknown } | undefined)?.resumes === true;

/**
 * Said to the model (in its copy only) after an answer a restart cut short: the stored partial
 * answer stays as it was, and the continuation follows it without repeating it.
 */
export const CONTINUE_AFTER_RESTART =
  '[The server restarted while you were writing your answer above, and it was cut off there. Continue from exactly where it stops, without repeating any of it.]';

/**
 * Hermes' loop: call the model, run the tools it asks for (results in call order; reads and
 * path-disjoint file calls side by side, everything else in order: tool-batches.ts), repeat
 * until it answers without tools or the iteration cap.
 * Each finished step is handed out for storage before the next starts, so a crash keeps it.
 */
export async function runLoop(input: LoopInput): Promise<void> {
  const { provider, model, config, signal, emit } = input;
  const transcript = [...input.transcript];
  let compression = input.compression;
  let promptTokens = input.lastPromptTokens;
  const toolsByName = new Map(input.tools.map((t) => [t.spec.name, t]));
  const specs = input.tools.map((t) => t.spec);
  const event: EmitEvent = (name, data) => emit(runEvent(name, data));
  const head = { protectFirstN: config.compression.protectFirstN };
  // Each retry is announced before its wait, so the turn shows "Retrying (1/3)…" while it waits.
  // One chain per turn: once a fallback answered, the rest of the turn stays with it.
  const chain = input.fallbacks?.length
    ? new FallbackChain([{ provider, model, contextLength: input.contextLength, label: `${provider.id}:${model}` }, ...input.fallbacks], (change) =>
        event('warning', { type: 'fallback_provider', message: `${change.from} failed (${change.reason}); continuing with ${change.to}` }),
      )
    : undefined;
  const checkpoint = input.checkpoint ?? (async () => {});
  const resumed = input.resume ? { _resume_attempt: input.resume.attempt } : {};
  let continuePartial = !!input.resume?.partial;
  const retry: RetryOptions = {
    maxRetries: config.apiMaxRetries,
    ...(input.backoff ? { policy: input.backoff } : {}),
    onRetry: (notice) => event('retrying', { ...notice }),
    ...(chain ? { fallback: chain } : {}),
  };

  // Resumed with calls to run again (they waited for a person): the step finishes first.
  const cut = input.resume?.step;
  if (cut) {
    const rerun = cut.rerun.length ? await runTools(cut.rerun, toolsByName, input, cut.assistant, cut.results, checkpoint) : [];
    const byId = new Map([...cut.results, ...rerun].map((r) => [r.tool_call_id, r]));
    const results = (cut.assistant.tool_calls as ToolCall[]).map((c) => byId.get(c.id)).filter((r): r is Message => !!r);
    transcript.push(cut.assistant, ...results);
    emit({ type: 'messages', messages: [cut.assistant, ...results] });
    await checkpoint(null);
  }

  for (let iteration = 1; ; iteration++) {
    if (signal.aborted) throw signal.reason;
    if (config.maxTurns !== null && iteration > config.maxTurns) {
      // Out of steps: one more call, without tools, for a summary (as Hermes ends a capped turn).
      await finishAtTurnLimit({
        cap: config.maxTurns,
        provider,
        model,
        messages: [{ role: 'system', content: input.systemPrompt }, ...(input.prefill ?? []), ...modelHistory(transcript, compression, head)],
        maxTokens: config.model.maxTokens,
        signal,
        retry,
        now: input.now,
        emit,
      });
      return;
    }

    // Compress before the call that would overflow, never in the middle of one.
    if (config.compression.enabled && promptTokens >= compressionTrigger(config.compression, input.contextLength, config.model.maxTokens, model)) {
      event('compressing', { session_id: input.sessionId, message: 'Compressing context' });
      const done = await compressTranscript({
        ...(input.compressionModel ?? { provider, model }),
        fallback: { provider, model },
        abortOnFailure: config.compression.abortOnSummaryFailure,
        transcript,
        previous: compression,
        protectFirstN: config.compression.protectFirstN,
        protectLastN: config.compression.protectLastN,
        signal,
        retry,
      });
      if (done?.failure) {
        const message = `No summary could be written (${done.failure}); the older messages were dropped`;
        event('warning', { type: 'compression_summary_failed', message });
      }
      if (done) {
        compression = done.anchor;
        emit({ type: 'patch', patch: { compression_anchor_visible_idx: done.anchor.anchor, compression_anchor_summary: done.anchor.summary } });
        emit({ type: 'usage', input_tokens: done.tokens.input, output_tokens: done.tokens.output, cost: done.tokens.cost, prompt_tokens: promptTokens });
        event('compressed', {
          session_id: input.sessionId,
          old_session_id: input.sessionId,
          new_session_id: input.sessionId,
          continuation_session_id: null,
          message: `Context compressed: ${done.summarised} earlier messages summarised`,
          summarised_messages: done.summarised,
        });
      }
      // Even when nothing could be summarised, do not try again on every step.
      promptTokens = 0;
    }

    const messages: ChatMessage[] = [{ role: 'system', content: input.systemPrompt }, ...(input.prefill ?? []), ...modelHistory(transcript, compression, head)];
    if (continuePartial) messages.push({ role: 'user', content: CONTINUE_AFTER_RESTART });
    continuePartial = false;
    let partial = '';
    let partialReasoning = '';
    let result;
    try {
      result = await callModel(
        provider,
        {
          model,
          messages,
          tools: specs.length ? specs : undefined,
          ...(config.model.maxTokens ? { maxTokens: config.model.maxTokens } : {}),
          reasoningEffort: config.reasoningEffort ?? null,
          signal,
          retry,
        },
        {
          onText: (text) => {
            partial += text;
            event('token', { text });
          },
          onReasoning: (text) => {
            partialReasoning += text;
            event('reasoning', { text });
          },
        },
        input.now,
      );
    } catch (err) {
      if (signal.aborted && !resumesLater(signal) && (partial || partialReasoning)) {
        // Cancelled mid-answer: what was already streamed is kept, marked as partial.
        emit({
          type: 'messages',
          messages: [
            {
              role: 'assistant',
              content: partial,
              ...(partialReasoning ? { reasoning: partialReasoning } : {}),
              _partial: true,
              timestamp: input.now(),
              ...resumed,
            },
          ],
        });
      }
      throw err;
    }

    promptTokens = result.usage.inputTokens;
    const cache = {
      ...(result.usage.cacheReadTokens !== undefined ? { cache_read_tokens: result.usage.cacheReadTokens } : {}),
      ...(result.usage.cacheWriteTokens !== undefined ? { cache_write_tokens: result.usage.cacheWriteTokens } : {}),
    };
    emit({
      type: 'usage',
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cost: result.usage.cost,
      prompt_tokens: result.usage.inputTokens,
      ...cache,
    });
    event('metering', {
      session_id: input.sessionId,
      tps: result.tokensPerSecond ?? 0,
      tps_available: result.tokensPerSecond !== null,
      estimated: result.usage.estimated,
      usage: {
        input_tokens: result.usage.inputTokens,
        output_tokens: result.usage.outputTokens,
        ...(result.usage.cost !== null ? { cost: result.usage.cost } : {}),
        ...cache,
      },
    });

    const assistant: Message = {
      role: 'assistant',
      content: result.text,
      ...(result.reasoning ? { reasoning: result.reasoning } : {}),
      ...(result.reasoningDetails.length ? { reasoning_details: result.reasoningDetails } : {}),
      ...(result.toolCalls.length ? { tool_calls: result.toolCalls } : {}),
      timestamp: input.now(),
      _usedModel: chain?.current.model ?? model,
      ...(result.finish === 'length' ? { _finish_reason: 'length' } : {}),
      ...resumed,
    };

    if (!result.toolCalls.length) {
      transcript.push(assistant);
      emit({ type: 'messages', messages: [assistant] });
      return;
    }

    let results: Message[];
    try {
      // Durable before any tool runs: a restart then knows which calls were asked for.
      await checkpoint({ assistant, results: [] });
      results = await runTools(result.toolCalls, toolsByName, input, assistant, [], checkpoint);
    } catch (err) {
      // Cancelled while tools ran: keep the answer so far; unfinished calls read as interrupted.
      if (signal.aborted && !resumesLater(signal)) emit({ type: 'messages', messages: [{ ...assistant, _partial: true }] });
      throw err;
    }
    // After the batch, before the next call: text steered meanwhile joins the last result.
    const steered = steerAtBoundary(input.steer, results);
    transcript.push(assistant, ...results);
    emit({ type: 'messages', messages: [assistant, ...results] });
    if (steered) event('steer_applied', { session_id: input.sessionId, text: steered.text, tool_call_id: steered.toolCallId });
    // Once the step is stored (the driver waits for its storage queue) nothing is in flight.
    await checkpoint(null);
  }
}

/**
 * Runs one step's tool calls; results come back in call order whatever order they finish in.
 * Each finished result is checkpointed (with `prior`, the step's results finished before) as
 * it finishes, one checkpoint after another.
 */
async function runTools(
  calls: ToolCall[],
  tools: Map<string, Tool>,
  input: LoopInput,
  assistant: Message,
  prior: Message[],
  checkpoint: (step: TurnStep) => Promise<void>,
): Promise<Message[]> {
  const finished = [...prior];
  let saving: Promise<void> = Promise.resolve();
  const saved = (result: Message) => {
    finished.push(result);
    const step = { assistant, results: [...finished] };
    saving = saving.then(() => checkpoint(step));
    return saving;
  };
  const one = async (call: ToolCall): Promise<Message> => {
    const name = call.function.name;
    const parsed = parseArguments(call);
    const args = parsed.ok ? parsed.args : {};
    const started = input.now();
    const row = { name, preview: toolPreview(name, toolTarget(args)), args: toolArgsPreview(args), tool_call_id: call.id };
    input.emit(runEvent('tool', { event_type: 'tool.started', ...row }));
    let content: string;
    const tool = tools.get(name);
    if (!parsed.ok) content = JSON.stringify({ error: parsed.error });
    else if (!tool) content = JSON.stringify({ error: `Unknown tool "${name}". Available: ${[...tools.keys()].join(', ')}` });
    else {
      try {
        content = await tool.run(args, input.toolContext);
      } catch (err) {
        if (input.signal.aborted) throw err;
        content = JSON.stringify({ error: `Tool failed: ${(err as Error)?.message ?? String(err)}` });
      }
    }
    const duration = Math.round((input.now() - started) * 1000) / 1000;
    input.emit(
      runEvent('tool_complete', { ...row, event_type: 'tool.completed', duration, is_error: isToolErrorResult(content), result: toolResultPreview(content) }),
    );
    const result: Message = { role: 'tool', tool_call_id: call.id, name, content, timestamp: input.now() };
    await saved(result);
    return result;
  };

  const results: Message[] = new Array(calls.length);
  // Hermes' planning: only reads and path-disjoint file calls share a segment; the rest (terminal,
  // memory, todo, clarify, unknown tools, overlapping writes) run one after another, in order.
  const segments = planToolBatches(calls, {
    cwd: toolBaseDir(input.toolContext),
    homeDir: input.toolContext.host.homeDir,
    isParallelSafe: (name) => tools.get(name)?.mcp?.parallelSafe === true,
  });
  for (const segment of segments) {
    if (segment.mode === 'parallel') {
      const done = await Promise.all(segment.calls.map((i) => one(calls[i]!)));
      for (const [k, i] of segment.calls.entries()) results[i] = done[k]!;
    } else {
      for (const i of segment.calls) results[i] = await one(calls[i]!);
    }
  }
  return results;
}
