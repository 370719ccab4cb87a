/** A GET /api/onboarding/status answer for a fresh install (no config.yaml), to vary per test. */
import type { OnboardingProvider, OnboardingStatus } from '../../../components/api/client.js';

const provider = (p: Partial<OnboardingProvider> & Pick<OnboardingProvider, 'id' | 'label' | 'group'>): OnboardingProvider => ({
  needs_key: false,
  key_optional: false,
  key_set: false,
  key_env: null,
  default_base_url: null,
  base_url_editable: false,
  sample_models: [],
  ...p,
});

export const PROVIDERS: OnboardingProvider[] = [
  provider({
    id: 'openrouter',
    label: 'OpenRouter',
    group: 'easy',
    needs_key: true,
    key_env: 'OPENROUTER_API_KEY',
    default_base_url: 'https://openrouter.ai/api/v1',
    sample_models: ['anthropic/claude-sonnet-4.6', 'openai/gpt-5'],
  }),
  provider({
    id: 'anthropic',
    label: 'Anthropic',
    group: 'easy',
    needs_key: true,
    key_env: 'ANTHROPIC_API_KEY',
    default_base_url: 'https://api.anthropic.com',
    sample_models: ['claude-sonnet-4-6'],
  }),
  provider({
    id: 'openai',
    label: 'OpenAI',
    group: 'easy',
    needs_key: true,
    key_set: true,
    key_env: 'OPENAI_API_KEY',
    default_base_url: 'https://api.openai.com/v1',
    sample_models: ['gpt-5'],
  }),
  provider({ id: 'ollama', label: 'Ollama', group: 'local', key_optional: true, default_base_url: 'http://127.0.0.1:11434/v1', base_url_editable: true }),
  provider({ id: 'lmstudio', label: 'LM Studio', group: 'local', key_optional: true, default_base_url: 'http://127.0.0.1:1234/v1', base_url_editable: true }),
  provider({ id: 'custom', label: 'Custom OpenAI-compatible', group: 'local', key_optional: true, base_url_editable: true }),
];

/** What the server adds last when the backend can be chosen (HERMES_WEBUI_CHAT_BACKEND unset). */
export const GATEWAY: OnboardingProvider = provider({
  id: 'gateway',
  label: 'Hermes Agent (API server)',
  group: 'agent',
  key_optional: true,
  key_env: 'HERMES_WEBUI_GATEWAY_API_KEY',
  default_base_url: 'http://127.0.0.1:8642',
  base_url_editable: true,
});

export function status(fields: Partial<OnboardingStatus> = {}): OnboardingStatus {
  return {
    needed: true,
    completed: false,
    onboarding_completed: false,
    skip: false,
    may_setup: true,
    config_path: '/home/me/.hermes/config.yaml',
    env_path: '/home/me/.hermes/.env',
    config_exists: false,
    config_error: null,
    agent_runtime: 'builtin',
    provider: { id: null, usable: false, error: null },
    default_model: null,
    default_workspace: '/home/me/.hermes/webui/workspace',
    workspaces: { items: [], last: null },
    password_enabled: false,
    bot_name: 'Hermes',
    providers: PROVIDERS,
    // As where HERMES_WEBUI_CHAT_BACKEND decides (no gateway option): see gatewayChoice().
    backend: 'builtin',
    gateway_base_url: null,
    backend_fixed: true,
    ...fields,
  };
}

/** A fresh install where the backend is a choice: the providers end with the Hermes Agent gateway. */
export function gatewayChoice(fields: Partial<OnboardingStatus> = {}): OnboardingStatus {
  return status({ backend_fixed: false, gateway_base_url: 'http://127.0.0.1:8642', providers: [...PROVIDERS, GATEWAY], ...fields });
}
