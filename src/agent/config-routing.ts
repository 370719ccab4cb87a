import { parseCacheTtl, type CacheTtl } from './providers/prompt-cache.js';

/**
 * The config.yaml keys that shape how model requests are sent rather than what the agent
 * does: `prompt_caching`, `provider_routing` and `fallback_providers` (with the legacy
 * `fallback_model`). Lenient like Hermes: a malformed entry is left out, never an error.
 */
export interface RoutingConfig {
  /** `prompt_caching.cache_ttl`: 5m (default) or 1h; null turns caching off. */
  promptCaching: { cacheTtl: CacheTtl | null };
  /** `provider_routing` as OpenRouter's `provider` request object; null when nothing is set. */
  providerRouting: Record<string, unknown> | null;
  /** Tried in order when the model's provider fails before it answers (turn-scoped). */
  fallbackProviders: FallbackProviderEntry[];
}

export interface FallbackProviderEntry {
  provider: string;
  model: string;
  baseUrl: string | null;
  apiKey: string | null;
  keyEnv: string | null;
  apiMode: string | null;
  contextLength: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const list = (v: unknown): string[] | null => {
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
  const out = items?.map((x) => text(x)).filter((x): x is string => !!x) ?? [];
  return out.length ? out : null;
};

/** Hermes' mapping: only / ignore / order lists, sort, require_parameters (only when true), data_collection. */
function providerRouting(raw: unknown): Record<string, unknown> | null {
  if (!isRecord(raw)) return null;
  const out: Record<string, unknown> = {};
  for (const key of ['only', 'ignore', 'order'] as const) {
    const v = list(raw[key]);
    if (v) out[key] = v;
  }
  const sort = text(raw.sort);
  if (sort) out.sort = sort;
  if (raw.require_parameters === true) out.require_parameters = true;
  const dataCollection = text(raw.data_collection);
  if (dataCollection) out.data_collection = dataCollection;
  return Object.keys(out).length ? out : null;
}

function fallbackEntry(raw: unknown): FallbackProviderEntry | null {
  if (!isRecord(raw)) return null;
  const provider = text(raw.provider);
  const model = text(raw.model);
  // Hermes ignores entries without both.
  if (!provider || !model) return null;
  const contextLength = typeof raw.context_length === 'number' && raw.context_length > 0 ? raw.context_length : null;
  return {
    provider: provider.toLowerCase(),
    model,
    baseUrl: text(raw.base_url),
    apiKey: text(raw.api_key),
    keyEnv: text(raw.key_env),
    apiMode: text(raw.api_mode),
    contextLength,
  };
}

/** Reads the three keys from config.yaml's parsed (and `${VAR}`-substituted) top level. */
export function parseRoutingConfig(file: Record<string, unknown>): RoutingConfig {
  const caching = file.prompt_caching;
  const cacheTtl = isRecord(caching) ? parseCacheTtl('cache_ttl' in caching, caching.cache_ttl) : '5m';
  // fallback_providers wins over the legacy single fallback_model when both are set.
  const chain =
    Array.isArray(file.fallback_providers) && file.fallback_providers.length ? file.fallback_providers : file.fallback_model ? [file.fallback_model] : [];
  return {
    promptCaching: { cacheTtl },
    providerRouting: providerRouting(file.provider_routing),
    fallbackProviders: chain.map(fallbackEntry).filter((e): e is FallbackProviderEntry => !!e),
  };
}
