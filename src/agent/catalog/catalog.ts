import type { AgentConfig } from '../config.js';
import { KNOWN, activeEndpoint, customEndpoint, type ProviderEndpoint } from '../providers/resolve.js';
import { probeModels, type CatalogModel, type ProbeResult } from './probe.js';

export type { CatalogModel } from './probe.js';

export interface CatalogGroup {
  /** `openrouter`, `anthropic`, … or `custom:<name>`. */
  provider: string;
  label: string;
  models: CatalogModel[];
  /** Why the live list is missing (the probe's detail), when it is. */
  error?: string;
  /** `live`: probed in this rebuild; `cache`: an earlier probe; `config`/`static`: no probe answered. */
  source: 'live' | 'config' | 'static' | 'cache';
}

export interface Catalog {
  active_provider: string | null;
  default_model: string | null;
  groups: CatalogGroup[];
  /** When the newest live list in it was fetched (epoch seconds). */
  fetched_at: number | null;
  /** Some group is not from a finished probe of the current configuration (a refresh is running). */
  stale: boolean;
}

/** Where the last probes' answers are kept between restarts (`models_cache.json` on Node). */
export interface CatalogCache {
  read(): Promise<unknown>;
  write(value: unknown): Promise<void>;
}

/** What the last probe of an endpoint gave: its list (kept until a later success) and its last failure. */
interface CachedEndpoint {
  fetched_at?: number;
  models?: CatalogModel[];
  failed_at?: number;
  error?: string;
}

/** A failed endpoint is asked again after this long (or on refresh), not on every picker open. */
const FAILED_RETRY_SECONDS = 60;

const LABELS: Record<string, string> = {
  openrouter: 'OpenRouter',
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  custom: 'Custom endpoint',
};
export const providerLabel = (id: string) => LABELS[id] ?? (id.startsWith('custom:') ? id.slice('custom:'.length) : id);

/** A few well-known models per hosted provider: what the picker offers when no probe answered. */
const STATIC_MODELS: Record<string, string[]> = {
  openrouter: ['anthropic/claude-sonnet-4.6', 'openai/gpt-5', 'google/gemini-2.5-pro', 'deepseek/deepseek-chat'],
  anthropic: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
  openai: ['gpt-5', 'gpt-5-mini', 'gpt-4.1'],
};

interface Target {
  endpoint: ProviderEndpoint;
  /** Group id and how its model ids are written (plain for the active provider). */
  provider: string;
  prefix: string;
  configured: string[];
  staticModels: string[];
  /** Identifies the endpoint in the cache: same URL and key presence → same answer. */
  key: string;
}

/** The endpoints a configuration names: the active provider first, then each custom provider. */
export function catalogTargets(config: AgentConfig): Target[] {
  const targets: Target[] = [];
  const active = activeEndpoint(config);
  if (active) {
    const entry = active.id.startsWith('custom:')
      ? config.customProviders.find((p) => `custom:${p.name}`.toLowerCase() === active.id.toLowerCase())
      : undefined;
    targets.push({
      endpoint: active,
      provider: active.id,
      prefix: '',
      configured: [...(config.model.default ? [config.model.default] : []), ...Object.keys(entry?.models ?? {})],
      staticModels: STATIC_MODELS[active.id] ?? [],
      key: endpointKey(active),
    });
  }
  if (!active && config.model.default) {
    // A default with no reachable provider yet (no key): still offered, under its configured name.
    const id = config.model.provider ?? 'auto';
    targets.push({
      endpoint: { id, baseUrl: '', apiKey: null, api: 'openai' },
      provider: id,
      prefix: '',
      configured: [config.model.default],
      staticModels: [],
      key: '',
    });
  }
  for (const entry of config.customProviders) {
    const endpoint = customEndpoint(config, entry);
    if (targets.some((t) => t.provider.toLowerCase() === endpoint.id.toLowerCase())) continue;
    targets.push({
      endpoint,
      provider: endpoint.id,
      prefix: `${endpoint.id}:`,
      configured: Object.keys(entry.models),
      staticModels: [],
      key: endpointKey(endpoint),
    });
  }
  return targets;
}

/** Same URL and same key → same answer. The key enters only as a short FNV-1a fingerprint (the cache file holds no secret). */
function endpointKey(e: ProviderEndpoint): string {
  return `${e.api} ${e.baseUrl.replace(/\/+$/, '')} ${e.apiKey ? `key:${fnv1a(e.apiKey)}` : 'nokey'}`;
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

export interface CatalogOptions {
  cache: CatalogCache;
  now: () => number;
  /** How long a caller waits for probes (HERMES_WEBUI_MODELS_REBUILD_BUDGET, default 4 s). */
  budgetMs?: number;
  /** Per-endpoint cap for one probe (default 5 s). */
  probeTimeoutMs?: number;
  /** Live lists younger than this are served without probing again (default 10 min). */
  freshSeconds?: number;
  probe?: typeof probeModels;
}

/**
 * The model picker's catalog: the configuration's models plus each configured endpoint's live
 * `/models`. All endpoints are probed at once, each once per rebuild; a caller waits at most
 * the budget, then gets every group that answered plus, for the rest, the last cached list (or
 * the configured/well-known models) while the probes finish in the background and land in the
 * cache for the next caller. A dead endpoint never holds up a live one.
 */
export class ModelCatalogService {
  #options: Required<Omit<CatalogOptions, 'probe'>> & { probe: typeof probeModels };
  /** Probes running now, by endpoint key: one at a time per endpoint, shared by every caller. */
  #running = new Map<string, { promise: Promise<ProbeResult>; startedAt: number }>();
  #memory: Record<string, CachedEndpoint> | null = null;
  #status = new Map<string, { ok: boolean; error?: string; count?: number }>();

  constructor(options: CatalogOptions) {
    this.#options = { budgetMs: 4000, probeTimeoutMs: 5000, freshSeconds: 600, probe: probeModels, ...options };
  }

  async #cached(): Promise<Record<string, CachedEndpoint>> {
    if (this.#memory) return this.#memory;
    const raw = (await this.#options.cache.read().catch(() => null)) as { version?: number; endpoints?: Record<string, CachedEndpoint> } | null;
    this.#memory = raw?.version === 1 && raw.endpoints && typeof raw.endpoints === 'object' ? { ...raw.endpoints } : {};
    return this.#memory;
  }

  #remember(key: string, result: ProbeResult): Promise<void> {
    const memory = (this.#memory ??= {});
    const now = this.#options.now();
    // A failure keeps the last good list (shown, marked with the error) and is retried after a minute.
    memory[key] = result.ok ? { fetched_at: now, models: result.models } : { ...memory[key], failed_at: now, error: result.detail };
    return this.#options.cache.write({ version: 1, endpoints: memory }).catch(() => {});
  }

  #probe(target: Target): { promise: Promise<ProbeResult>; startedAt: number } {
    let running = this.#running.get(target.key);
    if (!running) {
      const promise = this.#options
        .probe({ baseUrl: target.endpoint.baseUrl, apiKey: target.endpoint.apiKey, api: target.endpoint.api, timeoutMs: this.#options.probeTimeoutMs })
        .then(async (result) => {
          this.#status.set(target.provider, result.ok ? { ok: true, count: result.models.length } : { ok: false, error: result.detail });
          await this.#remember(target.key, result);
          return result;
        })
        .finally(() => this.#running.delete(target.key));
      running = { promise, startedAt: performance.now() };
      this.#running.set(target.key, running);
    }
    return running;
  }

  /** What the last model lists said about `model` taking images; null when none said (image routing asks). */
  async visionOf(model: string): Promise<boolean | null> {
    for (const endpoint of Object.values(await this.#cached())) {
      const said = endpoint.models?.find((m) => m.id === model)?.vision;
      if (typeof said === 'boolean') return said;
    }
    return null;
  }

  /** How each provider's last probe went (Settings → Providers shows it). */
  lastStatus(): ReadonlyMap<string, { ok: boolean; error?: string; count?: number }> {
    return this.#status;
  }

  /** The catalog for `config`; `refresh` probes even when the cached lists are fresh. */
  async get(config: AgentConfig, options: { refresh?: boolean } = {}): Promise<Catalog> {
    const targets = catalogTargets(config);
    const cached = await this.#cached();
    const now = this.#options.now();
    const results = new Map<string, ProbeResult>();
    const pending: Array<Promise<unknown>> = [];
    const probing = new Set<string>();
    for (const t of targets) {
      if (!t.key) continue;
      const entry: CachedEndpoint | undefined = cached[t.key];
      const lastTry = Math.max(entry?.fetched_at ?? -Infinity, entry?.failed_at ?? -Infinity);
      const failedLast = entry?.failed_at !== undefined && entry.failed_at >= (entry.fetched_at ?? -Infinity);
      const due = !entry || now - lastTry >= (failedLast ? FAILED_RETRY_SECONDS : this.#options.freshSeconds);
      if (!options.refresh && !due) continue;
      const running = this.#probe(t);
      // An endpoint answered before (or failed before) is revalidated in the background: its
      // last answer is served now. Only one never heard from, or a refresh, is waited for.
      if (entry && !options.refresh) {
        probing.add(t.key);
        continue;
      }
      probing.add(t.key);
      const settled = running.promise.then((r) => void results.set(t.key, r));
      // Each probe is waited for until one budget after it began: a probe an earlier caller
      // started (a dead endpoint) is not waited for a whole budget again.
      const wait = Math.max(0, running.startedAt + this.#options.budgetMs - performance.now());
      let timer: ReturnType<typeof setTimeout> | undefined;
      pending.push(Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, wait)))]).finally(() => clearTimeout(timer)));
    }
    // Whatever has answered in time is used; the rest keeps going in the background.
    await Promise.all(pending);
    let stale = false;
    let fetchedAt: number | null = null;
    const groups = targets.map((t): CatalogGroup => {
      const result = results.get(t.key);
      const entry: CachedEndpoint | undefined = t.key ? cached[t.key] : undefined;
      if (probing.has(t.key) && !result) stale = true;
      const base = { provider: t.provider, label: providerLabel(t.provider) };
      let models: CatalogModel[] = [];
      let source: CatalogGroup['source'];
      let error: string | undefined;
      if (result?.ok) {
        models = result.models;
        source = 'live';
        fetchedAt = Math.max(fetchedAt ?? 0, now);
      } else if (entry?.models) {
        models = entry.models;
        source = 'cache';
        fetchedAt = Math.max(fetchedAt ?? 0, entry.fetched_at ?? 0);
        if (result && !result.ok) error = result.detail;
        else if (entry.failed_at !== undefined && entry.failed_at >= (entry.fetched_at ?? 0)) error = entry.error;
      } else {
        source = t.configured.length ? 'config' : 'static';
        if (result && !result.ok) error = result.detail;
        else if (entry?.error) error = entry.error;
        else if (probing.has(t.key)) error = 'Still asking this provider for its models';
      }
      // The configured models are always offered, listed or not; well-known ones when nothing answered.
      const ids = new Set(models.map((m) => m.id));
      const extra = [...t.configured, ...(models.length ? [] : t.staticModels)].filter((id) => !ids.has(id) && (ids.add(id), true));
      const all = [...extra.map((id) => ({ id, label: id })), ...models];
      return { ...base, models: all.map((m) => ({ ...m, id: t.prefix + m.id })), source, ...(error ? { error } : {}) };
    });
    return {
      active_provider: targets[0]?.key && !targets[0].prefix ? targets[0].provider : (config.model.provider ?? null),
      default_model: config.model.default,
      groups,
      fetched_at: fetchedAt,
      stale,
    };
  }
}

/** Known hosted providers (for the wizard and settings). */
export const KNOWN_PROVIDERS = KNOWN;
