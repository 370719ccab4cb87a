import { api, ApiError, type Project, type SessionRow } from '../api/client.js';
import { offlineCache, type ListState } from '../offline/cache.js';
import { Store } from './store.js';

/** `other_profile`: the row's profile, when the list shows all profiles and it is not the active one. */
export type SessionListRow = SessionRow & { attention?: boolean; match_preview?: string; other_profile?: string };

const SEARCH_DEBOUNCE_MS = 200;
/** Rows per page as the list scrolls; a refresh asks for as many as are loaded, up to the server's cap. */
export const PAGE_ROWS = 100;
const MAX_PAGE_ROWS = 1000;
const RETRY_MS = 2000;
const ATTENTION_POLL_MS = 3000;
/** A burst of changes elsewhere (live sync) is one refetch. */
const LIVE_REFETCH_MS = 100;

/**
 * The sidebar's data: the session rows loaded so far (pinned ones, then pages of the rest as
 * the list scrolls), projects, the project filter, archived toggle and search. Rows are
 * patched in place from the open chat (titles, live runs) so the list never has to be
 * re-fetched during a stream.
 */
export class SessionsStore extends Store {
  rows: SessionListRow[] = [];
  projects: Project[] = [];
  projectFilter: string | null = null;
  showArchived = false;
  /** Every profile's sessions and projects, not only the active profile's. */
  allProfiles = false;
  /** The Tasks filter: the list is only task runs (sessions with source `cron`). */
  tasksOnly = false;
  /** How many task runs the profile has (the Tasks chip shows while there are any). */
  cronCount = 0;
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
  /** A page after the loaded rows is being fetched. */
  loadingMore = false;
  /** How many rows the server's list has (loaded or not); null until it has said. */
  total: number | null = null;

  /** The list's ETag when the loaded rows were fetched: a 304 for it says they are all current. */
  #etag: string | null = null;
  /** Where the next page starts; null when every row is loaded. */
  #next: string | null = null;
  #more: Promise<void> | null = null;
  /** After a failed page, when to try again (scrolling asks every frame). */
  #retryAt = 0;
  /** Bumped whenever the list starts over (archived toggle), so a late page is dropped. */
  #generation = 0;

  constructor() {
    super();
    // Another profile: another list (its rows, its projects).
    if (typeof window !== 'undefined')
      window.addEventListener('hermes-profile-changed', () => {
        this.projectFilter = null;
        void this.#restart();
      });
    // Another tab, a task or a run changed the list: fetch it again (revalidated: a 304 keeps the rows).
    if (typeof window !== 'undefined') window.addEventListener('hermes-sessions-changed', () => this.#liveRefetch());
  }

  #liveTimer: ReturnType<typeof setTimeout> | null = null;
  #liveFetch: Promise<void> | null = null;
  #liveAgain = false;

  /** Debounced and single-flight: a change during a fetch is one more fetch after it. */
  #liveRefetch(): void {
    if (this.#liveTimer) return;
    this.#liveTimer = setTimeout(() => {
      this.#liveTimer = null;
      if (this.#liveFetch) {
        this.#liveAgain = true;
        return;
      }
      this.#liveFetch = this.refresh().finally(() => {
        this.#liveFetch = null;
        if (this.#liveAgain) {
          this.#liveAgain = false;
          this.#liveRefetch();
        }
      });
    }, LIVE_REFETCH_MS);
  }

  /** More rows than the loaded ones exist on the server. */
  get hasMore(): boolean {
    return this.#next !== null;
  }

  /**
   * Stale-while-revalidate: the stored rows paint first (at startup), then the server is asked
   * for as many rows as are loaded, with the list's ETag; a 304 keeps them all, a new list
   * replaces them. Further rows come a page at a time as the list scrolls (loadMore).
   */
  async refresh(): Promise<void> {
    const generation = this.#generation;
    let answered = false;
    let stored: Promise<{ rows?: SessionRow[]; state?: ListState }> | null = null;
    // At start the stored rows are read beside the request, never before it: their ETag comes
    // from localStorage, so a fresh profile waits for no IndexedDB and a returning one paints
    // what it kept, and keeps it on a 304.
    let etag = this.rows.length ? this.#etag : null;
    if (!this.loaded && !this.showArchived && !this.rows.length) {
      etag = offlineCache.listEtagNow();
      stored = Promise.all([offlineCache.rows(), offlineCache.listState()]).then(([rows, state]) => {
        if (rows && !answered && !this.loaded && !this.rows.length && generation === this.#generation) this.#adopt(rows, state);
        return { rows, state };
      });
    }
    try {
      let [{ page, etag: tag }, projects] = await Promise.all([this.#firstPages(etag), api.projects(this.allProfiles)]);
      if (!page && stored) {
        // A 304 for the stored tag: the stored rows are current, if IndexedDB holds that tag's rows.
        const { rows, state } = await stored;
        if (rows && state?.etag === etag) {
          if (!this.rows.length) this.#adopt(rows, state);
        } else ({ page, etag: tag } = await this.#firstPages(null));
      }
      answered = true;
      if (generation !== this.#generation) return;
      this.projects = projects;
      // null: a 304, every loaded row is current.
      if (page) {
        const attention = new Set(this.rows.filter((r) => r.attention).map((r) => r.session_id));
        const pinned = page.pinned ?? [];
        const pinnedIds = new Set(pinned.map((r) => r.session_id));
        const fresh = this.#marked([...pinned, ...page.sessions.filter((r) => !pinnedIds.has(r.session_id))], page.active_profile);
        this.rows = fresh.map((r) => (attention.has(r.session_id) ? { ...r, attention: true } : r));
        this.#next = page.next_cursor ?? null;
        this.total = page.total;
        this.cronCount = page.cron_count ?? 0;
      }
      this.#etag = tag;
      this.loaded = true;
      this.cached = false;
      this.error = null;
      this.#persist();
    } catch (err) {
      const offline = err instanceof ApiError && err.status === 0;
      // Offline: the stored rows are what there is to show.
      if (offline && stored) await stored;
      // Offline with rows to show: the top bar's indicator says it; no error in the list.
      this.error = offline && this.rows.length ? null : (err as Error).message;
    }
    this.#watchAttention();
    this.changed();
  }

  /** As many rows as are loaded (at least a page, at most the server's cap), revalidated with `etag`. */
  #firstPages(etag: string | null) {
    const unpinned = this.rows.reduce((n, r) => n + (r.pinned ? 0 : 1), 0);
    const limit = Math.min(MAX_PAGE_ROWS, Math.max(PAGE_ROWS, unpinned));
    return api.sessionPage({ includeArchived: this.showArchived, allProfiles: this.allProfiles, limit, etag, ...this.#source() });
  }

  #source(): { source?: 'cron' } {
    return this.tasksOnly ? { source: 'cron' } : {};
  }

  /** In the all-profiles view, rows of another profile carry its name. */
  #marked(rows: SessionRow[], active: string | undefined): SessionListRow[] {
    if (!this.allProfiles || !active) return rows;
    return rows.map((r) => ((r.profile || 'default') === active ? r : { ...r, other_profile: r.profile || 'default' }));
  }

  /** Shows the rows IndexedDB kept, until the server has answered. */
  #adopt(rows: SessionRow[], state: ListState | undefined): void {
    this.rows = rows;
    this.#etag = state?.etag ?? null;
    this.#next = state?.next ?? null;
    this.total = state?.total ?? null;
    this.cached = true;
    this.changed();
  }

  /** The next page, appended (the list calls this as its end comes into view); one at a time. */
  loadMore(): Promise<void> {
    if (this.#more) return this.#more;
    // Search results come whole from the server: the list's own pages wait until it ends.
    if (this.#next === null || !this.loaded || this.results || Date.now() < this.#retryAt) return Promise.resolve();
    const generation = this.#generation;
    const cursor = this.#next;
    this.loadingMore = true;
    this.changed();
    this.#more = (async () => {
      try {
        const { page } = await api.sessionPage({
          includeArchived: this.showArchived,
          allProfiles: this.allProfiles,
          limit: PAGE_ROWS,
          cursor,
          ...this.#source(),
        });
        if (!page || generation !== this.#generation || cursor !== this.#next) return;
        const have = new Set(this.rows.map((r) => r.session_id));
        this.rows = [
          ...this.rows,
          ...this.#marked(
            page.sessions.filter((r) => !have.has(r.session_id)),
            page.active_profile,
          ),
        ];
        this.#next = page.next_cursor ?? null;
        this.total = page.total;
        this.#persist();
      } catch {
        // Offline or refused: the list stays as it is; scrolling tries again a little later.
        this.#retryAt = Date.now() + RETRY_MS;
      } finally {
        this.#more = null;
        this.loadingMore = false;
        this.changed();
      }
    })();
    return this.#more;
  }

  /** Keeps the list for an offline start (the unarchived view only: that is what startup shows). */
  #persist(): void {
    if (!this.showArchived && !this.allProfiles && !this.tasksOnly)
      offlineCache.saveRows(
        this.rows.map(({ attention: _a, match_preview: _m, ...r }) => r),
        { etag: this.#etag, next: this.#next, ...(this.total !== null ? { total: this.total } : {}) },
      );
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
        const r = await api.search(q, true, this.allProfiles);
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
    await this.#restart();
  }

  /** Shows only task runs, or the normal list again: another list from the server. */
  async setTasksOnly(only: boolean): Promise<void> {
    if (only === this.tasksOnly) return;
    this.tasksOnly = only;
    await this.#restart();
  }

  async setAllProfiles(all: boolean): Promise<void> {
    this.allProfiles = all;
    await this.#restart();
  }

  async #restart(): Promise<void> {
    // Another list: its pages start over.
    this.#generation++;
    this.rows = [];
    this.#etag = null;
    this.#next = null;
    this.#retryAt = 0;
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

  /** A project the server changed (its bindings), in place. */
  replaceProject(project: Project): void {
    this.projects = this.projects.map((p) => (p.project_id === project.project_id ? project : p));
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
