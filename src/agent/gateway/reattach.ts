import type { TurnInput, TurnOutput } from '../runtime.js';
import { ProviderError } from '../providers/types.js';
import { failureHint } from '../../shared/server-texts-en.js';
import type { JournalRecord } from '../../runs/journal.js';
import type { Message } from '../../shared/session.js';
import { str } from './http.js';
import { RunEnded, cancelledElsewhere, runFailed, usageOf } from './outcomes.js';
import { followRun, type RunCursor, type RunsTurnDeps } from './runs-turn.js';
import { sessionState, type GatewaySessionState } from './session-state.js';
import type { Call, GatewayTurn } from './turn-state.js';

/**
 * A gateway turn after a restart does not start again: Hermes' run went on in Hermes (it is
 * another process), so the turn reattaches to it. The journal's checkpoint names the run and
 * the last Hermes event handled when it was written (`gateway`, with our `seq` then); what we
 * relayed after that point is in our own journal. A newer Hermes replays its events after that
 * id (Last-Event-ID), so exactly that much is passed over (ReplaySkip); an older one replays
 * nothing, and the run's final output stands in for what streamed meanwhile. A run that ended
 * while nobody listened is closed from its status.
 */
export interface GatewayResume {
  runId: string;
  /** Hermes' last event id handled when the checkpoint was written (absent: none yet, or an older Hermes). */
  eventId?: string;
  /** Relayed after that point, so a replay repeats it: text and reasoning (characters), tool starts and ends. */
  relayed: { text: number; reasoning: number; toolStarts: number; toolEnds: number };
  /** That text: stored as the cut-short answer, so a final output starting with it is not stored twice. */
  text: string;
  /** Calls of the step in progress (relayed, not yet in the transcript): the step goes on with them. */
  calls: Call[];
  /** The highest made-up call number (`gw_<n>`) of the turn: new ones go on after it. */
  lastMadeUpId: number;
}

/** Where a gateway turn stood, from its journal and the stored transcript; null when it never named a run (chat completions). */
export function gatewayResumeOf(record: JournalRecord, transcript: readonly Message[]): GatewayResume | null {
  const cursor = record.checkpoint?.gateway;
  if (!cursor?.run_id) return null;
  const stored = new Set<string>();
  for (const m of transcript) {
    if (m.role === 'tool' && typeof m.tool_call_id === 'string') stored.add(m.tool_call_id);
    for (const c of (m.tool_calls as Array<{ id?: string }> | undefined) ?? []) if (c?.id) stored.add(c.id);
  }
  const relayed = { text: 0, reasoning: 0, toolStarts: 0, toolEnds: 0 };
  let text = '';
  let lastMadeUpId = 0;
  const calls = new Map<string, Call>();
  for (const e of record.events) {
    if (e.event === 'tool') lastMadeUpId = Math.max(lastMadeUpId, madeUpNumber(e.data.tool_call_id));
    if (e.seq <= cursor.seq) continue;
    if (e.event === 'token') {
      text += e.data.text;
      relayed.text += e.data.text.length;
    } else if (e.event === 'reasoning') relayed.reasoning += e.data.text.length;
    else if (e.event === 'tool') {
      relayed.toolStarts++;
      const id = e.data.tool_call_id ?? '';
      if (id && !stored.has(id)) calls.set(id, { id, name: e.data.name, args: e.data.args ?? {}, preview: e.data.preview, done: false, isError: false });
    } else if (e.event === 'tool_complete') {
      relayed.toolEnds++;
      const call = calls.get(e.data.tool_call_id ?? '');
      if (call) {
        call.done = true;
        call.isError = !!e.data.is_error;
        if (e.data.duration !== undefined) call.duration = e.data.duration;
        if (e.data.result !== undefined) call.result = e.data.result;
      }
    }
  }
  return {
    runId: cursor.run_id,
    ...(cursor.event_id !== undefined ? { eventId: cursor.event_id } : {}),
    relayed,
    text,
    calls: [...calls.values()],
    lastMadeUpId,
  };
}

function madeUpNumber(id: string | undefined): number {
  const m = /^gw_(\d+)(?:_(\d+))?$/.exec(id ?? '');
  return m ? Math.max(Number(m[1]), Number(m[2] ?? 0)) : 0;
}

/**
 * Passes over the part of a replay that was relayed before the restart. Whether the server
 * replays at all shows with its first event: one with an id (a newer Hermes, replaying after
 * Last-Event-ID) or one without (an older one: live events only, nothing to pass over).
 */
export class ReplaySkip {
  /** Unknown until the first event. */
  replaying: boolean | null = null;
  readonly #left: GatewayResume['relayed'];

  constructor(relayed: GatewayResume['relayed']) {
    this.#left = { ...relayed };
  }

  /** The event's data to handle (a delta shortened by what was relayed), or null to pass it over. */
  pass(name: string, d: Record<string, unknown>, hasId: boolean): Record<string, unknown> | null {
    this.replaying ??= hasId;
    if (!this.replaying) return d;
    const left = this.#left;
    const delta = (key: 'text' | 'reasoning') => {
      const chunk = str(d.delta) ?? str(d.text) ?? '';
      if (left[key] <= 0) return d;
      const take = Math.min(left[key], chunk.length);
      left[key] -= take;
      return take === chunk.length ? null : { ...d, delta: chunk.slice(take), text: chunk.slice(take) };
    };
    switch (name) {
      case 'message.delta':
      case 'assistant.delta':
        return delta('text');
      case 'reasoning.delta':
      case 'reasoning.available':
      case 'thinking.delta':
        return delta('reasoning');
      case 'tool.started':
      case 'tool.start':
        if (left.toolStarts <= 0) return d;
        left.toolStarts--;
        return null;
      case 'tool.completed':
      case 'tool.complete':
        if (left.toolEnds <= 0) return d;
        left.toolEnds--;
        return null;
      default:
        // Approvals come again: one still pending is asked again, an answered one is withdrawn by its `responded`.
        return d;
    }
  }
}

/**
 * Carries a gateway turn on after a restart: asks Hermes how the run stands, closes the turn
 * from that when it ended meanwhile, else relays its events from the checkpoint on.
 */
export async function reattachTurn(
  deps: RunsTurnDeps,
  input: TurnInput,
  resume: GatewayResume,
  turn: GatewayTurn,
  emit: (out: TurnOutput) => void,
  cursor: RunCursor,
): Promise<GatewaySessionState> {
  const sid = input.session.session_id;
  const prior = sessionState(input.session);
  cursor.runId = resume.runId;
  cursor.eventId = resume.eventId;
  turn.seed(resume.calls, resume.lastMadeUpId);
  const path = `/v1/runs/${encodeURIComponent(resume.runId)}`;
  let status: Record<string, unknown>;
  try {
    status = (await deps.http.json('GET', path, { timeoutMs: deps.readTimeoutMs, signal: input.signal })).body;
  } catch (err) {
    if (err instanceof ProviderError && err.status === 404) throw runForgotten(resume.runId);
    throw err;
  }
  const hermesSession = str(status.session_id) ?? ((prior?.path === 'runs' && prior.session_id) || sid);
  const rest = (output: string | undefined) => (output?.startsWith(resume.text) ? output.slice(resume.text.length) : output);
  switch (str(status.status)) {
    case 'completed':
      turn.finish({ output: rest(str(status.output)), preferOutput: true, usage: usageOf(status.usage) });
      return { path: 'runs', for: sid, session_id: hermesSession, synced_messages: 0 };
    case 'failed':
      throw runFailed(str(status.error) ?? 'no reason given');
    case 'cancelled':
      throw cancelledElsewhere();
  }
  deps.logger.info({ msg: 'gateway: reattached to a run after a restart', run_id: resume.runId, after: resume.eventId ?? null });
  return followRun(deps, input, resume.runId, hermesSession, turn, emit, cursor, {
    lastId: resume.eventId,
    replay: new ReplaySkip(resume.relayed),
    relayedText: resume.text,
  });
}

function runForgotten(runId: string): ProviderError {
  return new RunEnded(
    'interrupted',
    `Hermes Agent no longer knows run ${runId}, so this reply could not be picked up again after the restart`,
    failureHint('gateway_run_forgotten', {}),
  );
}
