import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AuthService } from '../auth/auth-service.js';
import { bodyFlag, jsonBody } from '../http/validate.js';
import { secureRequest } from '../http/auth-guard.js';
import { cookieProfile, profileCookie, requestHome, workspacesOf } from '../http/request-home.js';
import { BadRequest, Conflict } from '../ports/errors.js';
import { DEFAULT_PROFILE, PROFILE_NAME } from '../ports/hermes-home.js';
import { configModel, createProfile, profileRow, profileRows } from '../domain/profiles.js';
import { defaultWorkspaceFor } from './workspaces.js';

const NAME_RULE = 'Invalid profile name: lowercase letters, numbers, hyphens and underscores only (1-64, starting with a letter or number)';
const Name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .refine((n) => n === DEFAULT_PROFILE || PROFILE_NAME.test(n), NAME_RULE);
// One line of config.yaml or .env: no line break can smuggle in another key.
const OneLine = (field: string) =>
  z
    .string()
    .trim()
    .max(512, `${field} is too long`)
    .refine((v) => !/[\r\n\0]/.test(v), `${field} must be a single line`)
    .nullable()
    .optional()
    .transform((v) => v || null);

const NameBody = z.object({ name: Name });
const CreateBody = z.object({
  name: Name,
  clone_from: Name.nullable().optional(),
  // The incumbent reads it as Python truthiness: 1/0 as well as true/false.
  clone_config: bodyFlag.optional(),
  base_url: OneLine('base_url').refine((v) => !v || /^https?:\/\//.test(v), 'base_url must start with http:// or https://'),
  api_key: OneLine('api_key'),
  default_model: OneLine('default_model'),
  model_provider: OneLine('model_provider'),
});

/**
 * Hermes profiles (the incumbent's /api/profile* family). The choice is per browser: the
 * `hermes_profile` cookie, signed for the sign-in when a password is set.
 */
export function profileRoutes(deps: AppDeps, auth: AuthService) {
  const app = new Hono();

  app.get('/api/profiles', async (c) => {
    const active = (await requestHome(c, deps)).profile;
    return c.json({ profiles: await profileRows(deps.homes, active), active, single_profile_mode: !deps.homes.multiProfile });
  });

  app.get('/api/profile/active', async (c) => {
    const home = await requestHome(c, deps);
    return c.json({
      name: home.profile,
      path: home.root,
      is_default: home.profile === DEFAULT_PROFILE,
      default_workspace: await defaultWorkspaceFor(deps, workspacesOf(deps, home)).catch(() => null),
      multi_profile: deps.homes.multiProfile,
    });
  });

  app.post('/api/profile/switch', async (c) => {
    const { name } = await jsonBody(c, NameBody);
    const home = await deps.homes.get(name);
    c.header('Set-Cookie', await profileCookie(c, deps, home.profile, secureRequest(c, auth.config)));
    const { model, provider } = configModel((await home.config.readFiles()).configYaml);
    return c.json({
      profiles: await profileRows(deps.homes, home.profile),
      active: home.profile,
      is_default: home.profile === DEFAULT_PROFILE,
      default_model: model,
      default_model_provider: provider,
      default_workspace: await defaultWorkspaceFor(deps, workspacesOf(deps, home)).catch(() => null),
    });
  });

  app.post('/api/profile/create', async (c) => {
    const body = await jsonBody(c, CreateBody);
    if (body.name === DEFAULT_PROFILE) throw new BadRequest("Cannot create a profile named 'default': it is the built-in profile");
    const active = await requestHome(c, deps);
    const home = await createProfile(deps.homes, active, body);
    return c.json({ ok: true, profile: await profileRow(home, active.profile) });
  });

  app.post('/api/profile/delete', async (c) => {
    const { name } = await jsonBody(c, NameBody);
    if (name === DEFAULT_PROFILE) throw new BadRequest('The default profile cannot be deleted');
    // Only this browser's choice counts: another browser on the profile falls back to default.
    if ((await cookieProfile(c, deps)) === name) throw new Conflict(`'${name}' is this browser's active profile: switch to default first, then delete it`);
    await deps.homes.remove(name);
    return c.json({ ok: true, name });
  });

  return app;
}
