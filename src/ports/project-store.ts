export interface Project {
  project_id: string;
  name: string;
  color: string | null;
  profile: string | null;
  created_at: number;
  [key: string]: unknown;
}

/** Project groups for sessions (`projects.json` on the fs adapter). */
export interface ProjectStore {
  list(): Promise<Project[]>;
  get(id: string): Promise<Project | null>;
  create(project: Project): Promise<Project>;
  /** NotFound when unknown. */
  update(id: string, patch: Partial<Pick<Project, 'name' | 'color'>>): Promise<Project>;
  /** True when something was deleted. */
  delete(id: string): Promise<boolean>;
}
