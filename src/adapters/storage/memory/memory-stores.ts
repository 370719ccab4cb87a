import { NotFound } from '../../../ports/errors.js';
import type { Project, ProjectStore } from '../../../ports/project-store.js';
import type { SettingsStore } from '../../../ports/settings-store.js';
import type { WorkspaceEntry, WorkspaceStore } from '../../../ports/workspace-store.js';

/** Settings kept in memory (tests, ephemeral embeds). */
export class MemorySettingsStore implements SettingsStore {
  #value: Record<string, unknown> = {};
  async read() {
    return structuredClone(this.#value);
  }
  async write(value: Record<string, unknown>) {
    this.#value = structuredClone(value);
  }
}

/** Projects kept in memory, in creation order. */
export class MemoryProjectStore implements ProjectStore {
  #projects: Project[] = [];
  async list() {
    return structuredClone(this.#projects);
  }
  async get(id: string) {
    return structuredClone(this.#projects.find((p) => p.project_id === id) ?? null);
  }
  async create(project: Project) {
    this.#projects.push(structuredClone(project));
    return structuredClone(project);
  }
  async update(id: string, patch: Partial<Pick<Project, 'name' | 'color'>>) {
    const project = this.#projects.find((p) => p.project_id === id);
    if (!project) throw new NotFound('Project not found');
    Object.assign(project, patch);
    return structuredClone(project);
  }
  async patchKeys(id: string, set: Record<string, unknown>, unset: readonly string[]) {
    const project = this.#projects.find((p) => p.project_id === id);
    if (!project) throw new NotFound('Project not found');
    for (const key of unset) delete project[key];
    Object.assign(project, structuredClone(set));
    return structuredClone(project);
  }
  async delete(id: string) {
    const before = this.#projects.length;
    this.#projects = this.#projects.filter((p) => p.project_id !== id);
    return this.#projects.length !== before;
  }
}

/** Workspaces kept in memory. */
export class MemoryWorkspaceStore implements WorkspaceStore {
  #entries: WorkspaceEntry[] = [];
  #last: string | null = null;
  /** As the fs adapter reads workspaces.json: an entry without a name is named by its path. */
  async list() {
    return this.#entries.filter((w) => w.path).map((w) => ({ path: w.path, name: w.name || w.path }));
  }
  async save(entries: WorkspaceEntry[]) {
    this.#entries = structuredClone(entries);
  }
  async getLast() {
    return this.#last;
  }
  async setLast(path: string) {
    this.#last = path;
  }
}
