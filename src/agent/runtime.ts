import type { Message, Session } from '../shared/session.js';
import type { SessionPatch } from '../ports/session-store.js';
import type { Catalog } from './catalog/catalog.js';
import type { AgentSetup } from './setup.js';

export interface TurnInput {
  /** The session as stored, ending with the user message this turn answers. */
  session: Session;
  streamId: string;
  /** A model picked for this turn (else the configured default). */
  model: string | null;
  workspace: string;
  signal: AbortSignal;
}

/**
 * What a turn produces, in order. `event`s go to the stream; the rest tell the run's driver
 * what to store. The driver is the only writer of the session, so a runtime never races it.
 */
export type TurnOutput =
  | { type: 'event'; event: string; data: Record<string, unknown> }
  /** Completed messages to append to the transcript (assistant replies, tool results). */
  | { type: 'messages'; messages: Message[] }
  | { type: 'patch'; patch: SessionPatch }
  /** Token counts of one model call, added to the session's totals. */
  | { type: 'usage'; input_tokens: number; output_tokens: number; cost: number | null; prompt_tokens: number }
  /** The transcript is complete; the driver stores it and emits `done`. Outputs after it are extras (the title). */
  | { type: 'turn_done' };

/**
 * The agent behind a chat turn: the builtin TypeScript loop, or an adapter for a Hermes gateway.
 * `startTurn` yields until the turn is over and throws on failure (a ProviderError for model
 * trouble, the signal's reason when cancelled).
 */
export interface AgentRuntime {
  readonly kind: string;
  /** Throws a BadRequest saying how to fix it when no usable model is configured. */
  check(model: string | null): Promise<void>;
  startTurn(input: TurnInput): AsyncIterable<TurnOutput>;
  /** The models a person can pick from (GET /api/models), grouped by provider; absent where the agent cannot say. */
  models?(options?: { refresh?: boolean }): Promise<Catalog>;
  /** Configuring the agent from the browser (first-run wizard, Settings → Providers); absent when it is configured elsewhere. */
  readonly setup?: AgentSetup;
  /** Makes `model` the default for new turns (config.yaml's model.default for the builtin agent). */
  setDefaultModel?(model: string): Promise<void>;
}

export type { Catalog, CatalogGroup, CatalogModel } from './catalog/catalog.js';
