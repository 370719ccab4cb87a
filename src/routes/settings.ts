import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AuthService } from '../auth/auth-service.js';
import { MIN_PASSWORD_LENGTH } from '../auth/auth-service.js';
import { bodyFlag, jsonBody, parseWith } from '../http/validate.js';
import { authSession, secureRequest } from '../http/auth-guard.js';
import { clientOf } from '../http/client.js';
import { BadRequest, Conflict, Forbidden } from '../ports/errors.js';
import { LEGACY_THEME_SKINS, SECRET_SETTINGS, SETTINGS_DEFAULTS, SettingsPatchSchema } from '../shared/settings.js';
import { IncumbentSettingsSchema } from '../shared/settings-incumbent.js';
import { tooManyAttempts } from './auth.js';
import { patchSettings } from '../domain/settings-patch.js';

/** Password management rides on POST /api/settings, as in the incumbent. */
const PasswordChangeSchema = z
  .object({
    _set_password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `_set_password: the password must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024, '_set_password: the password must be at most 1024 characters'),
    _current_password: z.string().max(1024),
    _clear_password: bodyFlag,
  })
  .partial()
  .strict();

/** Stored settings over the defaults, minus secrets. Unknown stored keys are shown as stored. */
async function effectiveSettings(deps: AppDeps, auth: AuthService) {
  const stored = await deps.settings.read();
  const merged: Record<string, unknown> = { ...SETTINGS_DEFAULTS, default_workspace: deps.options.defaultWorkspace, ...stored };
  for (const key of SECRET_SETTINGS) delete merged[key];
  const enabled = await auth.enabled();
  const choice = await deps.agent.backend.current();
  return {
    ...merged,
    // Who answers turns as it is now; `chat_backend_fixed`: HERMES_WEBUI_CHAT_BACKEND decides, not Settings.
    chat_backend: choice.backend,
    gateway_base_url: choice.gatewayBaseUrl,
    chat_backend_fixed: deps.agent.backend.fixed,
    webui_version: deps.options.version,
    auth_enabled: enabled,
    password_auth_enabled: enabled,
    password_env_var: auth.passwordFromEnv,
    // The incumbent's passkey flags: no passkeys here, so never on.
    passkeys_enabled: false,
    passwordless_enabled: false,
    features: deps.options.features ?? { files: true, uploads: true, terminal: true },
  };
}

export function settingsRoutes(deps: AppDeps, auth: AuthService) {
  const app = new Hono();

  app.get('/api/settings', async (c) => c.json(await effectiveSettings(deps, auth)));

  app.post('/api/settings', async (c) => {
    const body = await jsonBody(c, z.record(z.string(), z.unknown()));
    // The incumbent's passwordless sign-in needs passkeys, which this server does not have (its 409).
    if (body._passwordless) throw new Conflict('Passkeys are not supported here, so the password cannot be replaced by one; it stays as it is');
    // Its "I know there is no password" acknowledgement: no such warning here, so accepted and not stored.
    const ack = parseWith(z.object({ _auth_disabled_acknowledged: bodyFlag.optional() }), { _auth_disabled_acknowledged: body._auth_disabled_acknowledged });
    const passwordKeys = Object.fromEntries(
      Object.entries(body).filter(([k]) => k.startsWith('_') && k !== '_auth_disabled_acknowledged' && k !== '_passwordless'),
    );
    // Everything is checked before anything is stored.
    const change = parseWith(PasswordChangeSchema, passwordKeys);
    const { known, ignored } = splitSettingKeys(body);
    if (ack._auth_disabled_acknowledged !== undefined) ignored.push('_auth_disabled_acknowledged');
    const { chat_backend, gateway_base_url, ...patch } = parseWith(SettingsPatchSchema, known);
    // Who answers is the backend's to check (409 where the environment decides it).
    const backendChange = {
      ...(chat_backend !== undefined ? { backend: chat_backend } : {}),
      ...(gateway_base_url !== undefined ? { gatewayBaseUrl: gateway_base_url } : {}),
    };
    if (Object.keys(backendChange).length) Object.assign(patch, await deps.agent.backend.settingsFor(backendChange));
    if (patch.default_workspace !== undefined) {
      patch.default_workspace = await deps.files.checkWorkspace(patch.default_workspace, { create: true });
    }
    const enabledBefore = await auth.enabled();
    let signedInNow = false;
    if (change._set_password !== undefined || change._clear_password) signedInNow = await changePassword(c, deps, auth, change);
    if (Object.keys(patch).length) {
      await patchSettings(deps.settings, patch);
    }
    // What was accepted but not kept (the incumbent's keys this server has no use for, unknown ones).
    const settings = await effectiveSettings(deps, auth);
    // The incumbent's after-save auth fields: its panel reloads into the sign-in page when they say so.
    const loggedIn = !settings.auth_enabled || signedInNow || (!!authSession(c) && change._clear_password !== true);
    return c.json({
      ...settings,
      logged_in: loggedIn,
      auth_just_enabled: !enabledBefore && settings.auth_enabled,
      ...(ignored.length ? { ignored_keys: ignored } : {}),
    });
  });

  return app;
}

/**
 * This project's keys (checked, stored), the incumbent's keys it has no use for (checked, not
 * stored) and keys nobody knows (not stored, as the incumbent ignores them). The incumbent's two
 * legacy names still set what they were renamed to. A secret is never settable.
 */
function splitSettingKeys(body: Record<string, unknown>): { known: Record<string, unknown>; ignored: string[] } {
  // Null-prototype maps and own-key checks: a "__proto__" or "constructor" key is just a name here.
  const known: Record<string, unknown> = Object.create(null);
  const incumbent: Record<string, unknown> = Object.create(null);
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('_')) continue;
    if ((SECRET_SETTINGS as readonly string[]).includes(key)) throw new BadRequest(`${key} cannot be set; use _set_password to change the password`);
    if (Object.hasOwn(SettingsPatchSchema.shape, key)) known[key] = value;
    else {
      if (Object.hasOwn(IncumbentSettingsSchema.shape, key)) incumbent[key] = value;
      ignored.push(key);
    }
  }
  const legacy = parseWith(IncumbentSettingsSchema, incumbent);
  if (legacy.activity_feed_expanded_default !== undefined && known.worklog_details_expanded_default === undefined) {
    known.worklog_details_expanded_default = legacy.activity_feed_expanded_default;
    ignored.splice(ignored.indexOf('activity_feed_expanded_default'), 1);
  }
  if (legacy.busy_input_mode !== undefined && known.default_message_mode === undefined) {
    known.default_message_mode = legacy.busy_input_mode;
    ignored.splice(ignored.indexOf('busy_input_mode'), 1);
  }
  // A retired theme name without a skin beside it picks the skin it became, as the incumbent does.
  const theme = typeof known.theme === 'string' ? known.theme.trim().toLowerCase() : '';
  if (Object.hasOwn(LEGACY_THEME_SKINS, theme) && known.skin === undefined) known.skin = LEGACY_THEME_SKINS[theme];
  return { known, ignored };
}

/** Changes or clears the password; true when this request was signed in by it (a first password). */
async function changePassword(c: Context, deps: AppDeps, auth: AuthService, change: z.infer<typeof PasswordChangeSchema>): Promise<boolean> {
  if (change._set_password !== undefined && change._clear_password) throw new BadRequest('Send either _set_password or _clear_password, not both');
  if (auth.passwordFromEnv) throw new Conflict('The password is set by HERMES_WEBUI_PASSWORD; change or unset it there and restart Hermes');
  const client = clientOf(c, deps);
  if (await auth.enabled()) {
    // A signed-in browser left open is not enough to change or remove the password.
    // 403 as the incumbent: its settings panel shows the refusal beside the password field.
    if (!change._current_password) throw new Forbidden('Current password is required to change or disable authentication (_current_password)');
    const wait = await auth.retryAfter(client.address);
    if (wait) throw tooManyAttempts(wait);
    if (!(await auth.checkPassword(change._current_password))) {
      await auth.recordFailure(client.address);
      throw new Forbidden('Current password is incorrect');
    }
  } else {
    if (change._clear_password) return false;
    // With no password yet, anyone who can reach the server could claim it: only this machine may.
    if (!client.local) throw new Forbidden('The first password can only be set from this machine (open Hermes at http://127.0.0.1 on the server itself)');
  }
  const secure = secureRequest(c, auth.config);
  if (change._clear_password) {
    if (deps.options.auth?.publicBind) {
      throw new Conflict('Hermes is listening on a non-loopback address; clearing the password would leave it open. Bind it to 127.0.0.1 first.');
    }
    await auth.setStoredPassword(null);
    await auth.revokeAll();
    c.header('Set-Cookie', auth.clearCookie(secure));
    return false;
  }
  await auth.setStoredPassword(change._set_password!);
  // Other browsers signed in with the old password are signed out; this one stays (or is signed in).
  const current = authSession(c);
  await auth.revokeAll(current);
  if (!current) c.header('Set-Cookie', auth.sessionCookie(await auth.openSession(), secure));
  return !current;
}
