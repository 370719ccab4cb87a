import { NotFound } from '../../../ports/errors.js';
import type { Project, ProjectStore } from '../../../ports/project-store.js';
import type { Sql } from './pg-client.js';

const isProject = (v: unknown): v is Project => !!v && typeof v === 'object' && typeof (v as Project).project_id === 'string';

/**
 * Project groups, one row each (`projects`): the project's JSON, in creation order. An edit
 * reads the row under a row lock, changes it as the fs adapter changes its list entry, and
 * writes it back in the same transaction: edits from several instances queue on the row and
 * none undoes another, and the keys keep their order.
 */
export class PgProjectStore implements ProjectStore {
  constructor(readonly sql: Sql) {}

  async list(): Promise<Project[]> {
    const rows = await this.sql<{ body: unknown }[]>`SELECT body FROM projects ORDER BY position`;
    return rows.map((r) => r.body).filter(isProject);
  }

  async get(id: string): Promise<Project | null> {
    const [row] = await this.sql<{ body: unknown }[]>`SELECT body FROM projects WHERE project_id = ${id}`;
    return isProject(row?.body) ? row.body : null;
  }

  /** Stores the project (one with the same id is replaced and keeps its place). */
  async create(project: Project): Promise<Project> {
    await this.sql`
      INSERT INTO projects (project_id, body) VALUES (${project.project_id}, ${JSON.stringify(project)}::text::json)
      ON CONFLICT (project_id) DO UPDATE SET body = excluded.body`;
    return structuredClone(project);
  }

  update(id: string, patch: Partial<Pick<Project, 'name' | 'color'>>): Promise<Project> {
    return this.#edit(id, (project) => {
      for (const key of ['name', 'color'] as const) if (patch[key] !== undefined) project[key] = patch[key] as never;
    });
  }

  patchKeys(id: string, set: Record<string, unknown>, unset: readonly string[]): Promise<Project> {
    return this.#edit(id, (project) => {
      for (const key of unset) delete project[key];
      Object.assign(project, structuredClone(set));
    });
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.sql`DELETE FROM projects WHERE project_id = ${id} RETURNING 1`;
    return rows.length > 0;
  }

  async #edit(id: string, change: (project: Project) => void): Promise<Project> {
    return this.sql.begin(async (tx) => {
      const [row] = await tx<{ body: unknown }[]>`SELECT body FROM projects WHERE project_id = ${id} FOR UPDATE`;
      if (!isProject(row?.body)) throw new NotFound('Project not found');
      const project = row.body;
      change(project);
      await tx`UPDATE projects SET body = ${JSON.stringify(project)}::text::json WHERE project_id = ${id}`;
      return project;
    }) as Promise<Project>;
  }
}
