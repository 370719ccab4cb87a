import { NotFound } from '../../../ports/errors.js';
import type { Logger } from '../../../ports/platform.js';
import type { Project, ProjectStore } from '../../../ports/project-store.js';
import type { SettingsStore } from '../../../ports/settings-store.js';
import type { WorkspaceEntry, WorkspaceStore } from '../../../ports/workspace-store.js';
import { changes, isObject, parseJson, type D1Database } from './d1-types.js';

export { D1AuthStore } from './d1-auth-store.js';
export { D1EmbedTokenStore } from './d1-embed-tokens.js';

/**
 * One JSON value stored whole under a name in the `documents` table (the model catalog's cache;
 * settings and workspaces use the same table). A missing or unreadable value reads as null.
 */
export class D1JsonDocument {
  constructor(
    readonly db: D1Database,
    readonly name: string,
    readonly logger?: Logger,
  ) {}

  async read(): Promise<unknown> {
    const row = await this.db.prepare('SELECT body FROM documents WHERE name = ?1').bind(this.name).first<{ body: string }>();
    if (!row) return null;
    const value = parseJson(row.body);
    if (value === undefined) {
      this.logger?.error({ msg: 'unreadable JSON document ignored', document: this.name });
      return null;
    }
    return value;
  }

  async write(value: unknown): Promise<void> {
    await this.db
      .prepare(
        'INSERT INTO documents (name, body, updated_at) VALUES (?1, ?2, CURRENT_TIMESTAMP) ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at',
      )
      .bind(this.name, JSON.stringify(value ?? null))
      .run();
  }
}

/** The settings object, stored whole as the `settings` document. */
export class D1SettingsStore implements SettingsStore {
  #doc: D1JsonDocument;
  constructor(db: D1Database, logger?: Logger) {
    this.#doc = new D1JsonDocument(db, 'settings', logger);
  }
  async read(): Promise<Record<string, unknown>> {
    const value = await this.#doc.read();
    return isObject(value) ? value : {};
  }
  async write(value: Record<string, unknown>): Promise<void> {
    await this.#doc.write(value);
  }
}

/** The registered workspaces (`workspaces` document) and the last one used (`last_workspace`). */
export class D1WorkspaceStore implements WorkspaceStore {
  #list: D1JsonDocument;
  #last: D1JsonDocument;
  constructor(db: D1Database, logger?: Logger) {
    this.#list = new D1JsonDocument(db, 'workspaces', logger);
    this.#last = new D1JsonDocument(db, 'last_workspace', logger);
  }
  async list(): Promise<WorkspaceEntry[]> {
    const value = await this.#list.read();
    if (!Array.isArray(value)) return [];
    return value
      .filter((w): w is Record<string, unknown> => isObject(w) && typeof w.path === 'string' && w.path !== '')
      .map((w) => ({ path: w.path as string, name: typeof w.name === 'string' && w.name ? w.name : (w.path as string) }));
  }
  async save(entries: WorkspaceEntry[]): Promise<void> {
    await this.#list.write(entries);
  }
  async getLast(): Promise<string | null> {
    const value = await this.#last.read();
    return typeof value === 'string' && value.trim() ? value.trim() : null;
  }
  async setLast(path: string): Promise<void> {
    await this.#last.write(path);
  }
}

/**
 * Project groups, one row each (`projects`): the project's JSON, listed in creation order.
 * Updates patch the stored JSON in SQL (`json_set`), so concurrent edits of different fields
 * from different isolates do not undo each other.
 */
export class D1ProjectStore implements ProjectStore {
  constructor(
    readonly db: D1Database,
    readonly logger?: Logger,
  ) {}

  #parse(body: string): Project | null {
    const value = parseJson(body);
    if (isObject(value) && typeof value.project_id === 'string') return value as Project;
    this.logger?.error({ msg: 'unreadable project row ignored' });
    return null;
  }

  async list(): Promise<Project[]> {
    const { results } = await this.db.prepare('SELECT body FROM projects ORDER BY position, project_id').all<{ body: string }>();
    return results.map((r) => this.#parse(r.body)).filter((p): p is Project => p !== null);
  }

  async get(id: string): Promise<Project | null> {
    const row = await this.db.prepare('SELECT body FROM projects WHERE project_id = ?1').bind(id).first<{ body: string }>();
    return row ? this.#parse(row.body) : null;
  }

  /** Stores the project (replacing one with the same id, which keeps its place). */
  async create(project: Project): Promise<Project> {
    await this.db
      .prepare(
        'INSERT INTO projects (project_id, position, body) VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM projects), ?2) ON CONFLICT (project_id) DO UPDATE SET body = excluded.body',
      )
      .bind(project.project_id, JSON.stringify(project))
      .run();
    return structuredClone(project);
  }

  async update(id: string, patch: Partial<Pick<Project, 'name' | 'color'>>): Promise<Project> {
    const paths: string[] = [];
    const values: unknown[] = [id];
    for (const key of ['name', 'color'] as const) {
      if (patch[key] === undefined) continue;
      values.push(patch[key]);
      paths.push(`'$.${key}', ?${values.length}`);
    }
    if (!paths.length) {
      const current = await this.get(id);
      if (!current) throw new NotFound('Project not found');
      return current;
    }
    const { results } = await this.db
      .prepare(`UPDATE projects SET body = json_set(body, ${paths.join(', ')}) WHERE project_id = ?1 AND json_valid(body) RETURNING body`)
      .bind(...values)
      .all<{ body: string }>();
    const project = results[0] ? this.#parse(results[0].body) : null;
    if (!project) throw new NotFound('Project not found');
    return project;
  }

  /** One statement (json_remove, then json_set with JSON values), so it races no other field's edit. */
  async patchKeys(id: string, set: Record<string, unknown>, unset: readonly string[]): Promise<Project> {
    const values: unknown[] = [id];
    const removed = unset.map((key) => (values.push(`$.${key}`), `?${values.length}`));
    const pairs = Object.entries(set).map(([key, value]) => {
      values.push(`$.${key}`, JSON.stringify(value));
      return `?${values.length - 1}, json(?${values.length})`;
    });
    const body = `json_set(json_remove(${['body', ...removed].join(', ')})${pairs.length ? `, ${pairs.join(', ')}` : ''})`;
    const { results } = await this.db
      .prepare(`UPDATE projects SET body = ${body} WHERE project_id = ?1 AND json_valid(body) RETURNING body`)
      .bind(...values)
      .all<{ body: string }>();
    const project = results[0] ? this.#parse(results[0].body) : null;
    if (!project) throw new NotFound('Project not found');
    return project;
  }

  async delete(id: string): Promise<boolean> {
    return changes(await this.db.prepare('DELETE FROM projects WHERE project_id = ?1').bind(id).run()) > 0;
  }
}

/**
 * Which session each chat stream belongs to (`run_streams`), so a Worker can route a stream id
 * to the session's Durable Object.
 */
export class D1RunStreams {
  constructor(readonly db: D1Database) {}

  async put(streamId: string, sessionId: string): Promise<void> {
    await this.db
      .prepare('INSERT INTO run_streams (stream_id, session_id) VALUES (?1, ?2) ON CONFLICT (stream_id) DO UPDATE SET session_id = excluded.session_id')
      .bind(streamId, sessionId)
      .run();
  }

  async sessionOf(streamId: string): Promise<string | null> {
    const row = await this.db.prepare('SELECT session_id FROM run_streams WHERE stream_id = ?1').bind(streamId).first<{ session_id: string }>();
    return row?.session_id ?? null;
  }

  /** True when the stream was known. */
  async delete(streamId: string): Promise<boolean> {
    return changes(await this.db.prepare('DELETE FROM run_streams WHERE stream_id = ?1').bind(streamId).run()) > 0;
  }

  /** Forgets streams recorded before `before` (housekeeping: a finished turn's route is never needed again); returns how many. */
  async pruneBefore(before: Date): Promise<number> {
    // created_at is SQLite's CURRENT_TIMESTAMP: "YYYY-MM-DD HH:MM:SS" in UTC.
    const cutoff = before.toISOString().slice(0, 19).replace('T', ' ');
    return changes(await this.db.prepare('DELETE FROM run_streams WHERE created_at < ?1').bind(cutoff).run());
  }

  /** Forgets every stream of a session (D1SessionStore.delete does this too); returns how many. */
  async deleteSession(sessionId: string): Promise<number> {
    return changes(await this.db.prepare('DELETE FROM run_streams WHERE session_id = ?1').bind(sessionId).run());
  }
}
