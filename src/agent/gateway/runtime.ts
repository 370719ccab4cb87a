import type { Logger } from '../../ports/platform.js';
import type { InteractionHub } from '../../runs/interactions.js';
import { Channel } from '../channel.js';
import { parseModelList, type CatalogModel } from '../catalog/probe.js';
import type { Catalog } from '../catalog/catalog.js';
import { ProviderError } from '../providers/types.js';
import { failureHint } from '../../shared/server-texts-en.js';
import type { ApprovalChoice } from '../tools/types.js';
import type { AgentInfo, AgentRuntime, SteerInput, SteerOutcome, TurnInput, TurnOutput } from '../runtime.js';
import { limitationsOf, profileFrom, type GatewayProfile } from './capabilities.js';
import { chatCompletionsTurn } from './chat-completions-turn.js';
import { DETECT_TIMEOUT_MS, GatewayHttp, malformed } from './http.js';
import { checkpointed, runsTurn, type RunCursor, type RunsTurnDeps } from './runs-turn.js';
import { reattachTurn } from './reattach.js';
import type { GatewaySessionState } from './session-state.js';
import { GatewayTurn } from './turn-state.js';
import { steerRun } from './steer.js';
import type { AgentConfigSource } from '../config-source.js';
import { NO_PREFILL, turnPrefill, type TurnPrefillSource } from '../prefill-turn.js';

// Kept importable from here, where it lived before the turn code moved to its own modules.
export { conversationHistory } from './session-state.js';

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
  /** Browser-turn prefill (src/agent/prefill-turn.ts), sent with each new turn; `config` is the default profile's config.yaml. */
  prefill?: TurnPrefillSource & { config: AgentConfigSource };
}

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
  /** What the turn modules (runs-turn.ts, chat-completions-turn.ts) use of this runtime. */
  readonly #deps: RunsTurnDeps;
  /** The Hermes run behind each running turn (runs path), by our stream id: where a steer goes. */
  readonly #runs = new Map<string, string>();

  constructor(private readonly options: GatewayRuntimeOptions) {
    this.#http = new GatewayHttp({ baseUrl: options.baseUrl, apiKey: options.apiKey, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.#readTimeoutMs = options.readTimeoutMs ?? 120_000;
    this.#deps = { http: this.#http, readTimeoutMs: this.#readTimeoutMs, logger: options.logger, approvals: this, runs: this.#runs };
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
    if (caps.status === 404)
      document = null; // older Hermes: chat completions only
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
        features: {
          streaming: true,
          tool_events: p.toolEvents,
          reasoning: p.reasoning,
          approvals: p.path === 'runs' && p.approvals,
          clarify: false,
          stop: p.path === 'chat_completions' || p.stop,
          steer: p.path === 'runs' && p.steer,
          sessions: p.sessions,
        },
        limitations: limitationsOf(p),
        platform: p.platform,
        version: p.version,
        ...(p.path ? {} : { error: 'This Hermes API server offers neither the runs API nor chat completions.', hint: 'Update Hermes Agent.' }),
      };
    } catch (err) {
      const e = err instanceof ProviderError ? err : null;
      return {
        ...base,
        path: null,
        reachable: false,
        features: {},
        limitations: [],
        error: e?.message ?? String((err as Error)?.message ?? err),
        ...(e ? { hint: e.hint } : {}),
      };
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
      throw new ProviderError('error', 'This Hermes API server offers neither the runs API nor chat completions', failureHint('gateway_no_api', {}));
    }
    const model = this.#modelFor(input.model, profile);
    const reattach = input.resume?.gateway;
    const cursor: RunCursor = { runId: null, eventId: undefined };
    const logger = this.options.logger;
    const turn = new GatewayTurn(input.session.session_id, emit, this.options.now, model, {
      ...(input.resume ? { marks: { _resume_attempt: input.resume.attempt } } : {}),
      // Each finished step names the run and how far its events went: a restart reattaches from there.
      ...(input.checkpoints ? { checkpoint: (step) => void (cursor.runId && checkpointed(emit, step, cursor, logger).catch(() => {})) } : {}),
    });
    // A new browser turn's prefill, sent the way the incumbent sends it (see runsTurn / chatCompletionsTurn).
    const source = this.options.prefill;
    const prefill =
      source && !reattach && input.unattended !== 'cron'
        ? await turnPrefill(source, input.home?.config ?? source.config, null, { sessionId: input.session.session_id, logger, emit })
        : NO_PREFILL;
    let state: GatewaySessionState;
    try {
      state = reattach
        ? await reattachTurn(this.#deps, input, reattach, turn, emit, cursor)
        : profile.path === 'runs'
          ? await runsTurn(this.#deps, input, profile, model, turn, emit, cursor, prefill)
          : await chatCompletionsTurn(this.#deps, input, model, turn, emit, prefill);
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

  /** Steer over Hermes' runs API when it offers it; otherwise the caller queues the text (`gateway_steer_queued`). */
  async steer(input: SteerInput): Promise<SteerOutcome> {
    const runId = this.#runs.get(input.streamId);
    const profile = runId ? await this.profile().catch(() => null) : null;
    if (!runId || !profile?.steer) return { accepted: false, fallback: 'gateway_steer_queued' };
    return steerRun(this.#http, runId, input.text, this.options.logger);
  }

  /** Answers one of Hermes' approval prompts (used by RunApprovals). */
  async answerApproval(runId: string, choice: ApprovalChoice, requestId: string | undefined): Promise<void> {
    const body = { choice, ...(requestId ? { request_id: requestId } : {}) };
    await this.#http.json('POST', `/v1/runs/${encodeURIComponent(runId)}/approval`, { body, timeoutMs: DETECT_TIMEOUT_MS * 2 });
  }
}
