import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFound } from '../../../ports/errors.js';
import type { Logger } from '../../../ports/platform.js';
import type { Project, ProjectStore } from '../../../ports/project-store.js';
import type { SettingsStore } from '../../../ports/settings-store.js';
import type { WorkspaceEntry, WorkspaceStore } from '../../../ports/workspace-store.js';
import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import { pythonJson, readTextIfExists, writeFileAtomic } from './atomic-file.js';

/**
 * A JSON file in the state directory, read on demand and replaced atomically. An unreadable
 * file reads as `fallback` and is logged, never silently rewritten until the user changes it.
 */
class JsonFile<T> {
  #lock = new KeyedMutex();
  constructor(
    readonly path: string,
    readonly fallback: () => T,
    readonly accept: (value: unknown) => value is T,
    readonly logger?: Logger,
  ) {}

  async read(): Promise<T> {
    const text = await readTextIfExists(this.path);
    if (text === null || !text.trim()) return this.fallback();
    try {
      const value: unknown = JSON.parse(text);
      if (this.accept(value)) return value;
      throw new Error('unexpected shape');
    } catch (err) {
      this.logger?.error({ msg: 'state file unreadable; using defaults', path: this.path, error: String(err) });
      return this.fallback();
    }
  }

  async write(value: T): Promise<void> {
    await mkdir(join(this.path, '..'), { recursive: true });
    await writeFileAtomic(this.path, pythonJson(value));
  }

  /** Read-modify-write, one at a time. */
  update<R>(change: (value: T) => R | Promise<R>): Promise<R> {
    return this.#lock.run('file', async () => {
      const value = await this.read();
      const result = await change(value);
      await this.write(value);
      return result;
    });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isList = (v: unknown): v is unknown[] => Array.isArray(v);

/** `settings.json`. */
export class FsSettingsStore implements SettingsStore {
  #file: JsonFile<Record<string, unknown>>;
  constructor(stateDir: string, logger?: Logger) {
    this.#file = new JsonFile(join(stateDir, 'settings.json'), () => ({}), isObject, logger);
  }
  read() {
    return this.#file.read();
  }
  write(value: Record<string, unknown>) {
    return this.#file.update((current) => {
      for (const key of Object.keys(current)) delete current[key];
      Object.assign(current, value);
    });
  }
}

/** `projects.json`: a list of `{project_id, name, color, profile, created_at}`. */
export class FsProjectStore implements ProjectStore {
  #file: JsonFile<Project[]>;
  constructor(stateDir: string, logger?: Logger) {
    this.#file = new JsonFile(join(stateDir, 'projects.json'), () => [], isList as (v: unknown) => v is Project[], logger);
  }
  async list() {
    return (await this.#file.read()).filter((p) => isObject(p) && typeof p.project_id === 'string');
  }
  async get(id: string) {
    return (await this.list()).find((p) => p.project_id === id) ?? null;
  }
  create(project: Project) {
    return this.#file.update((list) => {
      list.push(project);
      return project;
    });
  }
  update(id: string, patch: Partial<Pick<Project, 'name' | 'color'>>) {
    return this.#file.update((list) => {
      const project = list.find((p) => isObject(p) && p.project_id === id);
      if (!project) throw new NotFound('Project not found');
      Object.assign(project, patch);
      return project;
    });
  }
  patchKeys(id: string, set: Record<string, unknown>, unset: readonly string[]) {
    return this.#file.update((list) => {
      const project = list.find((p) => isObject(p) && p.project_id === id);
      if (!project) throw new NotFound('Project not found');
      for (const key of unset) delete project[key];
      Object.assign(project, set);
      return project;
    });
  }
  delete(id: string) {
    return this.#file.update((list) => {
      const at = list.findIndex((p) => isObject(p) && p.project_id === id);
      if (at >= 0) list.splice(at, 1);
      return at >= 0;
    });
  }
}

/** `workspaces.json` (a list of `{path, name}`) and `last_workspace.txt` (a bare path). */
export class FsWorkspaceStore implements WorkspaceStore {
  #file: JsonFile<WorkspaceEntry[]>;
  #lastPath: string;
  constructor(stateDir: string, logger?: Logger) {
    this.#file = new JsonFile(join(stateDir, 'workspaces.json'), () => [], isList as (v: unknown) => v is WorkspaceEntry[], logger);
    this.#lastPath = join(stateDir, 'last_workspace.txt');
  }
  async list() {
    return (await this.#file.read())
      .filter((w) => isObject(w) && typeof w.path === 'string' && w.path)
      .map((w) => ({ path: w.path, name: typeof w.name === 'string' && w.name ? w.name : w.path }));
  }
  async save(entries: WorkspaceEntry[]) {
    await this.#file.update((list) => {
      list.splice(0, list.length, ...entries);
    });
  }
  async getLast() {
    const text = await readTextIfExists(this.#lastPath);
    return text?.trim() || null;
  }
  async setLast(path: string) {
    await writeFileAtomic(this.#lastPath, path);
  }
}
