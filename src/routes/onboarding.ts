import { Hono, type Context } from 'hono';
import { requestSetup, requestWorkspaces } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AuthService } from '../auth/auth-service.js';
import { MIN_PASSWORD_LENGTH } from '../auth/auth-service.js';
import { bodyFlag, jsonBody, parseWith } from '../http/validate.js';
import { authEnabled, secureRequest } from '../http/auth-guard.js';
import { clientOf } from '../http/client.js';
import { BadRequest, Conflict, Forbidden, NotFound } from '../ports/errors.js';
import { BACKEND_FIXED, DEFAULT_GATEWAY_URL } from '../agent/backend-choice.js';
import type { SetupProviderOption } from '../agent/setup.js';
import { SETTINGS_DEFAULTS } from '../shared/settings.js';
import { patchSettings } from '../domain/settings-patch.js';
import { setupCatalog, setupState, workspacesBlock } from './onboarding-incumbent.js';
import { modelCatalog } from './models.js';
import { listWorkspaces } from './workspaces.js';

const PROVIDERS = ['openrouter', 'anthropic', 'openai', 'ollama', 'lmstudio', 'custom', 'gateway'] as const;

/** The wizard's "your own Hermes Agent" choice: a gateway (API server) instead of the builtin agent. */
const GATEWAY_OPTION: SetupProviderOption = {
  id: 'gateway',
  label: 'Hermes Agent (API server)',
  group: 'agent',
  needs_key: false,
  key_optional: true,
  key_set: false,
  key_env: 'HERMES_WEBUI_GATEWAY_API_KEY',
  default_base_url: DEFAULT_GATEWAY_URL,
  base_url_editable: true,
  sample_models: [],
};

const noLineBreaks = (s: string) => !/[\r\n\0]/.test(s);

const ProbeBody = z
  .object({
    provider: z.string().trim().min(1, 'provider is required').max(128),
    base_url: z.string().max(2048).optional(),
    api_key: z.string().max(4096).refine(noLineBreaks, 'api_key must be one line').optional(),
  })
  // The incumbent's wizard sends more than this needs; extra fields are ignored, as it does.
  .strip();

const SetupBody = z
  .object({
    provider: z.enum(PROVIDERS, { error: `provider must be one of ${PROVIDERS.join(', ')}` }),
    // The gateway's own agent picks its model; every other provider needs one.
    model: z.string().trim().max(256).refine(noLineBreaks, 'model must be one line').optional(),
    base_url: z.string().max(2048).optional(),
    api_key: z.string().max(4096).refine(noLineBreaks, 'api_key must be one line').optional(),
    workspace: z.string().trim().min(1).max(4096).optional(),
    password: z.string().min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024).optional(),
    // The incumbent's "yes, replace my config.yaml". Setup here edits config.yaml in place (comments
    // and every other key kept), so there is nothing to confirm: accepted, not needed.
    confirm_overwrite: bodyFlag.optional(),
  })
  .strip();

const GatewayUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s/?#@]+/i.test(v) && URL.canParse(v), 'base_url must be an http(s) URL like http://127.0.0.1:8642 (no user or password in it)')
  .transform((v) => v.replace(/\/+$/, ''));

/** Tries a Hermes Agent API server: reachable, which path, what it cannot do, its models (probe shape). */
async function probeGateway(deps: AppDeps, baseUrl: string | undefined, apiKey: string | undefined) {
  const backend = deps.agent.backend;
  if (backend.fixed) throw new Conflict(BACKEND_FIXED);
  const parsed = GatewayUrl.safeParse(baseUrl?.trim() || DEFAULT_GATEWAY_URL);
  if (!parsed.success) return { ok: false, error: 'invalid_url', detail: parsed.error.issues[0]!.message };
  const { info, models } = await backend.probeGateway(parsed.data, apiKey?.trim() || undefined);
  if (!info.reachable) {
    const detail = [info.error, info.hint].filter(Boolean).join(' ');
    const kind = /401|403|key/i.test(detail)
      ? 'http_4xx'
      : /refused|ECONNREFUSED/i.test(detail)
        ? 'connect_refused'
        : /timed out|timeout/i.test(detail)
          ? 'timeout'
          : 'unreachable';
    return { ok: false, error: kind, detail: detail || `Hermes Agent did not answer at ${parsed.data}` };
  }
  return { ok: true, base_url: parsed.data, models: models?.groups.flatMap((g) => g.models) ?? [], agent: info };
}

export const SETUP_REFUSED =
  'Setup can only be done from the machine Hermes runs on (open it at http://127.0.0.1), or after a password is set (HERMES_WEBUI_PASSWORD). HERMES_WEBUI_ONBOARDING_OPEN=1 lifts this.';

/** Configuring the agent changes what runs on this machine: loopback, a signed-in user, or an explicit opt-in. */
export function maySetup(c: Context, deps: AppDeps): boolean {
  return authEnabled(c) || clientOf(c, deps).local || !!deps.options.onboarding?.open;
}

export function requireSetupAllowed(c: Context, deps: AppDeps): void {
  if (!maySetup(c, deps)) throw new Forbidden(SETUP_REFUSED);
}

/** `/api/onboarding/*`: the first-run wizard's status, probe, setup and completion (the incumbent's paths). */
export function onboardingRoutes(deps: AppDeps, auth: AuthService) {
  const app = new Hono();

  const status = async (c: Context) => {
    const settings: Record<string, unknown> = { ...SETTINGS_DEFAULTS, ...(await deps.settings.read()) };
    const setup = await requestSetup(c, deps);
    const backend = deps.agent.backend;
    const choice = await backend.current();
    const onGateway = choice.backend === 'gateway';
    const agent = setup
      ? await setup.status()
      : {
          config_path: '',
          env_path: '',
          config_exists: false,
          config_error: null,
          agent_runtime: deps.agent.runtime.kind,
          provider: { id: null, usable: true, error: null },
          default_model: null,
          providers: [],
        };
    const skip = !!deps.options.onboarding?.skip;
    const done = settings.onboarding_completed === true;
    const defaultWorkspace =
      typeof settings.default_workspace === 'string' && settings.default_workspace ? settings.default_workspace : deps.options.defaultWorkspace;
    const passwordEnabled = await auth.enabled();
    const chatReady = onGateway || agent.provider.usable;
    // A config.yaml that does not parse has no address to read (config_error says why).
    const baseUrl = setup && !agent.config_error ? ((await setup.providers()).providers.find((p) => p.active)?.base_url ?? null) : null;
    const providers = backend.fixed ? agent.providers : [...agent.providers, GATEWAY_OPTION];
    const workspaces = await requestWorkspaces(c, deps);
    return {
      ...agent,
      // The incumbent's nested blocks, for its clients (our wizard reads the flat fields beside them).
      system: {
        hermes_found: true,
        imports_ok: true,
        missing_modules: [],
        import_errors: {},
        config_path: agent.config_path,
        config_exists: agent.config_exists,
        env_path: agent.env_path,
        provider_configured: !!agent.provider.id,
        provider_ready: agent.provider.usable,
        chat_ready: chatReady,
        ...setupState(agent, chatReady, baseUrl),
        current_provider: agent.provider.id ?? null,
        current_model: agent.default_model ?? null,
        current_base_url: baseUrl,
      },
      setup: setupCatalog(providers, agent, baseUrl),
      models: await modelCatalog(c, deps),
      settings: {
        default_model: agent.default_model ?? null,
        default_workspace: defaultWorkspace,
        password_enabled: passwordEnabled,
        bot_name: settings.bot_name,
      },
      providers,
      backend: choice.backend,
      // No address to show where the environment fixes the builtin agent.
      gateway_base_url: backend.fixed && !onGateway ? null : choice.gatewayBaseUrl,
      // Who answers is fixed by HERMES_WEBUI_CHAT_BACKEND: the wizard cannot switch it.
      backend_fixed: backend.fixed,
      needed: !!setup && !skip && !done && !onGateway && !agent.provider.usable,
      completed: skip || done || onGateway || agent.provider.usable,
      onboarding_completed: done,
      skip,
      may_setup: maySetup(c, deps),
      hermes_found: true,
      imports_ok: true,
      default_workspace: defaultWorkspace,
      // The incumbent's shape: the saved list and the last one used.
      workspaces: workspacesBlock(await listWorkspaces(deps, workspaces), (await workspaces.getLast()) ?? deps.options.defaultWorkspace),
      password_enabled: passwordEnabled,
      bot_name: settings.bot_name,
    };
  };

  app.get('/api/onboarding/status', async (c) => c.json(await status(c)));

  app.post('/api/onboarding/probe', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, ProbeBody);
    if (b.provider === 'gateway') return c.json(await probeGateway(deps, b.base_url, b.api_key));
    const setup = await requestSetup(c, deps);
    if (!setup) throw new NotFound('This agent is configured outside Hermes WebUI');
    return c.json(await setup.probe(b));
  });

  app.post('/api/onboarding/setup', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, SetupBody);
    const backend = deps.agent.backend;
    if (b.provider === 'gateway' && backend.fixed) throw new Conflict(BACKEND_FIXED);
    const setup = await requestSetup(c, deps);
    if (!setup) throw new NotFound('This agent is configured outside Hermes WebUI');
    // Everything that can be refused is checked before anything is written.
    const workspace = b.workspace ? await deps.files.checkWorkspace(b.workspace, { create: true }) : null;
    if (b.password !== undefined && (await auth.enabled())) throw new Conflict('A password is already set; change it in Settings → Security');
    const patch: Record<string, unknown> = {};
    if (b.provider === 'gateway') {
      const url = parseWith(GatewayUrl, b.base_url?.trim() || DEFAULT_GATEWAY_URL);
      Object.assign(patch, await backend.settingsFor({ backend: 'gateway', gatewayBaseUrl: url }));
      if (b.api_key?.trim()) {
        if (!setup.saveGatewayKey) throw new BadRequest('This server cannot keep a gateway key; set HERMES_WEBUI_GATEWAY_API_KEY');
        await setup.saveGatewayKey(b.api_key);
      }
    } else {
      if (!b.model) throw new BadRequest('model is required');
      // Choosing a model provider means the builtin agent answers again (where that is a choice).
      if (!backend.fixed) Object.assign(patch, await backend.settingsFor({ backend: 'builtin' }));
      await setup.apply({ provider: b.provider, model: b.model, base_url: b.base_url, api_key: b.api_key });
    }
    if (workspace) patch.default_workspace = workspace;
    if (Object.keys(patch).length) await patchSettings(deps.settings, patch);
    if (workspace) await (await requestWorkspaces(c, deps)).setLast(workspace);
    if (b.password !== undefined) {
      await auth.setStoredPassword(b.password);
      c.header('Set-Cookie', auth.sessionCookie(await auth.openSession(), secureRequest(c, auth.config)));
    }
    return c.json(await status(c));
  });

  app.post('/api/onboarding/complete', async (c) => {
    requireSetupAllowed(c, deps);
    await patchSettings(deps.settings, { onboarding_completed: true });
    // The incumbent answers its status after completing; `ok` stays for our own clients.
    return c.json({ ...(await status(c)), ok: true, completed: true });
  });

  return app;
}
