import { BadRequest, Conflict, NotFound } from '../../ports/errors.js';
import { AgentConfigError, parseAgentConfig, type AgentConfig } from '../config.js';
import type { AgentConfigSource } from '../config-source.js';
import { ConfigSyntaxError, applyModelChoice, checkConfigSyntax, removeCustomProvider, upsertCustomProvider } from '../config-edit.js';
import { setDotenvValue } from '../dotenv-edit.js';
import { KNOWN, activeEndpoint } from '../providers/resolve.js';
import { probeModels } from '../catalog/probe.js';
import { providerLabel, type ModelCatalogService } from '../catalog/catalog.js';
import type { AgentSetup, ProviderRow, SetupChoice, SetupProviderOption, SetupStatus } from '../setup.js';

/** The wizard's providers, grouped as the incumbent's onboarding groups them. */
const OPTIONS: Array<Omit<SetupProviderOption, 'key_set'>> = [
  {
    id: 'openrouter',
    label: 'OpenRouter',
    group: 'easy',
    needs_key: true,
    key_optional: false,
    key_env: 'OPENROUTER_API_KEY',
    default_base_url: KNOWN.openrouter!.baseUrl,
    base_url_editable: false,
    sample_models: ['anthropic/claude-sonnet-4.6', 'openai/gpt-5', 'google/gemini-2.5-pro'],
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    group: 'easy',
    needs_key: true,
    key_optional: false,
    key_env: 'ANTHROPIC_API_KEY',
    default_base_url: KNOWN.anthropic!.baseUrl,
    base_url_editable: false,
    sample_models: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
  },
  {
    id: 'openai',
    label: 'OpenAI',
    group: 'easy',
    needs_key: true,
    key_optional: false,
    key_env: 'OPENAI_API_KEY',
    default_base_url: KNOWN.openai!.baseUrl,
    base_url_editable: false,
    sample_models: ['gpt-5', 'gpt-5-mini', 'gpt-4.1'],
  },
  {
    id: 'ollama',
    label: 'Ollama',
    group: 'local',
    needs_key: false,
    key_optional: true,
    key_env: 'OLLAMA_API_KEY',
    default_base_url: 'http://127.0.0.1:11434/v1',
    base_url_editable: true,
    sample_models: [],
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    group: 'local',
    needs_key: false,
    key_optional: true,
    key_env: 'LMSTUDIO_API_KEY',
    default_base_url: 'http://127.0.0.1:1234/v1',
    base_url_editable: true,
    sample_models: [],
  },
  {
    id: 'custom',
    label: 'Custom OpenAI-compatible',
    group: 'local',
    needs_key: false,
    key_optional: true,
    key_env: 'CUSTOM_API_KEY',
    default_base_url: null,
    base_url_editable: true,
    sample_models: [],
  },
];

const HOSTED = ['openrouter', 'anthropic', 'openai'] as const;

/** `sk-or-v1-abc…wxyz`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string): string {
  if (key.length <= 12) return '••••';
  return `${key.slice(0, Math.min(6, Math.floor(key.length / 4)))}…${key.slice(-4)}`;
}

/** `CUSTOM_MY_LAB_API_KEY` for a custom provider named `my-lab`. */
function customKeyEnv(name: string): string {
  return `CUSTOM_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`;
}

function checkKey(key: string): string {
  const k = key.trim();
  if (!k) throw new BadRequest('api_key must not be empty');
  // Checked before the whitespace rule so the answer names the real problem (.env is line-based).
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(k)) throw new BadRequest('api_key cannot contain a line break or control character');
  if (/[\s'"]/.test(k)) throw new BadRequest('api_key must not contain spaces or quotes');
  return k;
}

function checkBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new BadRequest(`base_url: "${url}" is not a URL; use the API root, like http://127.0.0.1:11434/v1`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new BadRequest('base_url must be an http:// or https:// URL');
  if (parsed.username || parsed.password) throw new BadRequest('base_url must not contain a user name or password; give the key as api_key');
  return url.trim().replace(/\/+$/, '');
}

/**
 * Configuring the builtin agent from the browser: writes `model.*` and `custom_providers` in
 * config.yaml with the yaml Document API (comments and unknown keys survive) and keys in
 * `.env` (0600, other lines kept). A config.yaml that does not parse is never rewritten.
 */
export class BuiltinSetup implements AgentSetup {
  constructor(
    private readonly source: AgentConfigSource,
    private readonly catalog: ModelCatalogService,
    private readonly check: (model: string | null) => Promise<void>,
  ) {}

  /** The configuration, or why it cannot be read (never throws for a bad file). */
  async #config(): Promise<{ config: AgentConfig | null; error: string | null; files: { configYaml: string | null; dotenv: string | null } }> {
    const files = await this.source.readFiles();
    try {
      checkConfigSyntax(files.configYaml);
      return { config: parseAgentConfig({ ...files, env: this.source.processEnv }), error: null, files };
    } catch (err) {
      if (err instanceof ConfigSyntaxError || err instanceof AgentConfigError) return { config: null, error: err.message, files };
      throw err;
    }
  }

  async status(): Promise<SetupStatus> {
    const { config, error, files } = await this.#config();
    let usable = false;
    let problem: string | null = error;
    if (config) {
      try {
        await this.check(null);
        usable = true;
      } catch (err) {
        problem = (err as Error).message;
      }
    }
    return {
      config_path: this.source.paths.config,
      env_path: this.source.paths.env,
      config_exists: files.configYaml !== null,
      config_error: error,
      agent_runtime: 'builtin',
      provider: { id: config ? (activeEndpoint(config)?.id ?? config.model.provider) : null, usable, error: problem },
      default_model: config?.model.default ?? null,
      providers: OPTIONS.map((o) => ({ ...o, key_set: !!(o.key_env && config?.env[o.key_env]) })),
    };
  }

  async probe(input: { provider: string; base_url?: string | undefined; api_key?: string | undefined }) {
    const option = OPTIONS.find((o) => o.id === input.provider);
    const custom = input.provider.startsWith('custom:') ? input.provider.slice('custom:'.length) : null;
    const { config } = await this.#config();
    let baseUrl = input.base_url?.trim() || null;
    let apiKey = input.api_key?.trim() || null;
    let api: 'openai' | 'anthropic' = input.provider === 'anthropic' ? 'anthropic' : 'openai';
    if (custom) {
      const entry = config?.customProviders.find((p) => p.name.toLowerCase() === custom.toLowerCase());
      if (!entry && !baseUrl) throw new NotFound(`No custom provider named "${custom}"`);
      baseUrl ??= entry!.baseUrl;
      apiKey ??= entry?.apiKey ?? (entry?.keyEnv ? config?.env[entry.keyEnv] || null : null);
      if (entry?.apiMode === 'anthropic_messages') api = 'anthropic';
    } else {
      if (!option) throw new BadRequest(`provider must be one of ${OPTIONS.map((o) => o.id).join(', ')}, or custom:<name>`);
      if (!option.base_url_editable || !baseUrl) baseUrl = option.base_url_editable ? baseUrl : option.default_base_url;
      // A key saved earlier is used when none is typed (re-testing a configured provider).
      apiKey ??= option.key_env ? config?.env[option.key_env] || null : null;
    }
    if (!baseUrl)
      return { ok: false as const, error: 'invalid_url' as const, detail: 'Enter the base URL of the OpenAI-compatible server, like http://127.0.0.1:8080/v1' };
    if (option?.needs_key && !apiKey) return { ok: false as const, error: 'http_4xx' as const, status: 401, detail: `${option.label} needs an API key` };
    return probeModels({ baseUrl, apiKey, api });
  }

  async apply(choice: SetupChoice): Promise<void> {
    const option = OPTIONS.find((o) => o.id === choice.provider);
    if (!option) throw new BadRequest(`provider must be one of ${OPTIONS.map((o) => o.id).join(', ')}`);
    const { config, error } = await this.#config();
    if (error) throw new Conflict(`${error}. Fix ${this.source.paths.config} by hand (or move it aside); it was not changed.`);
    const model = choice.model.trim();
    if (!model) throw new BadRequest('model is required');
    const key = choice.api_key?.trim() ? checkKey(choice.api_key) : null;
    let baseUrl: string | null = null;
    if (option.base_url_editable) {
      baseUrl = checkBaseUrl(choice.base_url?.trim() || option.default_base_url || '');
    }
    if (option.needs_key && !key && !(option.key_env && config?.env[option.key_env])) {
      throw new BadRequest(`api_key is required for ${option.label} (it is saved as ${option.key_env} in ${this.source.paths.env})`);
    }
    // .env first: a config naming a key that is not there yet would fail the next turn.
    if (key && option.key_env) await this.source.updateDotenv((text) => setDotenvValue(text, option.key_env!, key));
    const keyRef = option.group === 'local' && key ? `\${${option.key_env}}` : null;
    await this.#editConfig((text) => applyModelChoice(text, { provider: option.id, model, baseUrl, apiKey: keyRef }));
  }

  async #editConfig(change: (text: string | null) => string): Promise<void> {
    try {
      await this.source.updateConfigYaml(change);
    } catch (err) {
      if (err instanceof ConfigSyntaxError)
        throw new Conflict(`${err.message}. Fix ${this.source.paths.config} by hand (or move it aside); it was not changed.`);
      throw err;
    }
  }

  async providers(): Promise<{ active_provider: string | null; providers: ProviderRow[] }> {
    const { config, error } = await this.#config();
    if (!config) throw new Conflict(error ?? 'config.yaml cannot be read');
    const active = activeEndpoint(config);
    const status = this.catalog.lastStatus();
    const rows: ProviderRow[] = [];
    const withStatus = (row: Omit<ProviderRow, 'status'>): ProviderRow => {
      const s = status.get(row.id);
      const needsKey = row.kind === 'hosted' && !row.key_set;
      return {
        ...row,
        status: needsKey ? 'no_key' : s ? (s.ok ? 'ok' : 'error') : 'unknown',
        ...(s && !s.ok && s.error ? { error: s.error } : {}),
        ...(s?.ok ? { models_count: s.count } : {}),
      };
    };
    for (const id of HOSTED) {
      const option = OPTIONS.find((o) => o.id === id)!;
      const value = config.env[option.key_env!];
      if (!value && active?.id !== id) continue;
      rows.push(
        withStatus({
          id,
          label: option.label,
          kind: 'hosted',
          key_env: option.key_env,
          key_set: !!value,
          key_masked: value ? maskKey(value) : null,
          base_url: option.default_base_url,
          active: active?.id === id,
        }),
      );
    }
    if (active && !HOSTED.includes(active.id as (typeof HOSTED)[number]) && !active.id.startsWith('custom:')) {
      const option = OPTIONS.find((o) => o.id === active.id);
      rows.push(
        withStatus({
          id: active.id,
          label: providerLabel(active.id),
          kind: 'local',
          key_env: option?.key_env ?? null,
          key_set: !!active.apiKey,
          key_masked: active.apiKey ? maskKey(active.apiKey) : null,
          base_url: active.baseUrl,
          active: true,
        }),
      );
    }
    for (const entry of config.customProviders) {
      const id = `custom:${entry.name}`;
      const value = entry.apiKey ?? (entry.keyEnv ? config.env[entry.keyEnv] : undefined);
      rows.push(
        withStatus({
          id,
          label: entry.name,
          kind: 'custom',
          key_env: entry.keyEnv,
          key_set: !!value,
          key_masked: value ? maskKey(value) : null,
          base_url: entry.baseUrl,
          active: active?.id.toLowerCase() === id.toLowerCase(),
        }),
      );
    }
    return { active_provider: active?.id ?? null, providers: rows };
  }

  async #row(id: string): Promise<ProviderRow> {
    const row = (await this.providers()).providers.find((p) => p.id.toLowerCase() === id.toLowerCase());
    if (!row) throw new NotFound(`No provider "${id}"`);
    return row;
  }

  async saveKey(provider: string, apiKey: string): Promise<ProviderRow> {
    const key = checkKey(apiKey);
    const { config, error } = await this.#config();
    if (!config) throw new Conflict(error ?? 'config.yaml cannot be read');
    if (provider.startsWith('custom:')) {
      const entry = config.customProviders.find((p) => `custom:${p.name}`.toLowerCase() === provider.toLowerCase());
      if (!entry) throw new NotFound(`No custom provider named "${provider.slice(7)}"`);
      const keyEnv = entry.keyEnv ?? customKeyEnv(entry.name);
      await this.source.updateDotenv((text) => setDotenvValue(text, keyEnv, key));
      if (!entry.keyEnv) await this.#editConfig((text) => upsertCustomProvider(text, { name: entry.name, base_url: entry.baseUrl, key_env: keyEnv }));
      return this.#row(provider);
    }
    const option = OPTIONS.find((o) => o.id === provider && o.key_env);
    if (!option) throw new BadRequest(`provider must be one of ${OPTIONS.map((o) => o.id).join(', ')}, or custom:<name>`);
    await this.source.updateDotenv((text) => setDotenvValue(text, option.key_env!, key));
    return this.#row(provider);
  }

  async removeProvider(provider: string): Promise<void> {
    const { config, error } = await this.#config();
    if (!config) throw new Conflict(error ?? 'config.yaml cannot be read');
    if (provider.startsWith('custom:')) {
      const entry = config.customProviders.find((p) => `custom:${p.name}`.toLowerCase() === provider.toLowerCase());
      if (!entry) throw new NotFound(`No custom provider named "${provider.slice(7)}"`);
      await this.#editConfig((text) => removeCustomProvider(text, entry.name));
      if (entry.keyEnv && !this.source.processEnv[entry.keyEnv]) await this.source.updateDotenv((text) => setDotenvValue(text, entry.keyEnv!, null));
      return;
    }
    const option = OPTIONS.find((o) => o.id === provider && o.key_env);
    if (!option) throw new BadRequest(`provider must be one of ${OPTIONS.map((o) => o.id).join(', ')}, or custom:<name>`);
    if (this.source.processEnv[option.key_env!]) throw new Conflict(`${option.key_env} is set in the server's environment; remove it there and restart Hermes`);
    await this.source.updateDotenv((text) => setDotenvValue(text, option.key_env!, null));
  }

  async saveGatewayKey(apiKey: string): Promise<void> {
    const key = checkKey(apiKey);
    await this.source.updateDotenv((text) => setDotenvValue(text, 'HERMES_WEBUI_GATEWAY_API_KEY', key));
  }

  async addCustomProvider(input: { name: string; base_url: string; api_key?: string | undefined; models?: string[] | undefined }): Promise<ProviderRow> {
    const baseUrl = checkBaseUrl(input.base_url);
    const key = input.api_key?.trim() ? checkKey(input.api_key) : null;
    const { error } = await this.#config();
    if (error) throw new Conflict(`${error}. Fix ${this.source.paths.config} by hand (or move it aside); it was not changed.`);
    const keyEnv = key ? customKeyEnv(input.name) : null;
    if (key && keyEnv) await this.source.updateDotenv((text) => setDotenvValue(text, keyEnv, key));
    await this.#editConfig((text) =>
      upsertCustomProvider(text, { name: input.name, base_url: baseUrl, key_env: keyEnv, ...(input.models ? { models: input.models } : {}) }),
    );
    return this.#row(`custom:${input.name}`);
  }
}
