import type { AgentConfig } from '../config.js';
import { createAnthropicProvider } from './anthropic.js';
import { createOpenAIProvider } from './openai.js';
import { cacheLayout } from './prompt-cache.js';
import type { ModelProvider } from './types.js';

/** The model can't be used as configured; the message says what to put in config.yaml / .env. */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderConfigError';
  }
}

export interface ResolvedProvider {
  provider: ModelProvider;
  model: string;
  contextLength: number;
}

export interface KnownProvider {
  baseUrl: string;
  /** Checked in order; empty for keyless local servers. */
  keyEnvs: string[];
  api: 'openai' | 'anthropic';
  sampleModel: string;
}

export const KNOWN: Record<string, KnownProvider> = {
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', keyEnvs: ['OPENROUTER_API_KEY'], api: 'openai', sampleModel: 'anthropic/claude-sonnet-4.6' },
  openai: { baseUrl: 'https://api.openai.com/v1', keyEnvs: ['OPENAI_API_KEY'], api: 'openai', sampleModel: 'gpt-5' },
  anthropic: { baseUrl: 'https://api.anthropic.com', keyEnvs: ['ANTHROPIC_API_KEY', 'ANTHROPIC_TOKEN'], api: 'anthropic', sampleModel: 'claude-sonnet-4-5' },
  ollama: { baseUrl: 'http://localhost:11434/v1', keyEnvs: [], api: 'openai', sampleModel: 'qwen3:8b' },
  lmstudio: { baseUrl: 'http://localhost:1234/v1', keyEnvs: [], api: 'openai', sampleModel: 'qwen3-8b' },
};
// Hermes' own spellings of the same providers.
const ALIASES: Record<string, string> = { 'openai-api': 'openai', 'lm-studio': 'lmstudio' };

const DEFAULT_CONTEXT = 128_000;
const ANTHROPIC_CONTEXT = 200_000;

type CustomEntry = AgentConfig['customProviders'][number];

/**
 * Picks the client, model and context window for a turn. `modelOverride` is a plain model id
 * (same provider) or `custom:<name>:<model>` (a `custom_providers` entry).
 */
export function resolveProvider(config: AgentConfig, modelOverride?: string | null, fetchImpl?: typeof fetch): ResolvedProvider {
  const override = modelOverride?.trim() || null;
  if (override?.startsWith('custom:')) {
    const rest = override.slice('custom:'.length);
    const colon = rest.indexOf(':');
    const name = colon === -1 ? rest : rest.slice(0, colon);
    const model = colon === -1 ? '' : rest.slice(colon + 1);
    const entry = findCustom(config, name);
    if (!model)
      throw new ProviderConfigError(
        `"${override}" names no model: use custom:<name>:<model>, e.g. custom:${name || 'local'}:${Object.keys(entry?.models ?? {})[0] ?? 'my-model'}.`,
      );
    return fromCustomEntry(config, entry, name, model, fetchImpl);
  }

  const model = override ?? config.model.default;
  const configured = config.model.provider ?? 'auto';
  if (!model) {
    const canonical = ALIASES[configured] ?? configured;
    throw new ProviderConfigError(
      `No model is configured for the built-in agent.\n\n${help(KNOWN[canonical] || canonical === 'custom' ? canonical : 'openrouter')}`,
    );
  }

  // `provider: custom:<name>` (or a bare entry name) selects a custom_providers entry.
  if (configured.startsWith('custom:')) {
    const name = configured.slice('custom:'.length);
    return fromCustomEntry(config, findCustom(config, name), name, model, fetchImpl);
  }
  const id = ALIASES[configured] ?? (configured === 'auto' ? detectProvider(config) : configured);
  if (!KNOWN[id] && id !== 'custom') {
    const entry = findCustom(config, id);
    if (entry) return fromCustomEntry(config, entry, id, model, fetchImpl);
  }

  const known = KNOWN[id];
  const baseUrl = config.model.baseUrl ? checkUrl(config.model.baseUrl, 'model.base_url') : known?.baseUrl;
  const useAnthropic = config.model.apiMode === 'anthropic_messages' || known?.api === 'anthropic' || isAnthropicHost(baseUrl);

  if (!baseUrl && !useAnthropic) {
    if (id === 'custom') throw new ProviderConfigError(`model.provider is "custom" but model.base_url is not set.\n\n${help('custom')}`);
    throw new ProviderConfigError(
      `The built-in agent does not know the provider "${id}". Use ${Object.keys(KNOWN).join(', ')}, or custom with model.base_url.\n\n${help('custom')}`,
    );
  }

  const keyEnvs = known?.keyEnvs.length ? known.keyEnvs : useAnthropic && (!baseUrl || isAnthropicHost(baseUrl)) ? KNOWN.anthropic!.keyEnvs : [];
  const keyEnv = keyEnvs.find((k) => config.env[k]);
  const apiKey = config.model.apiKey ?? (keyEnv ? config.env[keyEnv]! : null);
  // Keyless is fine for local and custom servers; the hosted APIs always need one.
  if (!apiKey && keyEnvs.length) {
    throw new ProviderConfigError(
      `The ${id} provider needs an API key: set ${keyEnvs.join(' or ')} in $HERMES_HOME/.env (or model.api_key in config.yaml).\n\n${help(KNOWN[id] ? id : 'anthropic')}`,
    );
  }
  // Named in auth hints only when the key really came from it.
  const namedEnv = config.model.apiKey ? undefined : keyEnv;

  if (useAnthropic) {
    const native = !baseUrl || isAnthropicHost(baseUrl);
    // OpenRouter-style ids ("anthropic/claude-…") mean nothing to the native API.
    const wireModel = native ? model.replace(/^anthropic\//, '') : model;
    return {
      provider: createAnthropicProvider({
        id,
        baseUrl: baseUrl ?? KNOWN.anthropic!.baseUrl,
        apiKey,
        ...(namedEnv ? { keyEnv: namedEnv } : {}),
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
        ...requestShaping(config, 'anthropic', model, false),
      }),
      model: wireModel,
      contextLength: contextLength(config, model, undefined, true),
    };
  }
  return {
    provider: createOpenAIProvider({
      id,
      baseUrl: baseUrl!,
      apiKey,
      ...(namedEnv ? { keyEnv: namedEnv } : {}),
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
      ...requestShaping(config, 'openai', model, id === 'openrouter' || isOpenRouterHost(baseUrl!)),
    }),
    model,
    contextLength: contextLength(config, model, undefined, false),
  };
}

function fromCustomEntry(config: AgentConfig, entry: CustomEntry | undefined, name: string, model: string, fetchImpl?: typeof fetch): ResolvedProvider {
  if (!entry) {
    const names = config.customProviders.map((p) => p.name);
    throw new ProviderConfigError(
      `No custom provider named "${name}" in $HERMES_HOME/config.yaml${names.length ? ` (configured: ${names.join(', ')})` : ''}. Add one:\n\n` +
        `custom_providers:\n  - name: ${name || 'local'}\n    base_url: http://localhost:8080/v1\n    models: {"${model || 'my-model'}": {context_length: 32768}}`,
    );
  }
  const baseUrl = checkUrl(entry.baseUrl, `custom_providers "${entry.name}" base_url`);
  let apiKey = entry.apiKey;
  if (!apiKey && entry.keyEnv) {
    apiKey = config.env[entry.keyEnv] || null;
    if (!apiKey)
      throw new ProviderConfigError(
        `The custom provider "${entry.name}" reads its key from ${entry.keyEnv}, which is not set: add ${entry.keyEnv}=… to $HERMES_HOME/.env.`,
      );
  }
  const id = `custom:${entry.name}`;
  const keyEnv = entry.apiKey ? undefined : (entry.keyEnv ?? undefined);
  const common = { id, baseUrl, apiKey, ...(keyEnv ? { keyEnv } : {}), ...(fetchImpl ? { fetch: fetchImpl } : {}) };
  const anthropic = entry.apiMode === 'anthropic_messages' || isAnthropicHost(baseUrl);
  const shaping = requestShaping(config, anthropic ? 'anthropic' : 'openai', model, isOpenRouterHost(baseUrl));
  return {
    provider: anthropic ? createAnthropicProvider({ ...common, ...shaping }) : createOpenAIProvider({ ...common, ...shaping }),
    model,
    contextLength: contextLength(config, model, entry, anthropic),
  };
}

function findCustom(config: AgentConfig, name: string): CustomEntry | undefined {
  const wanted = name.toLowerCase();
  return config.customProviders.find((p) => p.name.toLowerCase() === wanted);
}

/** `provider: auto` (or unset): the base URL's host, else the first hosted provider with a key. */
function detectProvider(config: AgentConfig): string {
  const url = config.model.baseUrl;
  if (url) {
    if (isAnthropicHost(url)) return 'anthropic';
    if (/^https?:\/\/([^/]*\.)?openrouter\.ai(:\d+)?(\/|$)/i.test(url)) return 'openrouter';
    if (/^https?:\/\/api\.openai\.com(:\d+)?(\/|$)/i.test(url)) return 'openai';
    return 'custom';
  }
  if (config.model.apiMode === 'anthropic_messages') return 'anthropic';
  for (const id of ['openrouter', 'anthropic', 'openai']) {
    if (KNOWN[id]!.keyEnvs.some((k) => config.env[k])) return id;
  }
  throw new ProviderConfigError(`model.provider is not set and no provider key was found.\n\n${help('openrouter')}`);
}

/** Cache markers (Claude: native on the Messages API, in content parts on OpenRouter) and OpenRouter's provider routing. */
function requestShaping(config: AgentConfig, api: 'openai' | 'anthropic', model: string, openRouter: boolean) {
  const layout = cacheLayout({ api, model, openRouter });
  return {
    cacheTtl: layout ? config.promptCaching.cacheTtl : null,
    ...(openRouter && config.providerRouting ? { providerRouting: config.providerRouting } : {}),
  };
}

function isOpenRouterHost(url: string): boolean {
  return /^https?:\/\/([^/]*\.)?openrouter\.ai(:\d+)?(\/|$)/i.test(url);
}

function isAnthropicHost(url: string | undefined): boolean {
  return !!url && /^https?:\/\/api\.anthropic\.com(:\d+)?(\/|$)/i.test(url);
}

function checkUrl(url: string, where: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new ProviderConfigError(`${where} is not an http(s) URL: "${url}". Use the server's API root, e.g. http://localhost:11434/v1.`);
}

/** model.context_length (for the configured model) → custom_providers[].models[model] → a default. */
function contextLength(config: AgentConfig, model: string, entry: CustomEntry | undefined, anthropic: boolean): number {
  if (config.model.contextLength && model === config.model.default) return config.model.contextLength;
  const listed = entry ? entry.models[model]?.contextLength : config.customProviders.find((p) => p.models[model]?.contextLength)?.models[model]?.contextLength;
  if (listed) return listed;
  return anthropic || /claude/i.test(model) ? ANTHROPIC_CONTEXT : DEFAULT_CONTEXT;
}

/** How to configure a model: a config.yaml snippet for `id` and where its key goes. */
function help(id: string): string {
  const known = KNOWN[id];
  const baseUrl = known?.baseUrl ?? 'http://localhost:8080/v1';
  const yaml = ['model:', `  default: ${known?.sampleModel ?? 'my-model'}`, `  provider: ${id}`, `  base_url: ${baseUrl}`].join('\n');
  const key = known?.keyEnvs.length
    ? `and put the key in $HERMES_HOME/.env: ${known.keyEnvs[0]}=…`
    : 'A local server needs no key; for one that does, add model.api_key (or api_key under custom_providers).';
  return `Configure a model in $HERMES_HOME/config.yaml (~/.hermes/config.yaml by default), for example:\n\n${yaml}\n\n${key}`;
}

/** The configured provider's endpoint, for listing its models; null when none is configured. */
export interface ProviderEndpoint {
  /** `openrouter`, `anthropic`, …, `custom`, or `custom:<name>` for a custom_providers entry. */
  id: string;
  baseUrl: string;
  apiKey: string | null;
  api: 'openai' | 'anthropic';
}

/** Where the active provider (model.provider) answers, without throwing for a half-done config. */
export function activeEndpoint(config: AgentConfig): ProviderEndpoint | null {
  const configured = config.model.provider ?? 'auto';
  let id: string;
  try {
    id = configured.startsWith('custom:') ? configured : (ALIASES[configured] ?? (configured === 'auto' ? detectProvider(config) : configured));
  } catch {
    return null;
  }
  const entry = id.startsWith('custom:') ? findCustom(config, id.slice('custom:'.length)) : !KNOWN[id] && id !== 'custom' ? findCustom(config, id) : undefined;
  if (entry) return customEndpoint(config, entry);
  const known = KNOWN[id];
  const baseUrl = config.model.baseUrl ?? known?.baseUrl ?? null;
  if (!baseUrl) return null;
  const anthropic = config.model.apiMode === 'anthropic_messages' || known?.api === 'anthropic' || isAnthropicHost(baseUrl);
  const keyEnvs = known?.keyEnvs.length ? known.keyEnvs : anthropic && isAnthropicHost(baseUrl) ? KNOWN.anthropic!.keyEnvs : [];
  const keyEnv = keyEnvs.find((k) => config.env[k]);
  return { id, baseUrl, apiKey: config.model.apiKey ?? (keyEnv ? config.env[keyEnv]! : null), api: anthropic ? 'anthropic' : 'openai' };
}

/** A custom_providers entry's endpoint (`custom:<name>`). */
export function customEndpoint(config: AgentConfig, entry: CustomEntry): ProviderEndpoint {
  const apiKey = entry.apiKey ?? (entry.keyEnv ? config.env[entry.keyEnv] || null : null);
  const anthropic = entry.apiMode === 'anthropic_messages' || isAnthropicHost(entry.baseUrl);
  return { id: `custom:${entry.name}`, baseUrl: entry.baseUrl, apiKey, api: anthropic ? 'anthropic' : 'openai' };
}
