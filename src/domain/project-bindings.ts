import type { Project } from '../ports/project-store.js';

/**
 * Project bindings as the incumbent stores them in projects.json: `workspaces` (the bound list),
 * `default_workspace` (a member of it), the legacy `workspace` (kept equal to `workspaces[0]`),
 * `auto_assign` (true or absent), `model`, `model_provider` and `reasoning_effort`. An unbound
 * axis is an absent key, never a null. Pure: the route resolves paths and stores the result.
 */

/** The keys a bind request may write or delete; every other key of the project is left alone. */
export const BINDING_KEYS = ['workspaces', 'default_workspace', 'workspace', 'auto_assign', 'model', 'model_provider', 'reasoning_effort'] as const;
type BindingKey = (typeof BINDING_KEYS)[number];

/** A validated bind request with every workspace path already resolved (undefined: not sent). */
export interface BindRequest {
  workspaces?: string[] | null;
  default_workspace?: string | null;
  workspace?: string | null;
  auto_assign?: boolean | null;
  model?: string | null;
  model_provider?: string | null;
  reasoning_effort?: string | null;
}

/** The bound workspaces: the list first, else the legacy single field (rows from before lists). */
export function projectWorkspaces(p: Project): string[] {
  if (Array.isArray(p.workspaces)) return p.workspaces.filter((w): w is string => typeof w === 'string' && w.length > 0);
  return typeof p.workspace === 'string' && p.workspace ? [p.workspace] : [];
}

/** Where a new chat of the project starts: the default, else the first bound workspace. */
export function projectDefaultWorkspace(p: Project): string | null {
  const list = projectWorkspaces(p);
  if (typeof p.default_workspace === 'string' && list.includes(p.default_workspace)) return p.default_workspace;
  return list[0] ?? null;
}

const dedupe = (paths: string[]) => [...new Set(paths)];

/** A request that contradicts itself, naming the field at fault (the route answers 400). */
export class BindingConflict extends Error {}

/**
 * What a bind request changes: the keys to set and the keys to delete. Only the axes the request
 * names are touched, and afterwards `default_workspace` ∈ `workspaces` and `workspace` =
 * `workspaces[0]` hold whatever the project held before.
 */
export function planBindings(current: Project, req: BindRequest): { set: Partial<Record<BindingKey, unknown>>; unset: BindingKey[] } {
  checkConsistent(current, req);
  let list = projectWorkspaces(current);
  let def: string | null = typeof current.default_workspace === 'string' ? current.default_workspace : null;
  const touchesWorkspaces = req.workspaces !== undefined || req.workspace !== undefined || req.default_workspace !== undefined;

  if (req.workspaces !== undefined) {
    list = dedupe(req.workspaces ?? []);
    // Clearing the list clears the default with it; a default that left the list is dropped.
    if (def !== null && !list.includes(def)) def = null;
  } else if (req.workspace !== undefined) {
    // The legacy field binds exactly that one workspace.
    list = req.workspace === null ? [] : [req.workspace];
    def = req.workspace;
  }
  if (req.default_workspace !== undefined) {
    def = req.default_workspace;
    // A default outside the list joins it, so the invariant holds without a second request.
    if (def !== null && !list.includes(def)) list = [...list, def];
  }

  const set: Partial<Record<BindingKey, unknown>> = {};
  const unset: BindingKey[] = [];
  const put = (key: BindingKey, value: unknown) => (value === null || value === undefined ? unset.push(key) : (set[key] = value));
  if (touchesWorkspaces) {
    if (list.length) {
      set.workspaces = list;
      set.workspace = list[0];
      put('default_workspace', def !== null && list.includes(def) ? def : null);
    } else unset.push('workspaces', 'workspace', 'default_workspace');
  }
  if (req.auto_assign !== undefined) put('auto_assign', req.auto_assign ? true : null);
  if (req.model !== undefined) {
    put('model', req.model);
    // A provider means nothing without its model: unbinding the model unbinds both.
    if (req.model === null && req.model_provider === undefined) unset.push('model_provider');
  }
  if (req.model_provider !== undefined) put('model_provider', req.model_provider);
  if (req.reasoning_effort !== undefined) put('reasoning_effort', req.reasoning_effort);
  return { set, unset: [...new Set(unset)] };
}

function checkConsistent(current: Project, req: BindRequest): void {
  if (req.workspaces === null && typeof req.default_workspace === 'string') {
    throw new BindingConflict('default_workspace: cannot set a default while workspaces is cleared (null)');
  }
  if (req.workspaces !== undefined && req.workspace !== undefined && req.workspace !== (req.workspaces?.[0] ?? null)) {
    throw new BindingConflict('workspace: the legacy field must equal the first entry of workspaces when both are sent');
  }
  if (typeof req.model_provider === 'string') {
    const model = req.model !== undefined ? req.model : typeof current.model === 'string' ? current.model : null;
    if (!model) throw new BindingConflict('model_provider: needs a model (bind model too)');
  }
}

/**
 * The project that claims a new session started in `workspace` without a project: the first
 * project (in list order) of the same profile with `auto_assign` whose bound list holds it.
 */
export function autoAssignProject(projects: Project[], workspace: string, profile: string | null): string | null {
  const want = profile || 'default';
  const hit = projects.find((p) => p.auto_assign === true && (p.profile || 'default') === want && projectWorkspaces(p).includes(workspace));
  return hit?.project_id ?? null;
}
