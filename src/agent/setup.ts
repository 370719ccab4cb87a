import type { ProbeResult, CatalogModel } from './catalog/probe.js';

/** A provider the first-run wizard offers. */
export interface SetupProviderOption {
  /** `gateway`: a Hermes Agent the person already runs, offered by the onboarding route, not a model provider. */
  id: 'openrouter' | 'anthropic' | 'openai' | 'ollama' | 'lmstudio' | 'custom' | 'gateway';
  label: string;
  group: 'easy' | 'local' | 'agent';
  needs_key: boolean;
  key_optional: boolean;
  key_set: boolean;
  key_env: string | null;
  default_base_url: string | null;
  base_url_editable: boolean;
  sample_models: string[];
}

/** One row of Settings → Providers. Keys are only ever shown masked. */
export interface ProviderRow {
  id: string;
  label: string;
  kind: 'hosted' | 'local' | 'custom';
  key_env: string | null;
  key_set: boolean;
  key_masked: string | null;
  base_url: string | null;
  active: boolean;
  status: 'ok' | 'error' | 'no_key' | 'unknown';
  error?: string;
  models_count?: number;
}

export interface SetupStatus {
  config_path: string;
  env_path: string;
  config_exists: boolean;
  /** config.yaml does not parse: what and where. The wizard never overwrites it. */
  config_error: string | null;
  agent_runtime: string;
  provider: { id: string | null; usable: boolean; error: string | null };
  default_model: string | null;
  providers: SetupProviderOption[];
}

export interface SetupChoice {
  provider: SetupProviderOption['id'];
  model: string;
  base_url?: string | undefined;
  api_key?: string | undefined;
}

/**
 * How an agent is configured from the browser (first-run wizard, Settings → Providers). The
 * builtin agent edits `$HERMES_HOME/config.yaml` and `.env`; an agent configured elsewhere
 * (a Hermes gateway) has none.
 */
export interface AgentSetup {
  status(): Promise<SetupStatus>;
  probe(input: { provider: string; base_url?: string | undefined; api_key?: string | undefined }): Promise<ProbeResult>;
  /** Writes the choice; ConfigSyntaxError (config.yaml untouched) when the file does not parse. */
  apply(choice: SetupChoice): Promise<void>;
  providers(): Promise<{ active_provider: string | null; providers: ProviderRow[] }>;
  saveKey(provider: string, apiKey: string): Promise<ProviderRow>;
  removeProvider(provider: string): Promise<void>;
  addCustomProvider(input: { name: string; base_url: string; api_key?: string | undefined; models?: string[] | undefined }): Promise<ProviderRow>;
  /** Keeps the key for a Hermes Agent API server (HERMES_WEBUI_GATEWAY_API_KEY in .env). */
  saveGatewayKey?(apiKey: string): Promise<void>;
}

export type { CatalogModel };
