import { Hono } from 'hono';
import { requestWorkspaces } from '../http/request-home.js';
import type { WorkspaceStore } from '../ports/workspace-store.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotFound } from '../ports/errors.js';
import type { WorkspaceEntry } from '../ports/workspace-store.js';
import { bodyFlag, jsonBody, queryParams } from '../http/validate.js';

// The incumbent trims every field and answers its own texts for what is missing.
const PathField = (message: string) => z.string({ error: message }).trim().min(1, message).max(4096);
const Name = z.string().trim().max(128);
const AddBody = z.object({ path: PathField('path is required'), name: Name.optional(), create: bodyFlag.optional() });
const RemoveBody = z.object({ path: PathField('path is required') });
// Either missing is one text in the incumbent: checked in the handler.
const RenameBody = z.object({ path: z.string().trim().max(4096).optional(), name: Name.optional() });
const ReorderBody = z.object({ paths: z.array(z.string().trim(), { error: 'paths is required and must be a list' }).max(1000) });
const SuggestQuery = z.object({
  prefix: z
    .string()
    .max(4096, 'prefix is too long')
    .refine((p) => !p.includes('\0'), 'prefix must not contain NUL')
    .optional(),
});
/** The incumbent's cap on completions. */
const SUGGEST_LIMIT = 12;

const baseName = (path: string) => path.replace(/\/+$/, '').split('/').pop() || path;

/**
 * A pasted folder as the incumbent reads it: Finder's "Copy as Pathname" quotes stripped and
 * `~` expanded to the server user's home (Workers has none: the path stays as typed).
 */
export function workspaceInput(raw: string, homeDir: string | undefined): string {
  let path = raw.trim();
  const quoted = /^(['"])(.*)\1$/.exec(path);
  if (quoted) path = (quoted[2] ?? '').trim();
  if (homeDir && (path === '~' || path.startsWith('~/'))) path = homeDir.replace(/\/+$/, '') + path.slice(1);
  return path;
}

/** The registered workspaces; an empty list reads as the default workspace, named "Home". */
export async function listWorkspaces(deps: Pick<AppDeps, 'options'>, store: WorkspaceStore): Promise<WorkspaceEntry[]> {
  const list = await store.list();
  return list.length ? list : [{ path: deps.options.defaultWorkspace, name: 'Home' }];
}

/**
 * Where a new session works: the last workspace used if it still exists, else the
 * `default_workspace` setting, else the server's default.
 */
export async function defaultWorkspaceFor(deps: AppDeps, store: WorkspaceStore): Promise<string> {
  const last = await store.getLast();
  const settings = await deps.settings.read();
  for (const candidate of [last, settings.default_workspace]) {
    if (typeof candidate === 'string' && candidate) {
      const ok = await deps.files.checkWorkspace(candidate).catch(() => null);
      if (ok) return ok;
    }
  }
  return deps.options.defaultWorkspace;
}

export function workspaceRoutes(deps: AppDeps) {
  const app = new Hono();
  // An emptied list reads as Home here too, as GET /api/workspaces reads it.
  const reply = async (store: WorkspaceStore, entries?: WorkspaceEntry[]) => ({
    ok: true,
    workspaces: entries?.length ? entries : await listWorkspaces(deps, store),
  });

  // Each profile has its own list (the browser's profile).
  app.get('/api/workspaces', async (c) => {
    const store = await requestWorkspaces(c, deps);
    return c.json({
      workspaces: await listWorkspaces(deps, store),
      last: (await store.getLast()) ?? deps.options.defaultWorkspace,
      // The incumbent's flag for a remote terminal backend; this server's terminal is always local.
      terminal_remote_backend: false,
    });
  });

  // "Add folder…" path completion, the incumbent's shape: {suggestions, prefix}.
  app.get('/api/workspaces/suggest', async (c) => {
    const { prefix = '' } = queryParams(c, SuggestQuery);
    const roots = [deps.options.defaultWorkspace, ...(await (await requestWorkspaces(c, deps)).list()).map((w) => w.path)];
    const suggestions = (await deps.folders?.suggest(prefix, { roots, limit: SUGGEST_LIMIT })) ?? [];
    return c.json({ suggestions, prefix });
  });

  app.post('/api/workspaces/add', async (c) => {
    const b = await jsonBody(c, AddBody);
    const store = await requestWorkspaces(c, deps);
    const path = await deps.files.checkWorkspace(workspaceInput(b.path, deps.options.machine?.homeDir), { create: b.create ?? false });
    const list = await listWorkspaces(deps, store);
    if (list.some((w) => w.path === path)) throw new BadRequest('Workspace already in list');
    // An empty name falls back to the folder's, as in the incumbent.
    list.push({ path, name: b.name || baseName(path) });
    await store.save(list);
    return c.json(await reply(store, list));
  });

  app.post('/api/workspaces/remove', async (c) => {
    const b = await jsonBody(c, RemoveBody);
    const store = await requestWorkspaces(c, deps);
    const list = (await listWorkspaces(deps, store)).filter((w) => w.path !== b.path);
    await store.save(list);
    return c.json(await reply(store, list));
  });

  app.post('/api/workspaces/rename', async (c) => {
    const b = await jsonBody(c, RenameBody);
    if (!b.path || !b.name) throw new BadRequest('path and name are required');
    const store = await requestWorkspaces(c, deps);
    const list = await listWorkspaces(deps, store);
    const entry = list.find((w) => w.path === b.path);
    if (!entry) throw new NotFound('Workspace not found');
    entry.name = b.name;
    await store.save(list);
    return c.json(await reply(store, list));
  });

  app.post('/api/workspaces/reorder', async (c) => {
    const b = await jsonBody(c, ReorderBody);
    const store = await requestWorkspaces(c, deps);
    const list = await listWorkspaces(deps, store);
    const byPath = new Map(list.map((w) => [w.path, w]));
    const ordered = [...new Set(b.paths)].flatMap((p) => byPath.get(p) ?? []);
    const rest = list.filter((w) => !ordered.includes(w));
    const next = [...ordered, ...rest];
    await store.save(next);
    return c.json(await reply(store, next));
  });

  return app;
}
