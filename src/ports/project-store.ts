export interface Project {
  project_id: string;
  name: string;
  color: string | null;
  profile: string | null;
  created_at: number;
  /** Bindings (POST /api/projects/bind), each absent when unbound. */
  workspaces?: string[];
  default_workspace?: string;
  /** The legacy single-workspace field, kept equal to `workspaces[0]`. */
  workspace?: string;
  auto_assign?: boolean;
  model?: string;
  model_provider?: string;
  reasoning_effort?: string;
  [key: string]: unknown;
}

/** Project groups for sessions (`projects.json` on the fs adapter). */
export interface ProjectStore {
  list(): Promise<Project[]>;
  get(id: string): Promise<Project | null>;
  create(project: Project): Promise<Project>;
  /** NotFound when unknown. */
  update(id: string, patch: Partial<Pick<Project, 'name' | 'color'>>): Promise<Project>;
  /**
   * Sets the keys in `set` and deletes those in `unset` on one project, leaving every other key
   * as stored (the bindings). NotFound when unknown.
   */
  patchKeys(id: string, set: Record<string, unknown>, unset: readonly string[]): Promise<Project>;
  /** True when something was deleted. */
  delete(id: string): Promise<boolean>;
}
