import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AuthService } from '../auth/auth-service.js';
import { MIN_PASSWORD_LENGTH } from '../auth/auth-service.js';
import { jsonBody } from '../http/validate.js';
import { authEnabled, secureRequest } from '../http/auth-guard.js';
import { clientOf } from '../http/client.js';
import { Conflict, Forbidden, NotFound } from '../ports/errors.js';
import { SETTINGS_DEFAULTS } from '../shared/settings.js';

const PROVIDERS = ['openrouter', 'anthropic', 'openai', 'ollama', 'lmstudio', 'custom'] as const;
const noLineBreaks = (s: string) => !/[\r\n\0]/.test(s);

const ProbeBody = z
  .object({
    provider: z.string().trim().min(1, 'provider is required').max(128),
    base_url: z.string().max(2048).optional(),
    api_key: z.string().max(4096).refine(noLineBreaks, 'api_key must be one line').optional(),
  })
  .strict();

const SetupBody = z
  .object({
    provider: z.enum(PROVIDERS, { error: `provider must be one of ${PROVIDERS.join(', ')}` }),
    model: z.string().trim().min(1, 'model is required').max(256).refine(noLineBreaks, 'model must be one line'),
    base_url: z.string().max(2048).optional(),
    api_key: z.string().max(4096).refine(noLineBreaks, 'api_key must be one line').optional(),
    workspace: z.string().trim().min(1).max(4096).optional(),
    password: z.string().min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024).optional(),
  })
  .strict();

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
    const setup = deps.agent.runtime.setup;
    const agent = setup
      ? await setup.status()
      : { config_path: '', env_path: '', config_exists: false, config_error: null, agent_runtime: deps.agent.runtime.kind, provider: { id: null, usable: true, error: null }, default_model: null, providers: [] };
    const skip = !!deps.options.onboarding?.skip;
    const done = settings.onboarding_completed === true;
    return {
      ...agent,
      needed: !!setup && !skip && !done && !agent.provider.usable,
      completed: skip || done || agent.provider.usable,
      onboarding_completed: done,
      skip,
      may_setup: maySetup(c, deps),
      hermes_found: true,
      imports_ok: true,
      default_workspace: typeof settings.default_workspace === 'string' && settings.default_workspace ? settings.default_workspace : deps.options.defaultWorkspace,
      workspaces: await deps.workspaces.list(),
      password_enabled: await auth.enabled(),
      bot_name: settings.bot_name,
    };
  };

  app.get('/api/onboarding/status', async (c) => c.json(await status(c)));

  app.post('/api/onboarding/probe', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, ProbeBody);
    const setup = deps.agent.runtime.setup;
    if (!setup) throw new NotFound('This agent is configured outside Hermes WebUI');
    return c.json(await setup.probe(b));
  });

  app.post('/api/onboarding/setup', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, SetupBody);
    const setup = deps.agent.runtime.setup;
    if (!setup) throw new NotFound('This agent is configured outside Hermes WebUI');
    // Everything that can be refused is checked before anything is written.
    const workspace = b.workspace ? await deps.files.checkWorkspace(b.workspace, { create: true }) : null;
    if (b.password !== undefined && (await auth.enabled())) throw new Conflict('A password is already set; change it in Settings → Security');
    await setup.apply({ provider: b.provider, model: b.model, base_url: b.base_url, api_key: b.api_key });
    if (workspace) {
      await deps.settings.write({ ...(await deps.settings.read()), default_workspace: workspace });
      await deps.workspaces.setLast(workspace);
    }
    if (b.password !== undefined) {
      await auth.setStoredPassword(b.password);
      c.header('Set-Cookie', auth.sessionCookie(await auth.openSession(), secureRequest(c, auth.config)));
    }
    return c.json(await status(c));
  });

  app.post('/api/onboarding/complete', async (c) => {
    requireSetupAllowed(c, deps);
    await deps.settings.write({ ...(await deps.settings.read()), onboarding_completed: true });
    return c.json({ ok: true, completed: true });
  });

  return app;
}
