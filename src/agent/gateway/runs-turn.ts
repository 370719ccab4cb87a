import type { Logger } from '../../ports/platform.js';
import { parseSse, type SseRecord } from '../providers/sse.js';
import { ProviderError } from '../providers/types.js';
import { failureHint } from '../../shared/server-texts-en.js';
import { runEvent, type TurnInput, type TurnOutput, type TurnStep } from '../runtime.js';
import type { RunEventPayloads } from '../../shared/run-events.js';
import type { GatewayProfile } from './capabilities.js';
import { type GatewayHttp, SilenceError, malformed, num, silent, str, withSilenceLimit } from './http.js';
import { RunEnded, cancelledElsewhere, emptyAnswer, runFailed, usageOf } from './outcomes.js';
import { RunApprovals, type ApprovalHost } from './run-approvals.js';
import { conversationHistory, lastUserText, sessionState, type GatewaySessionState } from './session-state.js';
import type { GatewayTurn } from './turn-state.js';
import type { ReplaySkip } from './reattach.js';
import { NO_PREFILL, type TurnPrefill } from '../prefill-turn.js';

/**
 * Which Hermes run a turn relays and the id of the last of its events handled: a step's
 * checkpoint records both, so after a restart reattach.ts asks for the events after it.
 */
export interface RunCursor {
  runId: string | null;
  eventId: string | undefined;
}

/** Where following a run starts, for a turn reattached after a restart (reattach.ts). */
export interface FollowFrom {
  /** Sent as Last-Event-ID: a newer Hermes replays what came after. */
  lastId?: string | undefined;
  /** What was relayed after that id already: a replay repeats it, so it is skipped. */
  replay?: ReplaySkip | null;
  /** Text relayed (and stored as the cut-short answer) after that id: the final output's start, not stored twice. */
  relayedText?: string;
}

/** What a runs-API turn uses of the runtime, handed over explicitly since its fields are private there. */
export interface RunsTurnDeps {
  http: GatewayHttp;
  readTimeoutMs: number;
  logger: Logger;
  approvals: ApprovalHost;
  /** Running turns' Hermes run ids by stream id (for steer), kept while each run is read. */
  runs?: Map<string, string>;
}

const STOP_TIMEOUT_MS = 5000;
const MAX_RECONNECTS = 2;

/** Run events that carry nothing to show here (progress kinds newer Hermes adds are skipped too). */
const QUIET_EVENTS = new Set([
  'run.started',
  'run.queued',
  'run.running',
  'run.created',
  'run.steered',
  'message.start',
  'message.started',
  'message.completed',
  'message.complete',
  'keepalive',
  'heartbeat',
  'ping',
]);

/** One turn over the runs API: `POST /v1/runs`, then its event stream (reconnecting if it drops), approvals and stop. */
export async function runsTurn(
  deps: RunsTurnDeps,
  input: TurnInput,
  profile: GatewayProfile,
  model: string | null,
  turn: GatewayTurn,
  emit: (out: TurnOutput) => void,
  cursor: RunCursor,
  prefill: TurnPrefill = NO_PREFILL,
): Promise<GatewaySessionState> {
  const { session, signal } = input;
  const sid = session.session_id;
  const http = deps.http;
  const prior = sessionState(session);
  const hermesSession = (prior?.path === 'runs' && prior.session_id) || sid;
  // Hermes loads a session's transcript itself only where it keeps sessions (newer builds),
  // and only if it saw everything we have: otherwise the history goes with the run.
  const inSync = profile.sessions && prior?.path === 'runs' && prior.session_id === hermesSession && prior.synced_messages === session.messages.length - 1;
  const key = await http.key();
  // Prefill as the incumbent sends it to the runs API: system text as `instructions`, the exchange
  // in `conversation_history` (ahead of the conversation, so that goes along even when in sync).
  const history = inSync && !prefill.exchange.length ? null : [...prefill.exchange, ...conversationHistory(session)];
  const body: Record<string, unknown> = {
    input: lastUserText(session),
    session_id: hermesSession,
    ...(model ? { model } : {}),
    ...(prefill.system ? { instructions: prefill.system } : {}),
    ...(history ? { conversation_history: history } : {}),
  };
  // Not tied to the cancel signal: a run the server accepted must be stopped, not abandoned.
  const started = await http.json('POST', '/v1/runs', { body, headers: key ? { 'X-Hermes-Session-Key': `webui:${sid}` } : {}, timeoutMs: deps.readTimeoutMs });
  const runId = str(started.body.run_id) ?? str(started.body.id);
  if (!runId) throw malformed(http.baseUrl, `POST /v1/runs answered without a run_id: ${JSON.stringify(started.body).slice(0, 120)}`);
  cursor.runId = runId;
  if (signal.aborted) {
    await stopRun(deps, runId);
    throw signal.reason;
  }
  // Durable before anything is relayed: a restart from here on reattaches instead of losing the run.
  if (input.checkpoints) await checkpointed(emit, null, cursor, deps.logger).catch(() => {});
  return followRun(deps, input, runId, str(started.body.session_id) ?? hermesSession, turn, emit, cursor, {});
}

/** Makes the journal's checkpoint name the run and the cursor (and `step`, a finished one); resolves once it is written. */
export function checkpointed(emit: (out: TurnOutput) => void, step: TurnStep | null, cursor: RunCursor, logger: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    const gateway = { run_id: cursor.runId!, ...(cursor.eventId !== undefined ? { event_id: cursor.eventId } : {}) };
    emit({
      type: 'checkpoint',
      step,
      gateway,
      written: (err) => {
        if (!err) return resolve();
        logger.error({ msg: 'gateway: could not checkpoint the run', run_id: cursor.runId, error: String(err) });
        reject(err);
      },
    });
  });
}

/**
 * Relays a started (or reattached) run to its end: its event stream, reconnecting when it
 * drops, asking the run's status when a stream ends without saying how the run ended.
 */
export async function followRun(
  deps: RunsTurnDeps,
  input: TurnInput,
  runId: string,
  hermesSession: string,
  turn: GatewayTurn,
  emit: (out: TurnOutput) => void,
  cursor: RunCursor,
  from: FollowFrom,
): Promise<GatewaySessionState> {
  const { signal } = input;
  const http = deps.http;
  let effectiveSession = hermesSession;
  const approvals = new RunApprovals(deps.approvals, runId, input, emit);
  deps.runs?.set(input.streamId, runId);
  const seen = new Set<string>();
  let lastId: string | undefined = from.lastId;
  let reconnects = 0;
  let missedPossible = false;
  const output = (text: string | undefined) => (text && from.relayedText && text.startsWith(from.relayedText) ? text.slice(from.relayedText.length) : text);
  try {
    for (;;) {
      const outcome = await readRunEvents(
        deps,
        { runId, lastId, signal, approvals, turn, seen, cursor, replay: from.replay ?? null },
        (id) => (lastId = id),
        (s) => (effectiveSession = s),
      );
      // A reattach to an older Hermes (no event ids, so no replay) lost what ran meanwhile: the output then wins.
      if (from.replay && from.replay.replaying !== true) missedPossible = true;
      if (outcome.type === 'completed') {
        if (!turn.finish({ output: output(outcome.output), preferOutput: missedPossible, usage: outcome.usage }) && !from.relayedText) throw emptyAnswer();
        for (const w of outcome.warnings) emit(runEvent('warning', w));
        break;
      }
      // The stream ended without saying how the run ended: ask the run itself.
      const status = await http.json('GET', `/v1/runs/${encodeURIComponent(runId)}`, { timeoutMs: deps.readTimeoutMs, signal });
      const s = str(status.body.status) ?? 'unknown';
      if (s === 'completed') {
        if (!turn.finish({ output: output(str(status.body.output)), preferOutput: true, usage: usageOf(status.body.usage) }) && !from.relayedText)
          throw emptyAnswer();
        break;
      }
      if (s === 'failed') throw runFailed(str(status.body.error) ?? 'no reason given');
      if (s === 'cancelled') throw cancelledElsewhere();
      if (reconnects >= MAX_RECONNECTS) {
        throw new ProviderError(
          'no_response',
          `Hermes Agent's event stream for run ${runId} kept ending before the run finished (it is "${s}")`,
          failureHint('gateway_stream_unreliable', {}),
        );
      }
      reconnects++;
      // Without event ids the server cannot replay what was missed: the final answer then comes from the run's output.
      if (!lastId) missedPossible = true;
    }
  } catch (err) {
    if (signal.aborted) {
      await stopRun(deps, runId);
      throw signal.reason;
    }
    // A run Hermes did not end itself is stopped: nobody listens to it any more.
    if (!(err instanceof RunEnded)) void stopRun(deps, runId);
    if (err instanceof SilenceError) throw silent(http.baseUrl, err.ms, 'waiting for the run to continue');
    throw err;
  } finally {
    deps.runs?.delete(input.streamId);
    approvals.close();
  }
  return { path: 'runs', for: input.session.session_id, session_id: effectiveSession, synced_messages: 0 };
}

interface Reading {
  runId: string;
  lastId: string | undefined;
  signal: AbortSignal;
  approvals: RunApprovals;
  turn: GatewayTurn;
  seen: Set<string>;
  cursor: RunCursor;
  replay: ReplaySkip | null;
}

/** Reads one connection's worth of run events; returns how the run ended, or that the stream ended first. */
async function readRunEvents(
  deps: RunsTurnDeps,
  r: Reading,
  onId: (id: string) => void,
  onSession: (id: string) => void,
): Promise<
  | { type: 'completed'; output: string | undefined; usage: { input: number; output: number } | null; warnings: Array<RunEventPayloads['warning']> }
  | { type: 'ended' }
> {
  const { runId, lastId, signal, approvals, turn, seen, cursor, replay } = r;
  const http = deps.http;
  const path = `/v1/runs/${encodeURIComponent(runId)}/events`;
  const response = await http.send('GET', path, {
    signal,
    timeoutMs: deps.readTimeoutMs,
    accept: 'text/event-stream',
    headers: lastId ? { 'Last-Event-ID': lastId } : {},
  });
  if (!response.ok) throw await http.failure(response, null, `GET ${path}`);
  if (!response.body) throw malformed(http.baseUrl, `GET ${path} had no body`);
  const body = withSilenceLimit(response.body, deps.readTimeoutMs, () => approvals.waiting > 0);
  for await (const record of parseSse(body, signal, { ids: true })) {
    if (record.id !== undefined) {
      if (seen.has(record.id)) continue; // replayed after a reconnect
      seen.add(record.id);
      onId(record.id);
    }
    const ev = parseEvent(http.baseUrl, record);
    // What a reattach relayed before the restart already comes again in a replay: passed over.
    const d = ev && (replay ? replay.pass(ev.name, ev.data, record.id !== undefined) : ev.data);
    if (!ev || !d) {
      if (record.id !== undefined) cursor.eventId = record.id;
      continue;
    }
    const name = ev.name;
    const session = str(d.session_id);
    if (session) onSession(session);
    // A run's end carries the steer text no tool boundary took (any of the three endings).
    if (name === 'run.completed' || name === 'run.failed' || name === 'run.cancelled') turn.steerLeftover(str(d.pending_steer));
    switch (name) {
      case 'message.delta':
      case 'assistant.delta':
        turn.text(str(d.delta) ?? str(d.text) ?? '');
        break;
      case 'reasoning.delta':
      case 'reasoning.available':
      case 'thinking.delta':
        turn.reasoning(str(d.delta) ?? str(d.text) ?? '');
        break;
      case 'tool.started':
      case 'tool.start':
        turn.toolStarted({
          id: toolCallId(d),
          name: str(d.tool) ?? str(d.name) ?? 'tool',
          preview: str(d.preview) ?? str(d.label) ?? str(d.args_text),
          args: objectOr(d.args),
        });
        break;
      case 'tool.completed':
      case 'tool.complete':
        turn.toolCompleted({
          id: toolCallId(d),
          name: str(d.tool) ?? str(d.name),
          duration: num(d.duration) ?? num(d.duration_s),
          error: d.error === true || !!str(d.error),
          result: str(d.result) ?? str(d.result_text) ?? str(d.summary) ?? (str(d.error) ? JSON.stringify({ error: d.error }) : undefined),
        });
        break;
      case 'approval.request':
        approvals.request(d);
        break;
      case 'approval.responded':
        approvals.responded(d);
        break;
      case 'run.completed': {
        const warnings: Array<RunEventPayloads['warning']> = [];
        const exit = str(d.turn_exit_reason);
        if (exit && /max_iterations/i.test(exit)) warnings.push({ type: 'tool_limit_reached', message: `Hermes stopped at its iteration limit (${exit})` });
        return { type: 'completed', output: str(d.output), usage: usageOf(d.usage), warnings };
      }
      case 'run.failed':
        throw runFailed(str(d.error) ?? str(d.message) ?? 'no reason given');
      case 'run.cancelled':
        if (signal.aborted) throw signal.reason;
        throw cancelledElsewhere();
      default:
        if (QUIET_EVENTS.has(name) || /^(subagent|session|status|todo|notification|tool)\./.test(name)) break;
        if (name.startsWith('run.')) {
          throw new ProviderError(
            'error',
            `Hermes Agent ended the run with an event this WebUI does not know: "${name}"`,
            failureHint('gateway_unknown_event', {}),
            undefined,
            JSON.stringify(d).slice(0, 1200),
          );
        }
        deps.logger.info({ msg: 'gateway: skipped an unknown run event', event: name });
    }
    // Only now: a step checkpointed while this event was handled names the event before it.
    if (record.id !== undefined) cursor.eventId = record.id;
  }
  return { type: 'ended' };
}

/** Asks Hermes to stop a run; bounded, and a failure is only logged (the turn is over here either way). */
async function stopRun(deps: RunsTurnDeps, runId: string): Promise<void> {
  try {
    const res = await deps.http.send('POST', `/v1/runs/${encodeURIComponent(runId)}/stop`, { body: {}, timeoutMs: STOP_TIMEOUT_MS });
    await res.body?.cancel().catch(() => {});
    if (!res.ok && res.status !== 404 && res.status !== 409) deps.logger.error({ msg: 'gateway: stop refused', run_id: runId, status: res.status });
  } catch (err) {
    deps.logger.error({ msg: 'gateway: stop failed', run_id: runId, error: String((err as Error)?.message ?? err) });
  }
}

function parseEvent(baseUrl: string, record: SseRecord): { name: string; data: Record<string, unknown> } | null {
  const text = record.data.trim();
  if (!text) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw malformed(baseUrl, `a run event that is not JSON: ${text.slice(0, 120)}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw malformed(baseUrl, `a run event that is not an object: ${text.slice(0, 120)}`);
  const d = data as Record<string, unknown>;
  const name = str(d.event) ?? str(d.type) ?? (record.event && record.event !== 'message' ? record.event : undefined);
  if (!name) throw malformed(baseUrl, `a run event without a name: ${text.slice(0, 120)}`);
  return { name, data: d };
}

function toolCallId(d: Record<string, unknown>): string | undefined {
  return str(d.tool_call_id) ?? str(d.tool_id) ?? str(d.call_id) ?? str(d.toolCallId);
}

function objectOr(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
