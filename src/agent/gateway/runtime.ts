import type { Logger } from '../../ports/platform.js';
import type { InteractionHub } from '../../runs/interactions.js';
import type { Message, Session } from '../../shared/session.js';
import { Channel } from '../channel.js';
import { parseModelList, type CatalogModel } from '../catalog/probe.js';
import type { Catalog } from '../catalog/catalog.js';
import { modelHistory } from '../builtin/history.js';
import { parseSse, type SseRecord } from '../providers/sse.js';
import { ProviderError } from '../providers/types.js';
import type { ApprovalChoice, ApprovalRequest } from '../tools/types.js';
import type { AgentInfo, AgentRuntime, TurnInput, TurnOutput } from '../runtime.js';
import { limitationsOf, profileFrom, type GatewayProfile } from './capabilities.js';
import { DETECT_TIMEOUT_MS, GatewayHttp, SilenceError, anySignal, malformed, num, silent, str, withSilenceLimit } from './http.js';
import { GatewayTurn } from './turn-state.js';

export interface GatewayRuntimeOptions {
  /** The Hermes API server, e.g. http://127.0.0.1:8642 (HERMES_WEBUI_GATEWAY_BASE_URL). */
  baseUrl: string;
  /** Its API_SERVER_KEY; read for every request (null: send none). */
  apiKey: () => Promise<string | null>;
  /** Approvals are queued here, so POST /api/approval/respond and the approval card work as for the builtin agent. */
  hub: InteractionHub;
  logger: Logger;
  now: () => number;
  fetch?: typeof fetch;
  /** The longest a stream may stay silent (no byte, not even a keepalive), and a request may wait for its answer. Default 120 s. */
  readTimeoutMs?: number;
  /** How long an approval waits for a person before it is denied (default 10 minutes; Hermes may give up sooner). */
  approvalTimeoutMs?: number;
  /** How long a capabilities answer is trusted before asking again (default 60 s). */
  capabilitiesTtlMs?: number;
}

/** What this project keeps about the gateway in a session (`hermes_gateway`), to continue it next turn. */
interface GatewaySessionState {
  path: string;
  /** The WebUI session this was written for: a branch or copy carries the key along, but must start its own Hermes conversation. */
  for: string;
  /** Hermes' id for the conversation: ours on the runs path, the echoed X-Hermes-Session-Id on chat completions. */
  session_id: string | null;
  /** How many messages the transcript had when Hermes last saw all of it; any other count means it changed here. */
  synced_messages: number;
  /** Chat completions report the Hermes session's running totals; the last ones, to add only the difference. */
  usage_totals?: { input: number; output: number };
}

const HISTORY_LIMIT = 200;
const STOP_TIMEOUT_MS = 5000;
const MAX_RECONNECTS = 2;
const CHOICES: ApprovalChoice[] = ['once', 'session', 'always', 'deny'];

/** Run events that carry nothing to show here (progress kinds newer Hermes adds are skipped too). */
const QUIET_EVENTS = new Set(['run.started', 'run.queued', 'run.running', 'run.created', 'run.steered', 'message.start', 'message.started', 'message.completed', 'message.complete', 'keepalive', 'heartbeat', 'ping']);

/**
 * Chat turns answered by a real Hermes Agent through its API server (`hermes gateway` with
 * API_SERVER_ENABLED). Feature-detects with `/health` and `/v1/capabilities`; uses the runs API
 * (`POST /v1/runs`, SSE events, approvals, stop) when offered, else streaming chat completions
 * with `X-Hermes-Session-Id`. Web APIs only, so it runs wherever fetch does.
 *
 * The transcript is stored in this project's session store as for the builtin agent; Hermes
 * keeps its own copy in state.db.
 *
 * @example
 * const runtime = new GatewayAgentRuntime({ baseUrl: 'http://127.0.0.1:8642', apiKey: async () => key, hub, logger, now });
 */
export class GatewayAgentRuntime implements AgentRuntime {
  readonly kind = 'gateway';
  readonly #http: GatewayHttp;
  readonly #readTimeoutMs: number;
  #profile: { at: number; profile: GatewayProfile } | null = null;
  #detecting: Promise<GatewayProfile> | null = null;
  #models: { at: number; models: CatalogModel[] } | null = null;

  constructor(private readonly options: GatewayRuntimeOptions) {
    this.#http = new GatewayHttp({ baseUrl: options.baseUrl, apiKey: options.apiKey, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.#readTimeoutMs = options.readTimeoutMs ?? 120_000;
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** Where this runtime's approvals wait for a person. */
  get hub(): InteractionHub {
    return this.options.hub;
  }

  get approvalTimeoutMs(): number {
    return this.options.approvalTimeoutMs ?? 600_000;
  }

  // ---- Feature detection ----------------------------------------------------------------------

  /** The server's profile, asked again after the TTL or on `refresh`; callers share a running check. */
  async profile(refresh = false): Promise<GatewayProfile> {
    const ttl = this.options.capabilitiesTtlMs ?? 60_000;
    const cached = this.#profile;
    if (!refresh && cached && this.options.now() * 1000 - cached.at < ttl) return cached.profile;
    this.#detecting ??= this.#detect().finally(() => (this.#detecting = null));
    return this.#detecting;
  }

  async #detect(): Promise<GatewayProfile> {
    const http = this.#http;
    const health = await http.send('GET', '/health', { timeoutMs: DETECT_TIMEOUT_MS });
    const healthText = await health.text().catch(() => '');
    if (!health.ok) throw await http.failure(health, healthText, 'GET /health');
    let healthBody: Record<string, unknown> | null = null;
    try {
      healthBody = JSON.parse(healthText) as Record<string, unknown>;
    } catch {
      throw malformed(http.baseUrl, `GET /health answered with something that is not JSON: ${healthText.slice(0, 120)}`);
    }
    const caps = await http.send('GET', '/v1/capabilities', { timeoutMs: DETECT_TIMEOUT_MS });
    const capsText = await caps.text().catch(() => '');
    let document: Record<string, unknown> | null = null;
    if (caps.status === 404) document = null; // older Hermes: chat completions only
    else if (!caps.ok) throw await http.failure(caps, capsText, 'GET /v1/capabilities');
    else {
      try {
        document = JSON.parse(capsText) as Record<string, unknown>;
      } catch {
        throw malformed(http.baseUrl, `GET /v1/capabilities answered with something that is not JSON: ${capsText.slice(0, 120)}`);
      }
    }
    const profile = profileFrom(document, healthBody);
    this.#profile = { at: this.options.now() * 1000, profile };
    return profile;
  }

  async check(): Promise<void> {
    // Nothing to check before a turn: a gateway that is down is reported by the turn itself
    // (an `apperror` with a hint), like any other failure of the agent.
  }

  async describe(options: { refresh?: boolean } = {}): Promise<AgentInfo> {
    const base = { kind: this.kind, label: 'Hermes Agent', base_url: this.baseUrl };
    try {
      const p = await this.profile(!!options.refresh);
      return {
        ...base,
        path: p.path,
        reachable: true,
        features: { streaming: true, tool_events: p.toolEvents, reasoning: p.reasoning, approvals: p.path === 'runs' && p.approvals, clarify: false, stop: p.path === 'chat_completions' || p.stop, sessions: p.sessions },
        limitations: limitationsOf(p),
        platform: p.platform,
        version: p.version,
        ...(p.path ? {} : { error: 'This Hermes API server offers neither the runs API nor chat completions.', hint: 'Update Hermes Agent.' }),
      };
    } catch (err) {
      const e = err instanceof ProviderError ? err : null;
      return { ...base, path: null, reachable: false, features: {}, limitations: [], error: e?.message ?? String((err as Error)?.message ?? err), ...(e ? { hint: e.hint } : {}) };
    }
  }

  // ---- Models (GET /api/models) ---------------------------------------------------------------

  /** What the gateway lists at `GET /v1/models`, else the model its capabilities name. */
  async models(options: { refresh?: boolean } = {}): Promise<Catalog> {
    const group = { provider: 'hermes', label: 'Hermes Agent' };
    let profile: GatewayProfile | null = null;
    try {
      profile = await this.profile(!!options.refresh);
      const res = await this.#http.json('GET', '/v1/models', { timeoutMs: DETECT_TIMEOUT_MS });
      const models = parseModelList(res.body) ?? [];
      const at = this.options.now();
      this.#models = { at, models };
      const fallback = profile.model ? [{ id: profile.model, label: profile.model }] : [];
      return {
        active_provider: 'hermes',
        default_model: profile.model ?? models[0]?.id ?? null,
        groups: [{ ...group, models: models.length ? models : fallback, source: 'live' }],
        fetched_at: at,
        stale: false,
      };
    } catch (err) {
      const known = profile?.model ? [{ id: profile.model, label: profile.model }] : (this.#models?.models ?? []);
      return {
        active_provider: 'hermes',
        default_model: profile?.model ?? known[0]?.id ?? null,
        groups: [{ ...group, models: known, source: 'config', error: err instanceof ProviderError ? `${err.message}. ${err.hint}` : String(err) }],
        fetched_at: this.#models?.at ?? null,
        stale: false,
      };
    }
  }

  /** The model to name in a request: the one picked if the gateway offers it, else the gateway's own. */
  #modelFor(picked: string | null, profile: GatewayProfile): string | null {
    const offered = this.#models?.models.map((m) => m.id) ?? [];
    if (picked && (offered.includes(picked) || picked === profile.model)) return picked;
    return profile.model ?? null;
  }

  // ---- Turns ----------------------------------------------------------------------------------

  startTurn(input: TurnInput): AsyncIterable<TurnOutput> {
    const channel = new Channel<TurnOutput>();
    this.#turn(input, (out) => channel.push(out)).then(
      () => channel.end(),
      (err) => channel.fail(err),
    );
    return channel;
  }

  async #turn(input: TurnInput, emit: (out: TurnOutput) => void): Promise<void> {
    input.signal.throwIfAborted();
    let profile: GatewayProfile;
    try {
      profile = await this.profile();
    } catch (err) {
      input.signal.throwIfAborted();
      throw err;
    }
    if (!profile.path) {
      throw new ProviderError('error', 'This Hermes API server offers neither the runs API nor chat completions', 'Update Hermes Agent, or check HERMES_WEBUI_GATEWAY_BASE_URL.');
    }
    const model = this.#modelFor(input.model, profile);
    const turn = new GatewayTurn(input.session.session_id, emit, this.options.now, model);
    let state: GatewaySessionState;
    try {
      state = profile.path === 'runs' ? await this.#runsTurn(input, profile, model, turn, emit) : await this.#chatTurn(input, model, turn, emit);
    } catch (err) {
      // What streamed before the failure is kept (marked partial); the driver adds the notice.
      turn.partial();
      if (!(err instanceof ProviderError) || err.type === 'no_response') this.#profile = null; // ask again next time
      throw err;
    }
    state.synced_messages = input.session.messages.length + turn.emittedMessages;
    emit({ type: 'patch', patch: { hermes_gateway: state } });
    emit({ type: 'turn_done' });
  }

  #sessionState(session: Session): GatewaySessionState | null {
    const s = session.hermes_gateway as GatewaySessionState | undefined;
    return s && typeof s === 'object' && typeof s.path === 'string' && s.for === session.session_id ? s : null;
  }

  // ---- The runs API ---------------------------------------------------------------------------

  async #runsTurn(input: TurnInput, profile: GatewayProfile, model: string | null, turn: GatewayTurn, emit: (out: TurnOutput) => void): Promise<GatewaySessionState> {
    const { session, signal } = input;
    const sid = session.session_id;
    const http = this.#http;
    const prior = this.#sessionState(session);
    const hermesSession = (prior?.path === 'runs' && prior.session_id) || sid;
    // Hermes loads a session's transcript itself only where it keeps sessions (newer builds),
    // and only if it saw everything we have: otherwise the history goes with the run.
    const inSync = profile.sessions && prior?.path === 'runs' && prior.session_id === hermesSession && prior.synced_messages === session.messages.length - 1;
    const key = await http.key();
    const body: Record<string, unknown> = {
      input: lastUserText(session),
      session_id: hermesSession,
      ...(model ? { model } : {}),
      ...(inSync ? {} : { conversation_history: conversationHistory(session) }),
    };
    // Not tied to the cancel signal: a run the server accepted must be stopped, not abandoned.
    const started = await http.json('POST', '/v1/runs', { body, headers: key ? { 'X-Hermes-Session-Key': `webui:${sid}` } : {}, timeoutMs: this.#readTimeoutMs });
    const runId = str(started.body.run_id) ?? str(started.body.id);
    if (!runId) throw malformed(http.baseUrl, `POST /v1/runs answered without a run_id: ${JSON.stringify(started.body).slice(0, 120)}`);
    let effectiveSession = str(started.body.session_id) ?? hermesSession;
    if (signal.aborted) {
      await this.#stop(runId);
      throw signal.reason;
    }

    const approvals = new RunApprovals(this, runId, input, emit);
    const seen = new Set<string>();
    let lastId: string | undefined;
    let reconnects = 0;
    let missedPossible = false;
    try {
      for (;;) {
        const outcome = await this.#readRunEvents(runId, lastId, signal, approvals, turn, seen, (id) => (lastId = id), (s) => (effectiveSession = s));
        if (outcome.type === 'completed') {
          if (!turn.finish({ output: outcome.output, preferOutput: missedPossible, usage: outcome.usage })) throw emptyAnswer();
          for (const w of outcome.warnings) emit({ type: 'event', event: 'warning', data: w });
          break;
        }
        // The stream ended without saying how the run ended: ask the run itself.
        const status = await http.json('GET', `/v1/runs/${encodeURIComponent(runId)}`, { timeoutMs: this.#readTimeoutMs, signal });
        const s = str(status.body.status) ?? 'unknown';
        if (s === 'completed') {
          if (!turn.finish({ output: str(status.body.output), preferOutput: true, usage: usageOf(status.body.usage) })) throw emptyAnswer();
          break;
        }
        if (s === 'failed') throw runFailed(str(status.body.error) ?? 'no reason given');
        if (s === 'cancelled') throw cancelledElsewhere();
        if (reconnects >= MAX_RECONNECTS) {
          throw new ProviderError('no_response', `Hermes Agent's event stream for run ${runId} kept ending before the run finished (it is "${s}")`, 'The connection to the gateway is unreliable; try again. The run may still finish in Hermes (see `hermes sessions`).');
        }
        reconnects++;
        // Without event ids the server cannot replay what was missed: the final answer then comes from the run's output.
        if (!lastId) missedPossible = true;
      }
    } catch (err) {
      if (signal.aborted) {
        await this.#stop(runId);
        throw signal.reason;
      }
      // A run Hermes did not end itself is stopped: nobody listens to it any more.
      if (!(err instanceof RunEnded)) void this.#stop(runId);
      if (err instanceof SilenceError) throw silent(http.baseUrl, err.ms, 'waiting for the run to continue');
      throw err;
    } finally {
      approvals.close();
    }
    return { path: 'runs', for: sid, session_id: effectiveSession, synced_messages: 0 };
  }

  /** Reads one connection's worth of run events; returns how the run ended, or that the stream ended first. */
  async #readRunEvents(
    runId: string,
    lastId: string | undefined,
    signal: AbortSignal,
    approvals: RunApprovals,
    turn: GatewayTurn,
    seen: Set<string>,
    onId: (id: string) => void,
    onSession: (id: string) => void,
  ): Promise<{ type: 'completed'; output: string | undefined; usage: { input: number; output: number } | null; warnings: Array<Record<string, unknown>> } | { type: 'ended' }> {
    const http = this.#http;
    const path = `/v1/runs/${encodeURIComponent(runId)}/events`;
    const response = await http.send('GET', path, { signal, timeoutMs: this.#readTimeoutMs, accept: 'text/event-stream', headers: lastId ? { 'Last-Event-ID': lastId } : {} });
    if (!response.ok) throw await http.failure(response, null, `GET ${path}`);
    if (!response.body) throw malformed(http.baseUrl, `GET ${path} had no body`);
    const body = withSilenceLimit(response.body, this.#readTimeoutMs, () => approvals.waiting > 0);
    for await (const record of parseSse(body, signal, { ids: true })) {
      if (record.id !== undefined) {
        if (seen.has(record.id)) continue; // replayed after a reconnect
        seen.add(record.id);
        onId(record.id);
      }
      const ev = parseEvent(http.baseUrl, record);
      if (!ev) continue;
      const name = ev.name;
      const d = ev.data;
      const session = str(d.session_id);
      if (session) onSession(session);
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
          turn.toolStarted({ id: toolCallId(d), name: str(d.tool) ?? str(d.name) ?? 'tool', preview: str(d.preview) ?? str(d.label) ?? str(d.args_text), args: objectOr(d.args) });
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
          const warnings: Array<Record<string, unknown>> = [];
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
            throw new ProviderError('error', `Hermes Agent ended the run with an event this WebUI does not know: "${name}"`, 'Update Hermes WebUI (or check that Hermes Agent and this WebUI are compatible versions); Hermes may still have finished the run (see `hermes sessions`).', undefined, JSON.stringify(d).slice(0, 1200));
          }
          this.options.logger.info({ msg: 'gateway: skipped an unknown run event', event: name });
      }
    }
    return { type: 'ended' };
  }

  /** Asks Hermes to stop a run; bounded, and a failure is only logged (the turn is over here either way). */
  async #stop(runId: string): Promise<void> {
    try {
      const res = await this.#http.send('POST', `/v1/runs/${encodeURIComponent(runId)}/stop`, { body: {}, timeoutMs: STOP_TIMEOUT_MS });
      await res.body?.cancel().catch(() => {});
      if (!res.ok && res.status !== 404 && res.status !== 409) this.options.logger.error({ msg: 'gateway: stop refused', run_id: runId, status: res.status });
    } catch (err) {
      this.options.logger.error({ msg: 'gateway: stop failed', run_id: runId, error: String((err as Error)?.message ?? err) });
    }
  }

  /** Answers one of Hermes' approval prompts (used by RunApprovals). */
  async answerApproval(runId: string, choice: ApprovalChoice, requestId: string | undefined): Promise<void> {
    const body = { choice, ...(requestId ? { request_id: requestId } : {}) };
    await this.#http.json('POST', `/v1/runs/${encodeURIComponent(runId)}/approval`, { body, timeoutMs: DETECT_TIMEOUT_MS * 2 });
  }

  // ---- Chat completions (the fallback) --------------------------------------------------------

  async #chatTurn(input: TurnInput, model: string | null, turn: GatewayTurn, emit: (out: TurnOutput) => void): Promise<GatewaySessionState> {
    const { session, signal } = input;
    const http = this.#http;
    const prior = this.#sessionState(session);
    let hermesSession = prior?.path === 'chat_completions' ? prior.session_id : null;
    const key = await http.key();
    const messages = [...conversationHistory(session), { role: 'user', content: lastUserText(session) }];
    const body = { ...(model ? { model } : {}), messages, stream: true };
    const send = (withSession: string | null) =>
      http.send('POST', '/v1/chat/completions', {
        body,
        signal,
        timeoutMs: this.#readTimeoutMs,
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
        for await (const record of parseSse(withSilenceLimit(response.body, this.#readTimeoutMs), signal)) {
          if (record.event) {
            this.#chatSideEvent(record, turn, emit);
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
        throw new ProviderError('no_response', `Hermes Agent stopped mid-answer (${String((err as Error)?.message ?? err)})`, 'The connection to the gateway dropped before the answer finished; try again.');
      }
      if (!done && !finished) throw new ProviderError('no_response', 'Hermes Agent stopped mid-answer (the stream ended early)', 'The connection to the gateway dropped before the answer finished; try again.');
    }

    // Hermes reports the session's running totals: only the growth since last time is this turn's.
    const previous = prior?.path === 'chat_completions' && prior.session_id === hermesSession ? prior.usage_totals : undefined;
    const usage = totals && previous && totals.input >= previous.input && totals.output >= previous.output ? { input: totals.input - previous.input, output: totals.output - previous.output } : totals;
    if (!turn.finish({ usage })) throw emptyAnswer();
    return { path: 'chat_completions', for: session.session_id, session_id: hermesSession, synced_messages: 0, ...(totals ? { usage_totals: totals } : {}) };
  }

  /** Named events on the chat-completions stream: tool progress, reasoning, approvals it cannot answer. */
  #chatSideEvent(record: SseRecord, turn: GatewayTurn, emit: (out: TurnOutput) => void) {
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
        emit({
          type: 'event',
          event: 'warning',
          data: { type: 'approval_unavailable', message: `Hermes asked for approval${str(d.command) ? ` of \`${str(d.command)}\`` : ''}, which cannot be answered over chat completions; it applies its own approvals setting.` },
        });
        break;
      default:
        break;
    }
  }
}

/**
 * Approvals of one run: each `approval.request` is queued in the InteractionHub (so the
 * approval card and POST /api/approval/respond work unchanged) and the answer is relayed to
 * `POST /v1/runs/{id}/approval`. While one waits, silence on the stream is expected.
 */
class RunApprovals {
  waiting = 0;
  #outstanding: Array<{ withdraw: AbortController; requestId: string | undefined; answered: boolean }> = [];
  /** Answers posted whose `approval.responded` has not come back yet. */
  #unacknowledged = 0;
  #closed = new AbortController();

  constructor(
    private readonly runtime: GatewayAgentRuntime,
    private readonly runId: string,
    private readonly input: TurnInput,
    private readonly emit: (out: TurnOutput) => void,
  ) {}

  request(d: Record<string, unknown>) {
    const hub = this.runtime.hub;
    const sid = this.input.session.session_id;
    const patternKey = str(d.pattern_key) ?? '';
    const patternKeys = Array.isArray(d.pattern_keys) ? d.pattern_keys.filter((k): k is string => typeof k === 'string') : patternKey ? [patternKey] : [];
    const request: ApprovalRequest = {
      command: str(d.command) ?? str(d.preview) ?? '',
      description: str(d.description) ?? str(d.reason) ?? 'Hermes asks before running this',
      pattern_key: patternKey,
      pattern_keys: patternKeys,
      tool: str(d.tool) ?? 'terminal',
    };
    const withdraw = new AbortController();
    const entry = { withdraw, requestId: str(d.request_id) ?? str(d.approval_id), answered: false };
    this.#outstanding.push(entry);
    const signal = anySignal([this.input.signal, withdraw.signal, this.#closed.signal]);
    const { pending, answer } = hub.requestApproval(sid, this.input.streamId, request, this.runtime.approvalTimeoutMs, signal);
    const offered = Array.isArray(d.choices) ? CHOICES.filter((c) => (d.choices as unknown[]).includes(c)) : [];
    if (offered.length) pending.choices = offered;
    this.waiting++;
    this.emit({ type: 'event', event: 'approval', data: { ...pending, gateway_run_id: this.runId, pending_count: hub.pendingApproval(sid).pending_count } });
    answer
      .then(async (choice) => {
        entry.answered = true;
        this.#unacknowledged++;
        try {
          await this.runtime.answerApproval(this.runId, choice, entry.requestId);
        } catch (err) {
          this.#unacknowledged--;
          const e = err instanceof ProviderError ? err : null;
          // 409: Hermes stopped waiting (its own timeout) — the run goes on without this answer.
          if (!this.#closed.signal.aborted) {
            this.emit({ type: 'event', event: 'warning', data: { type: 'approval_not_delivered', message: `Hermes did not take the answer "${choice}": ${e?.message ?? String(err)}` } });
          }
        }
      })
      .catch(() => {
        // Withdrawn (Hermes decided without us), cancelled, or the run ended.
      })
      .finally(() => {
        this.waiting--;
        this.#outstanding = this.#outstanding.filter((o) => o !== entry);
      });
  }

  /** Hermes resolved an approval: ours (acknowledged), or one it decided itself (withdrawn here). */
  responded(d: Record<string, unknown>) {
    const requestId = str(d.request_id) ?? str(d.approval_id);
    const count = Math.max(1, num(d.resolved) ?? 1);
    for (let i = 0; i < count; i++) {
      if (requestId) {
        const entry = this.#outstanding.find((o) => o.requestId === requestId && !o.answered);
        if (entry) entry.withdraw.abort();
        else if (this.#unacknowledged > 0) this.#unacknowledged--;
        continue;
      }
      if (this.#unacknowledged > 0) {
        this.#unacknowledged--;
        continue;
      }
      this.#outstanding.find((o) => !o.answered)?.withdraw.abort();
    }
  }

  close() {
    this.#closed.abort();
  }
}

// ---- Helpers ----------------------------------------------------------------------------------

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

function usageOf(raw: unknown): { input: number; output: number } | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as Record<string, unknown>;
  const input = num(u.input_tokens) ?? num(u.prompt_tokens);
  const output = num(u.output_tokens) ?? num(u.completion_tokens);
  if (input === undefined && output === undefined) return null;
  return { input: input ?? 0, output: output ?? 0 };
}

function chatUsage(raw: unknown): { input: number; output: number } | null {
  return usageOf(raw);
}

/** The run ended on Hermes' side (failed, cancelled): nothing left to stop. */
class RunEnded extends ProviderError {}

function runFailed(error: string): ProviderError {
  return new RunEnded(
    'error',
    `Hermes Agent could not finish: ${error}`,
    "The failure happened inside Hermes (its model provider or a tool); $HERMES_HOME/logs/agent.log has the details. Check Hermes' model settings (`hermes model`) and try again.",
    undefined,
    error.slice(0, 1200),
  );
}

function streamError(raw: unknown): ProviderError {
  const e = (typeof raw === 'object' && raw ? raw : { message: String(raw) }) as Record<string, unknown>;
  return runFailed(str(e.message) ?? JSON.stringify(raw).slice(0, 200));
}

function cancelledElsewhere(): ProviderError {
  return new RunEnded('interrupted', 'Hermes Agent cancelled the run', 'It was stopped on the Hermes side (another client, or the gateway restarting). Send your message again to retry.');
}

function emptyAnswer(): ProviderError {
  return new ProviderError('no_response', 'Hermes Agent finished without an answer', 'Try again; if it keeps happening, check the gateway log ($HERMES_HOME/logs/gateway.log).');
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('\n');
  return '';
}

/** The message this turn answers (the transcript ends with it). */
function lastUserText(session: Session): string {
  const last = [...session.messages].reverse().find((m) => m.role === 'user');
  return last ? textOf(last.content) : '';
}

/**
 * The conversation before this turn's message as Hermes' `conversation_history` takes it:
 * user and assistant text only (tool calls stay with whoever ran them), notices dropped, an
 * earlier compression's summary in place of what it summarised, one assistant entry per reply.
 */
export function conversationHistory(session: Session): Array<{ role: 'user' | 'assistant'; content: string }> {
  const messages: Message[] = session.messages.slice(0, Math.max(0, session.messages.length - 1));
  const anchor = session.compression_anchor_visible_idx;
  const summary = session.compression_anchor_summary;
  const compression = typeof anchor === 'number' && typeof summary === 'string' && summary ? { anchor, summary } : null;
  const out: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const m of modelHistory(messages, compression)) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const text = textOf(m.content);
    if (!text.trim()) continue;
    const prev = out.at(-1);
    if (prev && prev.role === m.role && m.role === 'assistant') prev.content = `${prev.content}\n\n${text}`;
    else out.push({ role: m.role, content: text });
  }
  return out.slice(-HISTORY_LIMIT);
}
