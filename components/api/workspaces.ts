import type { WorkspaceEntry } from '../../src/ports/workspace-store.js';
import { q, request } from './client.js';

export type { WorkspaceEntry };

type WorkspaceList = { ok: true; workspaces: WorkspaceEntry[] };

/** The saved workspaces (the incumbent's /api/workspaces family) and "Add folder…" completion. */
export const workspacesApi = {
  list: () => request<{ workspaces: WorkspaceEntry[]; last: string }>('GET', '/api/workspaces'),
  /** Folders under the trusted roots whose path starts with `prefix` (at most 12). */
  suggest: (prefix: string) => request<{ suggestions: string[]; prefix: string }>('GET', `/api/workspaces/suggest?${q({ prefix })}`).then((r) => r.suggestions),
  add: (path: string, name?: string) => request<WorkspaceList>('POST', '/api/workspaces/add', { path, ...(name ? { name } : {}) }).then((r) => r.workspaces),
  remove: (path: string) => request<WorkspaceList>('POST', '/api/workspaces/remove', { path }).then((r) => r.workspaces),
  rename: (path: string, name: string) => request<WorkspaceList>('POST', '/api/workspaces/rename', { path, name }).then((r) => r.workspaces),
  reorder: (paths: string[]) => request<WorkspaceList>('POST', '/api/workspaces/reorder', { paths }).then((r) => r.workspaces),
};
