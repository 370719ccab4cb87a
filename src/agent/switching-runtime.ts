import { BadRequest, NotAvailable } from '../ports/errors.js';
import type {
  AgentInfo,
  AgentRuntime,
  Catalog,
  CompressInput,
  CompressOutput,
  OneShotInput,
  SteerInput,
  SteerOutcome,
  TitleInput,
  TurnInput,
  TurnOutput,
} from './runtime.js';

/** The gateway's API has no compress call: Hermes compresses its own context there. */
export const NO_MANUAL_COMPRESSION = 'Manual compression needs the built-in agent; the Hermes gateway compresses its context on its own.';
/** The gateway runs whole agent turns only; a bare prompt-and-answer has no call there. */
export const NO_ONE_SHOT = 'Commit message suggestions need the built-in agent; the Hermes gateway has no call for a one-off prompt.';
/** Titles come from a model call of our own; through the gateway there is none to make. */
export const NO_TITLE_GENERATION = 'Title generation needs the built-in agent; the Hermes gateway has no call for it.';
import type { HermesHome } from '../ports/hermes-home.js';
import type { AgentSetup } from './setup.js';
import type { BackendChoice } from './backend-choice.js';

const BUILTIN_INFO: AgentInfo = {
  kind: 'builtin',
  label: 'Built-in agent',
  path: 'builtin',
  reachable: true,
  features: { streaming: true, tool_events: true, reasoning: true, approvals: true, clarify: true, stop: true, sessions: true },
  limitations: [],
};

/**
 * The runtime behind the app when the backend is a choice (Settings, the first-run wizard) rather
 * than fixed by HERMES_WEBUI_CHAT_BACKEND: each call asks `choose()` (the AgentBackend's current
 * choice) and hands over to the builtin agent or to the gateway runtime for that base URL (one
 * per URL, kept). A turn keeps the runtime it started with. Setup always configures the builtin
 * agent's files; choosing the gateway is a setting.
 */
export class SwitchingRuntime implements AgentRuntime {
  #gateways = new Map<string, AgentRuntime>();
  #last: AgentRuntime;
  /** Which runtime each running turn began with: a steer goes there, whatever the choice is now. */
  #turns = new Map<string, AgentRuntime>();

  constructor(
    private readonly builtin: AgentRuntime,
    private readonly gateway: (baseUrl: string, apiKey?: string) => AgentRuntime,
    private readonly choose: () => Promise<BackendChoice>,
  ) {
    this.#last = builtin;
  }

  /** The kind of the runtime the last call used. */
  get kind(): string {
    return this.#last.kind;
  }

  get setup(): AgentSetup | undefined {
    return this.builtin.setup;
  }

  setupFor(home: HermesHome): AgentSetup | undefined {
    return this.builtin.setupFor?.(home) ?? this.builtin.setup;
  }

  async current(): Promise<AgentRuntime> {
    const choice = await this.choose();
    if (choice.backend === 'builtin') return (this.#last = this.builtin);
    let runtime = this.#gateways.get(choice.gatewayBaseUrl);
    if (!runtime) this.#gateways.set(choice.gatewayBaseUrl, (runtime = this.gateway(choice.gatewayBaseUrl)));
    return (this.#last = runtime);
  }

  async check(model: string | null, home?: HermesHome): Promise<void> {
    await (await this.current()).check(model, home);
  }

  async *startTurn(input: TurnInput): AsyncIterable<TurnOutput> {
    const runtime = await this.current();
    this.#turns.set(input.streamId, runtime);
    try {
      yield* runtime.startTurn(input);
    } finally {
      this.#turns.delete(input.streamId);
    }
  }

  async steer(input: SteerInput): Promise<SteerOutcome> {
    const runtime = this.#turns.get(input.streamId);
    if (!runtime) return { accepted: false, fallback: 'not_running' };
    if (!runtime.steer) return { accepted: false, fallback: 'agent_lacks_steer' };
    return runtime.steer(input);
  }

  async models(options?: { refresh?: boolean; home?: HermesHome }): Promise<Catalog> {
    const runtime = await this.current();
    if (runtime.models) return runtime.models(options);
    return { active_provider: null, default_model: null, groups: [], fetched_at: null, stale: false };
  }

  async setDefaultModel(model: string, home?: HermesHome): Promise<void> {
    const runtime = await this.current();
    if (!runtime.setDefaultModel) throw new Error('This agent cannot change its default model');
    await runtime.setDefaultModel(model, home);
  }

  async canCompress(): Promise<boolean> {
    return !!(await this.current()).compress;
  }

  async compress(input: CompressInput): Promise<CompressOutput | null> {
    const runtime = await this.current();
    if (!runtime.compress) throw new BadRequest(NO_MANUAL_COMPRESSION);
    return runtime.compress(input);
  }

  async canGenerateTitle(): Promise<boolean> {
    return !!(await this.current()).generateTitle;
  }

  async generateTitle(input: TitleInput): Promise<string | null> {
    const runtime = await this.current();
    if (!runtime.generateTitle) throw new BadRequest(NO_TITLE_GENERATION);
    return runtime.generateTitle(input);
  }

  async canOneShot(): Promise<boolean> {
    return !!(await this.current()).oneShot;
  }

  async oneShot(input: OneShotInput): Promise<string> {
    const runtime = await this.current();
    if (!runtime.oneShot) throw new NotAvailable(NO_ONE_SHOT);
    return runtime.oneShot(input);
  }

  async describe(options?: { refresh?: boolean }): Promise<AgentInfo> {
    const runtime = await this.current();
    return runtime.describe ? runtime.describe(options) : BUILTIN_INFO;
  }
}
