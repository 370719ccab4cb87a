import { api, ApiError, type Project, type SessionRow } from '../api/client.js';
import { offlineCache } from '../offline/cache.js';
import { Store } from './store.js';

export type SessionListRow = SessionRow & { attention?: boolean; match_preview?: string };

const SEARCH_DEBOUNCE_MS = 200;
const ATTENTION_POLL_MS = 3000;

/**
 * The sidebar's data: every session row, projects, the project filter, archived toggle and
 * search. Rows are patched in place from the open chat (titles, live runs) so the list never
 * has to be re-fetched during a stream.
 */
export class SessionsStore extends Store {
  rows: SessionListRow[] = [];
  projects: Project[] = [];
  projectFilter: string | null = null;
  showArchived = false;
  query = '';
  results: SessionListRow[] | null = null;
  searching = false;
  loaded = false;
  error: string | null = null;
  #searchTimer: ReturnType<typeof setTimeout> | null = null;
  #searchToken = 0;
  #attentionTimer: ReturnType<typeof setInterval> | null = null;

  /** The rows shown came from IndexedDB, not (yet) from the server. */
  cached = false;

  /** Stale-while-revalidate: the stored list paints first (at startup), then the server's replaces it. */
  async refresh(): Promise<void> {
    let answered = false;
    if (!this.loaded && !this.showArchived) {
      void offlineCache.rows().then((rows) => {
        if (!rows || answered || this.loaded || this.rows.length) return;
        this.rows = rows;
        this.cached = true;
        this.changed();
      });
    }
    try {
      const [list, projects] = await Promise.all([api.sessions(this.showArchived), api.projects()]);
      answered = true;
      const attention = new Map(this.rows.filter((r) => r.attention).map((r) => [r.session_id, true]));
      this.rows = list.sessions.map((r) => (attention.has(r.session_id) ? { ...r, attention: true } : r));
      this.projects = projects;
      this.loaded = true;
      this.cached = false;
      this.error = null;
      this.#persist();
    } catch (err) {
      answered = true;
      const offline = err instanceof ApiError && err.status === 0;
      if (offline && !this.loaded && !this.showArchived) {
        const rows = await offlineCache.rows();
        if (rows && !this.rows.length) {
          this.rows = rows;
          this.cached = true;
        }
      }
      // Offline with rows to show: the top bar's indicator says it; no error in the list.
      this.error = offline && this.rows.length ? null : (err as Error).message;
    }
    this.#watchAttention();
    this.changed();
  }

  /** Keeps the list for an offline start (the unarchived view only: that is what startup shows). */
  #persist(): void {
    if (!this.showArchived) offlineCache.saveRows(this.rows.map(({ attention: _a, match_preview: _m, ...r }) => r));
  }

  /** The rows to show: search results when searching, else the list, filtered by project. */
  get visible(): SessionListRow[] {
    const base = this.results ?? this.rows;
    return this.projectFilter ? base.filter((r) => r.project_id === this.projectFilter) : base;
  }

  setQuery(text: string): void {
    this.query = text;
    if (this.#searchTimer) clearTimeout(this.#searchTimer);
    const q = text.trim();
    if (!q) {
      this.results = null;
      this.searching = false;
      this.changed();
      return;
    }
    // Titles filter at once from memory; message text comes from the server after a pause.
    const needle = q.toLowerCase();
    this.results = this.rows.filter((r) => r.title.toLowerCase().includes(needle));
    this.searching = true;
    this.changed();
    const token = ++this.#searchToken;
    this.#searchTimer = setTimeout(async () => {
      try {
        const r = await api.search(q, true);
        if (token !== this.#searchToken) return;
        this.results = r.sessions;
      } catch (err) {
        this.error = (err as Error).message;
      }
      if (token === this.#searchToken) {
        this.searching = false;
        this.changed();
      }
    }, SEARCH_DEBOUNCE_MS);
  }

  setProjectFilter(id: string | null): void {
    this.projectFilter = id;
    this.changed();
  }

  async setShowArchived(show: boolean): Promise<void> {
    this.showArchived = show;
    await this.refresh();
  }

  /** Applies a change to one row (from the open chat or an action) without re-fetching. */
  patch(id: string, patch: Partial<SessionListRow>): void {
    let found = false;
    this.rows = this.rows.map((r) => {
      if (r.session_id !== id) return r;
      found = true;
      return { ...r, ...patch };
    });
    if (this.results) this.results = this.results.map((r) => (r.session_id === id ? { ...r, ...patch } : r));
    if (found && patch.updated_at !== undefined) this.rows = [...this.rows].sort((a, b) => b.updated_at - a.updated_at);
    if (!found) void this.refresh();
    else this.#persist();
    this.#watchAttention();
    this.changed();
  }

  addProject(project: Project): void {
    this.projects = [...this.projects, project];
    this.changed();
  }

  insert(row: SessionRow): void {
    this.rows = [row, ...this.rows.filter((r) => r.session_id !== row.session_id)];
    this.#persist();
    this.changed();
  }

  remove(id: string): void {
    this.rows = this.rows.filter((r) => r.session_id !== id);
    if (this.results) this.results = this.results.filter((r) => r.session_id !== id);
    this.#persist();
    void offlineCache.forgetTranscript(id);
    this.changed();
  }

  /** While other sessions run, ask now and then whether one waits for an approval or answer. */
  #watchAttention(): void {
    const running = this.rows.some((r) => r.active_stream_id);
    if (running && !this.#attentionTimer) {
      this.#attentionTimer = setInterval(() => void this.#pollAttention(), ATTENTION_POLL_MS);
    } else if (!running && this.#attentionTimer) {
      clearInterval(this.#attentionTimer);
      this.#attentionTimer = null;
    }
  }

  async #pollAttention(): Promise<void> {
    const running = this.rows.filter((r) => r.active_stream_id).slice(0, 20);
    let changed = false;
    await Promise.all(
      running.map(async (r) => {
        try {
          const [a, c] = await Promise.all([api.pendingApproval(r.session_id), api.pendingClarify(r.session_id)]);
          const attention = !!a.pending || !!c.pending;
          if (attention !== !!r.attention) {
            r.attention = attention;
            changed = true;
          }
        } catch {
          /* the next poll tries again */
        }
      }),
    );
    if (changed) {
      this.rows = [...this.rows];
      this.changed();
    }
  }
}
