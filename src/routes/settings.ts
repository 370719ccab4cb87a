import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { jsonBody } from '../http/validate.js';
import { SECRET_SETTINGS, SETTINGS_DEFAULTS, SettingsPatchSchema } from '../shared/settings.js';

/** Stored settings over the defaults, minus secrets. Unknown stored keys are shown as stored. */
async function effectiveSettings(deps: AppDeps) {
  const stored = await deps.settings.read();
  const merged: Record<string, unknown> = { ...SETTINGS_DEFAULTS, default_workspace: deps.options.defaultWorkspace, ...stored };
  for (const key of SECRET_SETTINGS) delete merged[key];
  return merged;
}

export function settingsRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/settings', async (c) =>
    c.json({ ...(await effectiveSettings(deps)), webui_version: deps.options.version, auth_enabled: false }),
  );

  app.post('/api/settings', async (c) => {
    const patch = await jsonBody(c, SettingsPatchSchema);
    if (patch.default_workspace !== undefined) {
      patch.default_workspace = await deps.files.checkWorkspace(patch.default_workspace, { create: true });
    }
    const stored = await deps.settings.read();
    await deps.settings.write({ ...stored, ...patch });
    return c.json({ ...(await effectiveSettings(deps)), webui_version: deps.options.version, auth_enabled: false });
  });

  return app;
}
