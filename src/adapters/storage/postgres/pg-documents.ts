import type { SettingsStore } from '../../../ports/settings-store.js';
import type { WorkspaceEntry, WorkspaceStore } from '../../../ports/workspace-store.js';
import type { Sql } from './pg-client.js';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** One JSON value stored whole under a name in `documents` (the model catalog's cache); null until written. */
export class PgJsonDocument {
  constructor(
    readonly sql: Sql,
    readonly name: string,
  ) {}

  async read(): Promise<unknown> {
    const [row] = await this.sql<{ body: unknown }[]>`SELECT body FROM documents WHERE name = ${this.name}`;
    return row ? row.body : null;
  }

  async write(value: unknown): Promise<void> {
    await this.sql`
      INSERT INTO documents (name, body) VALUES (${this.name}, ${JSON.stringify(value ?? null)}::text::json)
      ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = now()`;
  }
}

/** The settings object, stored whole as the `settings` document (a write replaces it, as settings.json is). */
export class PgSettingsStore implements SettingsStore {
  #doc: PgJsonDocument;
  constructor(sql: Sql) {
    this.#doc = new PgJsonDocument(sql, 'settings');
  }
  async read(): Promise<Record<string, unknown>> {
    const value = await this.#doc.read();
    return isObject(value) ? value : {};
  }
  async write(value: Record<string, unknown>): Promise<void> {
    await this.#doc.write(value);
  }
}

/**
 * One workspace list and its last-used path, a row of `workspaces`: `home` '' is the default
 * list, a profile's own list is keyed by its home root. Entries are read back as the fs adapter
 * reads `workspaces.json` (no path: dropped; no name: the path).
 */
export class PgWorkspaceStore implements WorkspaceStore {
  constructor(
    readonly sql: Sql,
    readonly home = '',
  ) {}

  async list(): Promise<WorkspaceEntry[]> {
    const [row] = await this.sql<{ entries: unknown }[]>`SELECT entries FROM workspaces WHERE home = ${this.home}`;
    if (!Array.isArray(row?.entries)) return [];
    return row.entries
      .filter((w): w is Record<string, unknown> => isObject(w) && typeof w.path === 'string' && w.path !== '')
      .map((w) => ({ path: w.path as string, name: typeof w.name === 'string' && w.name ? w.name : (w.path as string) }));
  }

  async save(entries: WorkspaceEntry[]): Promise<void> {
    await this.sql`
      INSERT INTO workspaces (home, entries) VALUES (${this.home}, ${JSON.stringify(entries)}::text::json)
      ON CONFLICT (home) DO UPDATE SET entries = excluded.entries`;
  }

  async getLast(): Promise<string | null> {
    const [row] = await this.sql<{ last_used: string | null }[]>`SELECT last_used FROM workspaces WHERE home = ${this.home}`;
    return row?.last_used?.trim() || null;
  }

  async setLast(path: string): Promise<void> {
    await this.sql`
      INSERT INTO workspaces (home, last_used) VALUES (${this.home}, ${path})
      ON CONFLICT (home) DO UPDATE SET last_used = excluded.last_used`;
  }
}
