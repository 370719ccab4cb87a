import type { Message, Session } from '../shared/session.js';
import type { SessionPatch } from '../ports/session-store.js';
import type { Catalog } from './catalog/catalog.js';
import type { AgentSetup } from './setup.js';
import type { RunEventBody, RunEventName, RunEventPayloads } from '../shared/run-events.js';
import type { HermesHome } from '../ports/hermes-home.js';
import type { ToolCall } from './messages.js';
import type { GatewayResume } from './gateway/reattach.js';

export interface TurnInput {
  /** The session as stored, ending with the user message this turn answers. */
  session: Session;
  streamId: string;
  /** A model picked for this turn (else the configured default). */
  model: string | null;
  workspace: string;
  signal: AbortSignal;
  /** The session's profile home (its config, .env, memories, skills); absent: the runtime's default home. */
  home?: HermesHome;
  /** Nobody watches this turn (`cron`: a scheduled task): approvals follow config, clarify answers at once. */
  unattended?: 'cron';
  /**
   * The consumer handles `checkpoint` outputs (the turn driver does): the builtin loop then
   * waits for each before any tool runs, after each result, and (null) once a step is stored.
   */
  checkpoints?: boolean;
  /** This turn carries on after a restart (src/runs/run-resume.ts built it). */
  resume?: TurnResume;
}

/** A model answer that asked for tools, and the results finished so far. */
export interface TurnStep {
  assistant: Message;
  results: Message[];
}

/** What a resumed turn starts from, beyond the stored transcript. */
export interface TurnResume {
  /** Counts this turn's resumes from 1; the messages its model calls write carry it as `_resume_attempt`. */
  attempt: number;
  /** The step cut short, when some of its calls run again (they waited for an approval or a clarify answer). */
  step: (TurnStep & { rerun: ToolCall[] }) | null;
  /** The transcript ends with the answer cut short (`_partial`): the model is asked to continue it. */
  partial: boolean;
  /** A gateway turn: the Hermes run to reattach to, and what was relayed of it (src/agent/gateway/reattach.ts). */
  gateway?: GatewayResume;
}

export interface CompressInput {
  session: Session;
  focusTopic: string | null;
  signal: AbortSignal;
  home?: HermesHome;
}

/** POST /api/session/title/regenerate: a title from the first exchange, or the latest with `preferLatest`. */
export interface TitleInput {
  session: Session;
  preferLatest: boolean;
  signal: AbortSignal;
  home?: HermesHome;
}

/** One request with no tools and no transcript (a commit message from a staged diff), in the session's model. */
export interface OneShotInput {
  session: Session;
  system: string;
  user: string;
  maxTokens: number;
  signal: AbortSignal;
  home?: HermesHome;
}

export interface CompressOutput {
  patch: SessionPatch;
  /** How many messages the summary replaced. */
  summarised: number;
  summary: string;
  tokens: { input: number; output: number; cost: number | null };
  /** Why the deterministic stand-in summary was used, when it was. */
  failure?: string;
}

/** A steer for the turn running as `streamId` (POST /api/chat/steer). */
export interface SteerInput {
  sessionId: string;
  streamId: string;
  text: string;
}

/**
 * Why a steer was not taken, in the incumbent's words: `not_running` (no turn takes text now),
 * `no_cached_agent` (the agent does not know this turn), `gateway_steer_queued` (the gateway
 * cannot steer: the caller queues the text), `steer_error` (the agent failed to take it).
 */
export type SteerFallback =
  | 'no_cached_agent'
  | 'agent_lacks_steer'
  | 'session_not_found'
  | 'not_running'
  | 'stream_dead'
  | 'steer_error'
  | 'gateway_steer_queued';

export type SteerOutcome = { accepted: true } | { accepted: false; fallback: SteerFallback };

/**
 * What a turn produces, in order. `event`s go to the stream; the rest tell the run's driver
 * what to store. The driver is the only writer of the session, so a runtime never races it.
 */
export type TurnOutput =
  /** A run event of the contract (src/shared/run-events.ts): the name types the data. */
  | ({ type: 'event' } & RunEventBody)
  /** Completed messages to append to the transcript (assistant replies, tool results). */
  | { type: 'messages'; messages: Message[] }
  /**
   * Make the step in flight durable once everything output before it is stored (null: nothing
   * in flight), then call `written` (with the error when it could not be). Only when asked (`checkpoints`).
   */
  | {
      type: 'checkpoint';
      step: TurnStep | null;
      /** A gateway turn's run and how far its events were handled (the checkpoint's `gateway`, `seq` added there). */
      gateway?: { run_id: string; event_id?: string };
      written: (err?: unknown) => void;
    }
  | { type: 'patch'; patch: SessionPatch }
  /**
   * Token counts of one model call, added to the session's totals. `input_tokens` is the whole
   * prompt; the cache counts say how much of it the provider read from / wrote to its cache.
   */
  | {
      type: 'usage';
      input_tokens: number;
      output_tokens: number;
      cost: number | null;
      prompt_tokens: number;
      cache_read_tokens?: number;
      cache_write_tokens?: number;
    }
  /** The transcript is complete; the driver stores it and emits `done`. Outputs after it are extras (the title). */
  | { type: 'turn_done' };

/** One run event as a TurnOutput; the compiler checks `data` against the event's schema type. */
export function runEvent<K extends RunEventName>(event: K, data: RunEventPayloads[K]): TurnOutput {
  // K is a single name, so this is one member of the union (TypeScript cannot correlate them).
  return { type: 'event', event, data } as TurnOutput;
}

/** What a runtime hands run events to (a turn's Channel push). */
export type EmitEvent = <K extends RunEventName>(event: K, data: RunEventPayloads[K]) => void;

/**
 * The agent behind a chat turn: the builtin TypeScript loop, or an adapter for a Hermes gateway.
 * `startTurn` yields until the turn is over and throws on failure (a ProviderError for model
 * trouble, the signal's reason when cancelled).
 */
export interface AgentRuntime {
  readonly kind: string;
  /** Throws a BadRequest saying how to fix it when no usable model is configured. */
  check(model: string | null, home?: HermesHome): Promise<void>;
  startTurn(input: TurnInput): AsyncIterable<TurnOutput>;
  /** The models a person can pick from (GET /api/models), grouped by provider; absent where the agent cannot say. */
  models?(options?: { refresh?: boolean; home?: HermesHome }): Promise<Catalog>;
  /** Configuring the agent from the browser (first-run wizard, Settings → Providers); absent when it is configured elsewhere. */
  readonly setup?: AgentSetup;
  /** The same for one profile's home (Settings → Providers edits the browser's profile); absent: `setup` serves all. */
  setupFor?(home: HermesHome): AgentSetup | undefined;
  /** Makes `model` the default for new turns (config.yaml's model.default for the builtin agent). */
  setDefaultModel?(model: string, home?: HermesHome): Promise<void>;
  /**
   * Manual compression (POST /api/session/compress): summarises everything before the last
   * exchange. Returns the session fields to store (the anchor and its summary), or null when
   * there is nothing to summarise; absent where the agent cannot compress.
   */
  compress?(input: CompressInput): Promise<CompressOutput | null>;
  /** Whether `compress` will work now (a runtime that switches backends says per call); absent: it will. */
  canCompress?(): Promise<boolean>;
  /** A title written by the model on request; null when it gave nothing usable; absent where the agent cannot. */
  generateTitle?(input: TitleInput): Promise<string | null>;
  /** Whether `generateTitle` will work now (a runtime that switches backends says per call); absent: it will. */
  canGenerateTitle?(): Promise<boolean>;
  /** The model's plain answer to one prompt (POST /api/git/commit-message); absent where the agent has no such call (the gateway). */
  oneShot?(input: OneShotInput): Promise<string>;
  /** Whether `oneShot` will work now (a runtime that switches backends says per call); absent: it will. */
  canOneShot?(): Promise<boolean>;
  /**
   * Steer: the text joins the running turn at its next tool boundary (after the tool batch in
   * flight, before the next model call), never interrupting it; absent where no turn can take it.
   */
  steer?(input: SteerInput): Promise<SteerOutcome>;
  /** Which agent answers and how (GET /api/agent); absent: the runtime's `kind` says enough. */
  describe?(options?: { refresh?: boolean }): Promise<AgentInfo>;
}

/**
 * GET /api/agent: who answers chat turns, over which path, and what that path cannot do, so
 * the UI can say it quietly (e.g. "Hermes Agent · runs API", "no clarifying questions").
 */
export interface AgentInfo {
  /** The runtime's kind: `builtin` or `gateway`. */
  kind: string;
  /** A short name for people: "Built-in agent", "Hermes Agent". */
  label: string;
  /** How turns travel: `builtin`, `runs` (Hermes' runs API), `chat_completions` (the fallback); null while unreachable. */
  path: string | null;
  /** Where the agent is (the gateway's base URL), when it is elsewhere. */
  base_url?: string;
  reachable: boolean;
  /** What the path supports: streaming, tool_events, reasoning, approvals, clarify, stop, sessions. */
  features: Record<string, boolean>;
  /** What it cannot do, one short sentence each. */
  limitations: string[];
  /** Why it is unreachable or unusable, with what to do about it. */
  error?: string;
  hint?: string;
  /** The gateway's own name and version, when it says. */
  platform?: string | null;
  version?: string | null;
}

export type { Catalog, CatalogGroup, CatalogModel } from './catalog/catalog.js';
