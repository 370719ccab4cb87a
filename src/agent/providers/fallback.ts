import type { AgentConfig } from '../config.js';
import type { FallbackProviderEntry } from '../config-routing.js';
import { ProviderConfigError, resolveProvider, type ResolvedProvider } from './resolve.js';
import { ProviderError } from './types.js';

/**
 * `fallback_providers` (Hermes' primary-model fallback): when the turn's provider fails before
 * it has streamed anything, with a failure another provider could fix (rate limit or server
 * error once its retries are spent, a rejected key, an unknown model, a dropped or unreadable
 * answer), the next entry is asked, in order. Turn-scoped as in Hermes: the rest of the turn
 * stays on the provider that answered, and the next turn starts on the primary again.
 */
export interface FallbackRoute extends ResolvedProvider {
  /** `provider:model`, for the notice. */
  label: string;
}

export interface FallbackSwitch {
  from: string;
  to: string;
  reason: string;
}

export class FallbackChain {
  #index = 0;
  constructor(
    readonly routes: readonly FallbackRoute[],
    private readonly onSwitch?: (change: FallbackSwitch) => void,
  ) {
    if (!routes.length) throw new Error('a fallback chain needs its primary');
  }

  get current(): FallbackRoute {
    return this.routes[this.#index]!;
  }

  /** Moves to the next route after `err`; false when the failure stands (none left, or not one a fallback fixes). */
  advance(err: unknown): boolean {
    if (this.#index + 1 >= this.routes.length || !fallbackWorthy(err)) return false;
    const from = this.current.label;
    this.#index++;
    this.onSwitch?.({ from, to: this.current.label, reason: (err as Error).message });
    return true;
  }
}

/** 401/403/404/408/429/5xx, an unknown model, and failures without a status (transport, malformed answer); not a 400. */
export function fallbackWorthy(err: unknown): boolean {
  if (!(err instanceof ProviderError)) return false;
  if (err.type === 'auth_mismatch' || err.type === 'model_not_found' || err.type === 'rate_limit') return true;
  const status = err.facts.status ?? err.status;
  if (status === undefined) return err.type !== 'interrupted';
  return status === 401 || status === 403 || status === 404 || status === 408 || status === 429 || status >= 500;
}

/**
 * The configured fallbacks as clients, resolved like the primary model (the entry's provider,
 * model, base_url and key in place of model.*). An entry that cannot be used (no key, unknown
 * provider) is skipped and reported through `skip`, so one bad entry does not stop the rest.
 */
export function resolveFallbacks(config: AgentConfig, fetchImpl?: typeof fetch, skip?: (entry: FallbackProviderEntry, why: string) => void): FallbackRoute[] {
  const out: FallbackRoute[] = [];
  for (const entry of config.fallbackProviders) {
    const custom = entry.provider.startsWith('custom:');
    const apiKey = entry.apiKey ?? (entry.keyEnv ? config.env[entry.keyEnv] || null : null);
    const variant: AgentConfig = {
      ...config,
      model: {
        default: entry.model,
        provider: entry.provider,
        baseUrl: custom ? null : entry.baseUrl,
        apiKey,
        apiMode: entry.apiMode === 'anthropic_messages' || entry.apiMode === 'chat_completions' ? entry.apiMode : null,
        contextLength: entry.contextLength,
        maxTokens: config.model.maxTokens,
      },
    };
    try {
      out.push({ ...resolveProvider(variant, null, fetchImpl), label: `${entry.provider}:${entry.model}` });
    } catch (err) {
      if (!(err instanceof ProviderConfigError)) throw err;
      skip?.(entry, err.message);
    }
  }
  return out;
}
