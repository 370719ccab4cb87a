import { request, type ApiSession, type Project } from './client.js';

/** The fields of POST /api/projects/bind: each optional, `null` unbinds that axis. */
export interface ProjectBindings {
  workspaces?: string[] | null;
  default_workspace?: string | null;
  auto_assign?: boolean | null;
  model?: string | null;
  model_provider?: string | null;
  reasoning_effort?: string | null;
}

/** What a project binds, read with the legacy single `workspace` as the list's fallback. */
export function boundWorkspaces(p: Project): string[] {
  if (Array.isArray(p.workspaces)) return p.workspaces.filter((w) => typeof w === 'string' && w);
  return typeof p.workspace === 'string' && p.workspace ? [p.workspace] : [];
}

/** Where a new chat of the project starts: its default, else its first workspace. */
export function defaultWorkspaceOf(p: Project): string | null {
  const list = boundWorkspaces(p);
  return typeof p.default_workspace === 'string' && list.includes(p.default_workspace) ? p.default_workspace : (list[0] ?? null);
}

export const projectsApi = {
  bind: (projectId: string, fields: ProjectBindings) =>
    request<{ ok: true; project: Project }>('POST', '/api/projects/bind', { project_id: projectId, ...fields }).then((r) => r.project),
  /**
   * A session already configured for the project: its default workspace and model, filed in it.
   * The bound reasoning effort is not sent: it is stored only (reasoning is config.yaml's).
   */
  newSession: (p: Project) => {
    const workspace = defaultWorkspaceOf(p);
    return request<{ session: ApiSession }>('POST', '/api/session/new', {
      project_id: p.project_id,
      ...(workspace ? { workspace } : {}),
      ...(p.model ? { model: p.model, ...(p.model_provider ? { model_provider: p.model_provider } : {}) } : {}),
    }).then((r) => r.session);
  },
};
