import { stat } from 'node:fs/promises';
import type { Logger } from '../../ports/platform.js';
import type {
  AgentFindHit,
  AgentSessionHit,
  AgentSessionMessage,
  AgentSessionRow,
  AgentSessionSearch,
  AgentSidebarRow,
  AgentTranscript,
  AgentUsageRow,
  UsageWindow,
} from '../../ports/agent-sessions.js';
import { likeTerms, searchStateDb } from './node-hermes-state-search.js';
import { readProjection, readWindow } from './node-hermes-state-sidebar.js';
import { findContent } from './node-hermes-state-find.js';
import { type ProjectedRow, type Projection, sidebarRow, visible } from '../../domain/agent-lineage.js';
import type { Message } from '../../shared/session.js';

type Database = import('better-sqlite3').Database;

/** How many state.db sessions Insights keeps between requests (about 150 bytes each). */
const USAGE_CACHE_ROWS = 200_000;

/** Sources that are not conversations a person had (a tool's one-off run, a delegated subagent). */
const HIDDEN_SOURCES = ['tool', 'subagent'];

const LABELS: Record<string, string> = {
  cli: 'CLI',
  tui: 'TUI',
  api_server: 'API',
  acp: 'Editor',
  cron: 'Cron',
  desktop: 'Desktop',
  telegram: 'Telegram',
  discord: 'Discord',
  slack: 'Slack',
  whatsapp: 'WhatsApp',
  signal: 'Signal',
  email: 'Email',
  matrix: 'Matrix',
  webhook: 'Webhook',
  homeassistant: 'Home Assistant',
};

export const sourceLabel = (source: string) => LABELS[source] ?? (source ? source.charAt(0).toUpperCase() + source.slice(1).replace(/_/g, ' ') : 'Hermes');

/**
 * Hermes' `state.db` (SQLite, WAL), opened read-only for each read and closed at once: Hermes
 * owns the file and may be writing it, so nothing here writes, keeps a handle, or takes a lock
 * longer than one query. Columns differ between Hermes versions: only `sessions.id`,
 * `sessions.source` and `messages.session_id/role` are required; the rest is read when present.
 *
 * better-sqlite3 is loaded on first use, so a missing or broken native build only turns this
 * off (logged once) instead of stopping the server.
 */
export class NodeHermesStateDb implements AgentSessionSearch {
  #driver: Promise<typeof import('better-sqlite3') | null> | null = null;

  constructor(
    readonly path: string,
    private readonly logger: Logger,
  ) {}

  #load() {
    this.#driver ??= import('better-sqlite3')
      .then((m) => (m.default ?? m) as unknown as typeof import('better-sqlite3'))
      .catch((err: unknown) => {
        this.logger.error({ msg: 'better-sqlite3 could not be loaded; Hermes sessions are not listed', error: String((err as Error)?.message ?? err) });
        return null;
      });
    return this.#driver;
  }

  async available(): Promise<boolean> {
    const s = await stat(this.path).catch(() => null);
    return !!s?.isFile() && !!(await this.#load());
  }

  async #read<T>(fn: (db: Database, columns: (table: string) => Set<string>) => T): Promise<T | null> {
    if (!(await stat(this.path).catch(() => null))?.isFile()) return null;
    const Driver = await this.#load();
    if (!Driver) return null;
    let db: Database | null = null;
    try {
      db = new Driver(this.path, { readonly: true, fileMustExist: true, timeout: 2000 });
      db.pragma('query_only = ON');
      const cache = new Map<string, Set<string>>();
      const columns = (table: string) => {
        let set = cache.get(table);
        if (!set) {
          set = new Set((db!.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));
          cache.set(table, set);
        }
        return set;
      };
      return fn(db, columns);
    } catch (err) {
      this.logger.error({ msg: 'reading Hermes state.db failed', path: this.path, error: String((err as Error)?.message ?? err) });
      return null;
    } finally {
      db?.close();
    }
  }

  #rowSql(columns: (table: string) => Set<string>): string {
    const s = columns('sessions');
    const m = columns('messages');
    const opt = (name: string, fallback = 'NULL') => (s.has(name) ? `s.${name}` : fallback);
    const lastAt = m.has('timestamp') ? '(SELECT MAX(timestamp) FROM messages WHERE session_id = s.id)' : 'NULL';
    const count = s.has('message_count') ? 's.message_count' : '(SELECT COUNT(*) FROM messages WHERE session_id = s.id)';
    const firstUser = m.has('content')
      ? `(SELECT content FROM messages WHERE session_id = s.id AND role = 'user' ORDER BY ${m.has('id') ? 'id' : 'rowid'} LIMIT 1)`
      : 'NULL';
    return `SELECT s.id AS id, s.source AS source, ${opt('title')} AS title, ${opt('model')} AS model, ${opt('started_at')} AS started_at,
      ${opt('ended_at')} AS ended_at, ${count} AS message_count, ${lastAt} AS last_at, ${firstUser} AS first_user
      FROM sessions s`;
  }

  async list(options: { limit: number }): Promise<AgentSessionRow[]> {
    const rows = await this.#read((db, columns) => {
      const hidden = HIDDEN_SOURCES.map(() => '?').join(', ');
      const sql = `SELECT * FROM (${this.#rowSql(columns)} WHERE s.source NOT IN (${hidden})) ORDER BY COALESCE(last_at, ended_at, started_at, 0) DESC LIMIT ?`;
      return db.prepare(sql).all(...HIDDEN_SOURCES, options.limit) as RawRow[];
    });
    return (rows ?? []).map(toRow);
  }

  /**
   * Token use per session in the window. All of `sessions` is read once (its usage columns
   * only, no message rows) and kept while state.db and its WAL are unchanged (size and mtime),
   * so opening Insights again does not reopen SQLite; any write by Hermes reads it afresh.
   */
  async usage(window: UsageWindow): Promise<AgentUsageRow[]> {
    const rows = await this.#usageRows();
    return rows.filter((r) => r.ts >= window.from && (window.toInclusive ? r.ts <= window.to : r.ts < window.to));
  }

  #usageCache: { signature: string; rows: AgentUsageRow[] } | null = null;

  /** Size and mtime of state.db and its WAL: any write by Hermes moves one (two stat calls, no SQLite). */
  async #signature(): Promise<string | null> {
    const [db, wal] = await Promise.all([stat(this.path).catch(() => null), stat(`${this.path}-wal`).catch(() => null)]);
    if (!db?.isFile()) return null;
    // An empty WAL is what our own first read-only open leaves behind: it says nothing changed.
    return `${db.size}:${db.mtimeMs}:${wal?.size ? `${wal.size}:${wal.mtimeMs}` : '-'}`;
  }

  #projection: { signature: string; projection: Projection; rows: Map<string, AgentSidebarRow[]> } | null = null;

  /** The collapsed conversations, read again only when the file changed. */
  async #project(): Promise<{ signature: string; projection: Projection; rows: Map<string, AgentSidebarRow[]> } | null> {
    const signature = await this.#signature();
    if (!signature) return null;
    if (this.#projection?.signature === signature) return this.#projection;
    const projection = await this.#read((db, columns) => readProjection(db, columns));
    if (!projection) return null;
    this.#projection = { signature, projection, rows: new Map() };
    return this.#projection;
  }

  async sidebar(profile: string): Promise<{ signature: string; rows: readonly AgentSidebarRow[] }> {
    const p = await this.#project();
    if (!p) return { signature: 'none', rows: [] };
    let rows = p.rows.get(profile);
    if (!rows) p.rows.set(profile, (rows = Object.freeze(p.projection.rows.filter(visible).map((r) => sidebarRow(r, profile))) as AgentSidebarRow[]));
    return { signature: p.signature, rows };
  }

  async find(needle: string, options: { content: boolean; depth: number; limit: number }, profile: string): Promise<AgentFindHit[]> {
    const p = await this.#project();
    if (!p || !needle) return [];
    const { rows } = await this.sidebar(profile);
    const { shown, titles } = searchable(p.projection, rows);
    // state.db changed between the two reads: the next keystroke asks again.
    if (shown.length !== rows.length) return [];
    const out: AgentFindHit[] = [];
    const found = new Set<number>();
    // Titles from the projection in memory: no SQLite per keystroke.
    for (let i = 0; i < rows.length && out.length < options.limit; i++) {
      if (!titles[i]!.includes(needle)) continue;
      out.push({ row: rows[i]!, match_type: 'title', text: rows[i]!.title });
      found.add(i);
    }
    if (!options.content || out.length >= options.limit) return out;
    // Which conversation each searched segment belongs to (a depth reads each one's first segment only).
    const owner = new Map<string, number>();
    shown.forEach((r, i) => {
      if (found.has(i)) return;
      for (const id of options.depth > 0 ? r.segments.slice(0, 1) : r.segments) owner.set(id, i);
    });
    const hits = await this.#read((db, columns) =>
      findContent(db, columns, needle, { segments: [...owner.keys()], depth: options.depth, limit: options.limit * 4 }),
    );
    for (const hit of hits ?? []) {
      const i = owner.get(hit.session_id);
      if (i === undefined || found.has(i)) continue;
      found.add(i);
      out.push({ row: rows[i]!, match_type: 'content', text: hit.content });
      if (out.length >= options.limit) break;
    }
    return out;
  }

  async transcript(id: string, window: { limit?: number; before?: number }, profile: string): Promise<AgentTranscript | null> {
    const p = await this.#project();
    const found = p?.projection.byId.get(id);
    if (!found) return null;
    const page = await this.#read((db, columns) => readWindow(db, columns, found.segments, window));
    if (!page) return null;
    const messages = page.rows.map(toMessage).filter((x): x is Message => x !== null);
    return { row: sidebarRow(found, profile), messages, total: page.total, offset: page.offset };
  }

  async #usageRows(): Promise<AgentUsageRow[]> {
    const signature = await this.#signature();
    if (!signature) return [];
    if (this.#usageCache?.signature === signature) return this.#usageCache.rows;
    const raw = await this.#read((conn, columns) => {
      const s = columns('sessions');
      const col = (name: string, fallback = '0') => (s.has(name) ? name : fallback);
      const sql = `SELECT id, source, ${col('model', 'NULL')} AS model, ${col('message_count')} AS message_count,
        ${col('input_tokens')} AS input_tokens, ${col('output_tokens')} AS output_tokens, ${col('cache_read_tokens')} AS cache_read_tokens,
        ${col('estimated_cost_usd', 'NULL')} AS cost, COALESCE(${col('ended_at', 'NULL')}, ${col('started_at', 'NULL')}, 0) AS ts
        FROM sessions WHERE COALESCE(source, '') <> 'webui'`;
      return conn.prepare(sql).all() as Array<Record<string, unknown>>;
    });
    if (!raw) return [];
    const rows = raw.map((r) => ({
      session_id: String(r.id),
      source: String(r.source ?? ''),
      model: typeof r.model === 'string' && r.model ? r.model : null,
      message_count: usageNumber(r.message_count),
      input_tokens: usageNumber(r.input_tokens),
      output_tokens: usageNumber(r.output_tokens),
      cache_read_tokens: usageNumber(r.cache_read_tokens),
      cost: usageNumber(r.cost, false),
      ts: typeof r.ts === 'number' ? r.ts : Number(r.ts) || 0,
    }));
    // A very large history is not held in memory; it is read again next time.
    this.#usageCache = rows.length <= USAGE_CACHE_ROWS ? { signature, rows } : null;
    return rows;
  }

  /** FTS5 (or LIKE without an index) over conversation messages; see node-hermes-state-search.ts. */
  async search(query: string, options: { roles: string[]; limit: number }): Promise<AgentSessionHit[]> {
    if (!likeTerms(query).length) return [];
    return (await this.#read((db, columns) => searchStateDb(db, columns, query, { ...options, hidden: [...HIDDEN_SOURCES, 'kanban'] }))) ?? [];
  }

  async messages(id: string): Promise<{ row: AgentSessionRow; messages: AgentSessionMessage[] } | null> {
    return this.#read((db, columns) => {
      const raw = db.prepare(`${this.#rowSql(columns)} WHERE s.id = ?`).get(id) as RawRow | undefined;
      if (!raw || HIDDEN_SOURCES.includes(String(raw.source))) return null;
      const m = columns('messages');
      const order = m.has('id') ? 'id' : 'rowid';
      const time = m.has('timestamp') ? 'timestamp' : 'NULL';
      // Rewound messages (active = 0 without compacted) are gone from the conversation.
      const live = m.has('active')
        ? m.has('compacted')
          ? ' AND NOT (COALESCE(active, 1) = 0 AND COALESCE(compacted, 0) = 0)'
          : ' AND COALESCE(active, 1) <> 0'
        : '';
      const rows = db
        .prepare(
          `SELECT ${order} AS id, role, ${m.has('content') ? 'content' : "''"} AS content, ${time} AS timestamp FROM messages WHERE session_id = ? AND role <> 'system'${live} ORDER BY ${order}`,
        )
        .all(id) as Array<{ id: number; role: string; content: unknown; timestamp: unknown }>;
      const messages = rows.map((r) => ({
        id: Number(r.id),
        role: String(r.role),
        content: typeof r.content === 'string' ? r.content : r.content == null ? '' : String(r.content),
        timestamp: typeof r.timestamp === 'number' ? r.timestamp : null,
      }));
      return { row: toRow(raw), messages };
    });
  }

  async get(id: string, options: { limit: number }): Promise<{ row: AgentSessionRow; messages: Message[]; truncated: boolean } | null> {
    return this.#read((db, columns) => {
      const raw = db.prepare(`${this.#rowSql(columns)} WHERE s.id = ?`).get(id) as RawRow | undefined;
      if (!raw || HIDDEN_SOURCES.includes(String(raw.source))) return null;
      const m = columns('messages');
      const pick = ['role', 'content', 'tool_call_id', 'tool_calls', 'tool_name', 'timestamp', 'reasoning', 'reasoning_content'].filter((c) => m.has(c));
      const order = m.has('id') ? 'id' : 'rowid';
      const total = (db.prepare('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?').get(id) as { n: number }).n;
      const rows = db
        .prepare(
          `SELECT * FROM (SELECT ${order} AS _order, ${pick.join(', ')} FROM messages WHERE session_id = ? ORDER BY ${order} DESC LIMIT ?) ORDER BY _order`,
        )
        .all(id, options.limit) as Array<Record<string, unknown>>;
      const messages = rows.map(toMessage).filter((x): x is Message => x !== null);
      return { row: toRow(raw), messages, truncated: total > rows.length };
    });
  }
}

// The visible conversations and their lowercased titles, kept per listed rows (one state.db signature).
const searchMemo = new WeakMap<readonly AgentSidebarRow[], { shown: ProjectedRow[]; titles: string[] }>();
function searchable(projection: Projection, rows: readonly AgentSidebarRow[]) {
  let hit = searchMemo.get(rows);
  if (!hit) searchMemo.set(rows, (hit = { shown: projection.rows.filter(visible), titles: rows.map((r) => r.title.toLowerCase()) }));
  return hit;
}

/** A count (whole, ≥ 0) or a cost (≥ 0) from a column that may hold text or NULL. */
function usageNumber(v: unknown, whole = true): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim().replace(/[$,]/g, '')) : 0;
  if (!Number.isFinite(n) || n <= 0) return 0;
  return whole ? Math.trunc(n) : n;
}

interface RawRow {
  id: string;
  source: string;
  title: string | null;
  model: string | null;
  started_at: number | null;
  ended_at: number | null;
  message_count: number | null;
  last_at: number | null;
  first_user: string | null;
}

function toRow(r: RawRow): AgentSessionRow {
  const source = String(r.source ?? '');
  const created = typeof r.started_at === 'number' ? r.started_at : 0;
  const firstLine = typeof r.first_user === 'string' ? r.first_user.replace(/\s+/g, ' ').trim() : '';
  const title =
    (typeof r.title === 'string' && r.title.trim()) ||
    (firstLine ? (firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine) : `${sourceLabel(source)} session`);
  return {
    session_id: String(r.id),
    title,
    source,
    source_label: sourceLabel(source),
    model: typeof r.model === 'string' ? r.model : null,
    created_at: created,
    updated_at: Math.max(created, typeof r.ended_at === 'number' ? r.ended_at : 0, typeof r.last_at === 'number' ? r.last_at : 0),
    message_count: typeof r.message_count === 'number' ? r.message_count : 0,
    read_only: true,
  };
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || !text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type StoredToolCall = { id?: unknown; name?: unknown; arguments?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;

/** A state.db message row in this project's message shape (system prompts are left out). */
function toMessage(r: Record<string, unknown>): Message | null {
  const role = String(r.role ?? '');
  if (role !== 'user' && role !== 'assistant' && role !== 'tool') return null;
  const content = typeof r.content === 'string' ? r.content : r.content == null ? '' : String(r.content);
  const out: Message = { role, content, ...(typeof r.timestamp === 'number' ? { timestamp: r.timestamp } : {}), _source: 'hermes_state_db' };
  const calls = parseJson(r.tool_calls);
  if (role === 'assistant' && Array.isArray(calls) && calls.length) {
    // Hermes' rows hold OpenAI-style calls, or the flat {name, arguments} older versions wrote.
    out.tool_calls = (calls as StoredToolCall[]).map((c, i) => ({
      id: String(c?.id ?? `call_${i}`),
      type: 'function',
      function: {
        name: String(c?.function?.name ?? c?.name ?? 'tool'),
        arguments: typeof c?.function?.arguments === 'string' ? c.function.arguments : JSON.stringify(c?.function?.arguments ?? c?.arguments ?? {}),
      },
    }));
  }
  if (role === 'tool') {
    if (typeof r.tool_call_id === 'string') out.tool_call_id = r.tool_call_id;
    if (typeof r.tool_name === 'string') out.name = r.tool_name;
  }
  const reasoning =
    typeof r.reasoning === 'string' && r.reasoning ? r.reasoning : typeof r.reasoning_content === 'string' && r.reasoning_content ? r.reasoning_content : null;
  if (role === 'assistant' && reasoning) out.reasoning = reasoning;
  return out;
}
