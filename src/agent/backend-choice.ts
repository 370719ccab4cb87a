import type { SettingsStore } from '../ports/settings-store.js';
import type { BackendChoice } from './switching-runtime.js';

export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8642';

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
    const url = fixed.gatewayBaseUrl ?? (typeof stored.gateway_base_url === 'string' && stored.gateway_base_url ? stored.gateway_base_url : DEFAULT_GATEWAY_URL);
    return { backend, gatewayBaseUrl: url.replace(/\/+$/, '') };
  };
}
