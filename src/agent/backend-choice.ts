import type { Config } from '../config.js';
import { Conflict } from '../ports/errors.js';
import type { SettingsStore } from '../ports/settings-store.js';
import type { AgentInfo, AgentRuntime, Catalog } from './runtime.js';
import { SwitchingRuntime } from './switching-runtime.js';

export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8642';

/** Who answers turns right now: the builtin agent, or a Hermes Agent gateway at `gatewayBaseUrl`. */
export interface BackendChoice {
  backend: 'builtin' | 'gateway';
  gatewayBaseUrl: string;
}

/** Builds the gateway runtime for a base URL; `apiKey` absent: the key the server is configured with. */
export type GatewayFactory = (baseUrl: string, apiKey?: string) => AgentRuntime & Required<Pick<AgentRuntime, 'describe'>>;

/** The settings keys a change of backend is stored as. */
export interface BackendSettings {
  chat_backend?: 'builtin' | 'gateway';
  gateway_base_url?: string;
}

/**
 * Who answers chat turns, as routes see it: fixed by the environment (HERMES_WEBUI_CHAT_BACKEND)
 * or a choice Settings and the first-run wizard make. Routes ask this, never the runtime's shape.
 */
export interface AgentBackend {
  /** HERMES_WEBUI_CHAT_BACKEND decides: Settings and the wizard show the backend and offer no switch. */
  readonly fixed: boolean;
  current(): Promise<BackendChoice>;
  /**
   * The settings keys that store `change`, checked before anything is written: Conflict (409)
   * for a switch the environment decides (another backend while fixed, another URL than
   * HERMES_WEBUI_GATEWAY_BASE_URL); only what actually changes is returned.
   */
  settingsFor(change: Partial<BackendChoice>): Promise<BackendSettings>;
  /** Tries a Hermes Agent API server before choosing it (Conflict while fixed): reachable, which path, its limits and models. */
  probeGateway(baseUrl: string, apiKey?: string): Promise<{ info: AgentInfo; models: Catalog | null }>;
}

export const BACKEND_FIXED = 'HERMES_WEBUI_CHAT_BACKEND fixes who answers on this server; change it there (then restart Hermes)';
const URL_FIXED = 'HERMES_WEBUI_GATEWAY_BASE_URL fixes the Hermes Agent address on this server; change it there (then restart Hermes)';

const trimUrl = (url: string) => url.replace(/\/+$/, '');

/**
 * Reads who answers turns from settings (`chat_backend`, `gateway_base_url`), where the
 * environment has not fixed it. Read each time (a small document): a change in Settings or the
 * wizard applies to the very next turn.
 */
export function settingsBackendChoice(
  settings: SettingsStore,
  fixed: { backend?: 'builtin' | 'gateway'; gatewayBaseUrl?: string },
): () => Promise<BackendChoice> {
  return async () => {
    const stored = fixed.backend && fixed.gatewayBaseUrl ? {} : await settings.read().catch(() => ({}) as Record<string, unknown>);
    const backend = fixed.backend ?? (stored.chat_backend === 'gateway' ? 'gateway' : 'builtin');
    const url =
      fixed.gatewayBaseUrl ?? (typeof stored.gateway_base_url === 'string' && stored.gateway_base_url ? stored.gateway_base_url : DEFAULT_GATEWAY_URL);
    return { backend, gatewayBaseUrl: trimUrl(url) };
  };
}

/**
 * The backend for a configuration. HERMES_WEBUI_CHAT_BACKEND set: the environment alone says who
 * answers and where (HERMES_WEBUI_GATEWAY_BASE_URL, else its default), whatever settings hold.
 * Unset: settings choose, HERMES_WEBUI_GATEWAY_BASE_URL (when set) still fixes the address.
 */
export function agentBackend(
  config: Pick<Config, 'chatBackend' | 'chatBackendFixed' | 'gatewayBaseUrlFixed'> & { gateway: Pick<Config['gateway'], 'baseUrl'> },
  settings: SettingsStore,
  gateway: GatewayFactory,
): AgentBackend {
  const fixed = config.chatBackendFixed;
  const current = fixed
    ? async (): Promise<BackendChoice> => ({ backend: config.chatBackend, gatewayBaseUrl: trimUrl(config.gateway.baseUrl) })
    : settingsBackendChoice(settings, config.gatewayBaseUrlFixed ? { gatewayBaseUrl: config.gateway.baseUrl } : {});
  return {
    fixed,
    current,
    async settingsFor(change) {
      const now = await current();
      const url = change.gatewayBaseUrl === undefined ? undefined : trimUrl(change.gatewayBaseUrl) || DEFAULT_GATEWAY_URL;
      const switches = change.backend !== undefined && change.backend !== now.backend;
      const moves = url !== undefined && url !== now.gatewayBaseUrl;
      if (fixed && (switches || moves)) throw new Conflict(BACKEND_FIXED);
      if (moves && config.gatewayBaseUrlFixed) throw new Conflict(URL_FIXED);
      const out: BackendSettings = {};
      if (fixed) return out;
      // Stored as given (also when equal to what applies now): the choice is the user's, not a default's.
      if (change.backend !== undefined) out.chat_backend = change.backend;
      if (change.gatewayBaseUrl !== undefined && !config.gatewayBaseUrlFixed) out.gateway_base_url = trimUrl(change.gatewayBaseUrl);
      return out;
    },
    async probeGateway(baseUrl, apiKey) {
      if (fixed) throw new Conflict(BACKEND_FIXED);
      const runtime = gateway(trimUrl(baseUrl), apiKey);
      const info = await runtime.describe({ refresh: true });
      const models = info.reachable && runtime.models ? await runtime.models({ refresh: true }).catch(() => null) : null;
      return { info, models };
    },
  };
}

/**
 * The agent behind chat turns and who chooses it, the same on every runtime. Fixed by the
 * environment: exactly that agent (a gateway then has no setup: nothing here configures it).
 * A choice: SwitchingRuntime asks the backend per call.
 */
export function agentWithBackend(
  config: Parameters<typeof agentBackend>[0],
  settings: SettingsStore,
  builtin: AgentRuntime,
  gateway: GatewayFactory,
): { runtime: AgentRuntime; backend: AgentBackend } {
  const backend = agentBackend(config, settings, gateway);
  if (!backend.fixed) return { runtime: new SwitchingRuntime(builtin, gateway, backend.current), backend };
  return { runtime: config.chatBackend === 'gateway' ? gateway(trimUrl(config.gateway.baseUrl)) : builtin, backend };
}
