import { parseSse, type SseRecord } from '../providers/sse.js';
import { ProviderError } from '../providers/types.js';
import { failureHint } from '../../shared/server-texts-en.js';
import { runEvent, type TurnInput, type TurnOutput } from '../runtime.js';
import { type GatewayHttp, SilenceError, malformed, num, silent, str, withSilenceLimit } from './http.js';
import { chatUsage, emptyAnswer, runFailed, streamError } from './outcomes.js';
import { conversationHistory, lastUserText, sessionState, type GatewaySessionState } from './session-state.js';
import type { GatewayTurn } from './turn-state.js';
import { NO_PREFILL, type TurnPrefill } from '../prefill-turn.js';

/** What a chat-completions turn uses of the runtime, handed over explicitly since its fields are private there. */
export interface ChatTurnDeps {
  http: GatewayHttp;
  readTimeoutMs: number;
}

/** One turn over streaming chat completions (the fallback for a gateway without the runs API), keyed by `X-Hermes-Session-Id`. */
export async function chatCompletionsTurn(
  deps: ChatTurnDeps,
  input: TurnInput,
  model: string | null,
  turn: GatewayTurn,
  emit: (out: TurnOutput) => void,
  prefill: TurnPrefill = NO_PREFILL,
): Promise<GatewaySessionState> {
  const { session, signal } = input;
  const http = deps.http;
  const prior = sessionState(session);
  let hermesSession = prior?.path === 'chat_completions' ? prior.session_id : null;
  const key = await http.key();
  // Prefill as the incumbent sends it here: a system message first, then its exchange before the conversation.
  const messages = [
    ...(prefill.system ? [{ role: 'system', content: prefill.system }] : []),
    ...prefill.exchange,
    ...conversationHistory(session),
    { role: 'user', content: lastUserText(session) },
  ];
  const body = { ...(model ? { model } : {}), messages, stream: true };
  const send = (withSession: string | null) =>
    http.send('POST', '/v1/chat/completions', {
      body,
      signal,
      timeoutMs: deps.readTimeoutMs,
      accept: 'text/event-stream',
      headers: {
        ...(withSession ? { 'X-Hermes-Session-Id': withSession } : {}),
        // Hermes refuses a session key without an API key (403), so it goes only with one.
        ...(key ? { 'X-Hermes-Session-Key': `webui:${session.session_id}` } : {}),
      },
    });
  let response = await send(hermesSession);
  if (!response.ok && hermesSession && (response.status === 400 || response.status === 404)) {
    const text = await response.text().catch(() => '');
    if (!/session/i.test(text)) throw await http.failure(response, text, 'POST /v1/chat/completions');
    // Hermes no longer knows that session (deleted, another profile): start a new one; the history goes along.
    hermesSession = null;
    response = await send(null);
  }
  if (!response.ok) throw await http.failure(response, null, 'POST /v1/chat/completions');
  // Re-read on every answer: Hermes may move the conversation to a new session after compressing it.
  const echoed = response.headers.get('X-Hermes-Session-Id');
  if (echoed) hermesSession = echoed;
  let totals: { input: number; output: number } | null = null;

  if (/application\/json/i.test(response.headers.get('content-type') ?? '')) {
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!json) throw malformed(http.baseUrl, 'the chat completion is not JSON');
    if (json.error) throw streamError(json.error);
    const choice = (Array.isArray(json.choices) ? json.choices[0] : undefined) as Record<string, unknown> | undefined;
    const message = (choice?.message ?? {}) as Record<string, unknown>;
    turn.reasoning(str(message.reasoning_content) ?? '');
    turn.text(str(message.content) ?? '');
    totals = chatUsage(json.usage);
  } else {
    if (!response.body) throw malformed(http.baseUrl, 'the chat completion had no body');
    let finished = false;
    let done = false;
    try {
      for await (const record of parseSse(withSilenceLimit(response.body, deps.readTimeoutMs), signal)) {
        if (record.event) {
          chatSideEvent(record, turn, emit);
          continue;
        }
        const data = record.data.trim();
        if (!data) continue;
        if (data === '[DONE]') {
          done = true;
          break;
        }
        let json: Record<string, unknown>;
        try {
          json = JSON.parse(data) as Record<string, unknown>;
        } catch {
          throw malformed(http.baseUrl, `the stream carried data that is not JSON: ${data.slice(0, 120)}`);
        }
        if (json.error) throw streamError(json.error);
        const u = chatUsage(json.usage);
        if (u) totals = u;
        const choice = Array.isArray(json.choices) ? (json.choices[0] as Record<string, unknown> | undefined) : undefined;
        const delta = (choice?.delta ?? {}) as Record<string, unknown>;
        turn.reasoning(str(delta.reasoning_content) ?? str(delta.reasoning) ?? '');
        turn.text(str(delta.content) ?? '');
        const hermes = (json.hermes ?? null) as Record<string, unknown> | null;
        if (choice?.finish_reason === 'error' || hermes?.failed === true) throw runFailed(str(hermes?.error) ?? 'the agent reported an error');
        if (typeof choice?.finish_reason === 'string' && choice.finish_reason) finished = true;
      }
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof SilenceError) throw silent(http.baseUrl, err.ms, 'streaming the answer');
      if (err instanceof ProviderError) throw err;
      throw new ProviderError('no_response', `Hermes Agent stopped mid-answer (${String((err as Error)?.message ?? err)})`, failureHint('gateway_cut_off', {}));
    }
    if (!done && !finished)
      throw new ProviderError('no_response', 'Hermes Agent stopped mid-answer (the stream ended early)', failureHint('gateway_cut_off', {}));
  }

  // Hermes reports the session's running totals: only the growth since last time is this turn's.
  const previous = prior?.path === 'chat_completions' && prior.session_id === hermesSession ? prior.usage_totals : undefined;
  const usage =
    totals && previous && totals.input >= previous.input && totals.output >= previous.output
      ? { input: totals.input - previous.input, output: totals.output - previous.output }
      : totals;
  if (!turn.finish({ usage })) throw emptyAnswer();
  return { path: 'chat_completions', for: session.session_id, session_id: hermesSession, synced_messages: 0, ...(totals ? { usage_totals: totals } : {}) };
}

/** Named events on the chat-completions stream: tool progress, reasoning, approvals it cannot answer. */
function chatSideEvent(record: SseRecord, turn: GatewayTurn, emit: (out: TurnOutput) => void) {
  let d: Record<string, unknown> = {};
  try {
    d = JSON.parse(record.data) as Record<string, unknown>;
  } catch {
    return; // a side channel; the answer itself is checked strictly
  }
  switch (record.event) {
    case 'hermes.tool.progress': {
      const status = str(d.status) ?? 'running';
      const id = str(d.toolCallId) ?? str(d.tool_call_id);
      const name = str(d.tool) ?? str(d.name) ?? 'tool';
      if (/^(running|started|start|in_progress)$/.test(status)) turn.toolStarted({ id, name, preview: str(d.label) ?? str(d.preview) });
      else turn.toolCompleted({ id, name, duration: num(d.duration), error: /error|fail/.test(status) });
      break;
    }
    case 'reasoning.available':
    case 'reasoning.delta':
      turn.reasoning(str(d.text) ?? str(d.delta) ?? '');
      break;
    case 'approval.request':
    case 'hermes.approval.request':
      emit(
        runEvent('warning', {
          type: 'approval_unavailable',
          message: `Hermes asked for approval${str(d.command) ? ` of \`${str(d.command)}\`` : ''}, which cannot be answered over chat completions; it applies its own approvals setting.`,
        }),
      );
      break;
    default:
      break;
  }
}
