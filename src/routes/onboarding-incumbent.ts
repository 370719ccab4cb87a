import type { SetupProviderOption, SetupStatus } from '../agent/setup.js';
import type { WorkspaceEntry } from '../ports/workspace-store.js';

/**
 * The incumbent's `setup`, `workspaces` and `system` note fields of GET /api/onboarding/status,
 * built from our own status, so its onboarding.js finds the keys and value shapes it reads.
 */

const CATEGORIES = [
  { id: 'easy_start', label: 'Easy start', group: 'easy' },
  { id: 'self_hosted', label: 'Open / self-hosted', group: 'local' },
  { id: 'agent', label: 'Your own Hermes Agent', group: 'agent' },
] as const;

const UNSUPPORTED_NOTE =
  'Providers not listed here (OAuth sign-ins, other API providers) are set up with the Hermes CLI (`hermes model`); the Web UI uses what config.yaml names.';

const categoryOf = (group: SetupProviderOption['group']) => CATEGORIES.find((c) => c.group === group)!.id;

/** One provider as the incumbent's catalog lists it. */
function incumbentProvider(p: SetupProviderOption) {
  return {
    id: p.id,
    label: p.label,
    env_var: p.key_env ?? '',
    default_model: p.sample_models[0] ?? '',
    default_base_url: p.default_base_url ?? '',
    // The self-hosted ones (and the gateway) take an address; its wizard probes it before going on.
    requires_base_url: p.base_url_editable,
    key_optional: p.key_optional,
    models: p.sample_models.map((id) => ({ id, label: id })),
    category: categoryOf(p.group),
    quick: p.id === 'openrouter',
    oauth_provider: '',
    oauth_label: '',
  };
}

/** The incumbent's `setup` block: the provider catalog by category and what is configured now. */
export function setupCatalog(providers: SetupProviderOption[], agent: SetupStatus, baseUrl: string | null) {
  const rows = providers.map(incumbentProvider);
  const current = agent.provider.id ?? 'openrouter';
  return {
    providers: rows,
    categories: CATEGORIES.map((c) => ({ id: c.id, label: c.label, providers: rows.filter((r) => r.category === c.id).map((r) => r.id) })),
    unsupported_note: UNSUPPORTED_NOTE,
    // A provider the wizard does not list was set up elsewhere (the CLI): its wizard shows a confirmation, not a key input.
    current_is_oauth: !!agent.provider.id && !providers.some((p) => p.id === agent.provider.id),
    current: {
      provider: current,
      model: agent.default_model ?? rows.find((r) => r.id === current)?.default_model ?? '',
      base_url: baseUrl,
    },
  };
}

/** The incumbent's `setup_state` and provider note, which its wizard's first step shows. */
export function setupState(agent: SetupStatus, chatReady: boolean, baseUrl: string | null) {
  const id = agent.provider.id;
  const configured = !!id && !!agent.default_model;
  const note = (setup_state: string, key: string, text: string, args: string[] = []) => ({
    setup_state,
    provider_note: text,
    provider_note_key: key,
    provider_note_args: args,
  });
  if (chatReady) return note('ready', 'onboarding_notice_system_ready', `Hermes is minimally configured and ready to chat via ${id ?? 'Hermes'}.`);
  if (!configured) {
    return note(
      'needs_provider',
      'onboarding_notice_provider_choice_required',
      'Hermes is installed, but you still need to choose a provider and save working credentials.',
    );
  }
  if (id === 'custom' && !baseUrl) {
    return note('provider_incomplete', 'onboarding_notice_custom_base_url_required', 'The custom provider still needs a base URL.');
  }
  return note(
    'provider_incomplete',
    'onboarding_notice_provider_api_key_required',
    agent.provider.error ?? 'Hermes has a saved provider/model selection but still needs the API key required to chat.',
  );
}

/** The incumbent's `workspaces` block: the saved list and the last one used. */
export const workspacesBlock = (items: WorkspaceEntry[], last: string | null) => ({ items, last });
