/**
 * Canonical session resolution (the seed RFC "Canonical Session Resolution Contract"): every way
 * a session is asked for — `/session/<id>`, `?session=`, `?session_id=`, the last-active id the
 * browser keeps, a sidebar click, a direct open — goes through these functions, so a
 * `pre_compression_snapshot` parent leads to its live continuation tip everywhere alike.
 * Runtime-free: the server (GET /api/session, the list) and the browser (boot, ChatStore.open)
 * share it.
 */

/** The incumbent's localStorage key for the last active session. */
export const LAST_ACTIVE_KEY = 'hermes-webui-session';

/** `?inspect=1`: open a snapshot as the record it is (explicit history inspection), not its tip. */
export const INSPECT_PARAM = 'inspect';

/** Snapshot-to-snapshot hops followed at most (repeated compression), as the incumbent. */
const MAX_HOPS = 20;

export type RequestSource = 'route' | 'query' | 'stored';

/** A requested session id, where it came from, and whether the caller inspects history. */
export interface SessionRequest {
  id: string;
  source: RequestSource;
  inspect: boolean;
}

const clean = (v: string | null | undefined): string | null => {
  const id = v?.trim();
  return id ? id : null;
};

/** Whether a query string asks for explicit history inspection. */
export function inspectRequested(search: string | URLSearchParams = ''): boolean {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const v = params.get(INSPECT_PARAM);
  return v !== null && v !== '0' && v !== 'false';
}

/**
 * The requested session: the route's `/session/<id>`, else `?session=`, else `?session_id=`
 * (the spelling never changes the target), else the stored last-active id (advisory: it is
 * canonicalised like the others and never asks for inspection).
 */
export function requestedSession(input: { path: string; search?: string; stored?: string | null }): SessionRequest | null {
  const params = new URLSearchParams(input.search ?? '');
  const inspect = inspectRequested(params);
  const m = /^\/session\/([^/?#]+)/.exec(input.path);
  if (m) {
    let id: string | null = null;
    try {
      id = clean(decodeURIComponent(m[1]!));
    } catch {
      id = clean(m[1]);
    }
    if (id) return { id, source: 'route', inspect };
  }
  const query = clean(params.get('session')) ?? clean(params.get('session_id'));
  if (query) return { id: query, source: 'query', inspect };
  const stored = clean(input.stored);
  return stored ? { id: stored, source: 'stored', inspect: false } : null;
}

/** What the lineage needs of a session or its list row. */
export interface LineageRow {
  session_id: string;
  parent_session_id?: string | null;
  pre_compression_snapshot?: boolean | null;
  profile?: string | null;
  updated_at: number;
  created_at?: number;
}

const sameProfile = (a: string | null | undefined, b: string | null | undefined) => (a || 'default') === (b || 'default');

function childrenByParent(rows: Iterable<LineageRow>): Map<string, LineageRow[]> {
  const out = new Map<string, LineageRow[]>();
  for (const row of rows) {
    const parent = row.parent_session_id;
    if (!parent || parent === row.session_id) continue;
    const list = out.get(parent);
    if (list) list.push(row);
    else out.set(parent, [row]);
  }
  return out;
}

function tipIn(snapshot: LineageRow, children: Map<string, LineageRow[]>): string | null {
  if (snapshot.pre_compression_snapshot !== true) return null;
  const seen = new Set([snapshot.session_id]);
  let frontier = [snapshot.session_id];
  let best: LineageRow | null = null;
  for (let hop = 0; hop < MAX_HOPS && frontier.length; hop++) {
    const next: string[] = [];
    for (const parent of frontier) {
      for (const child of children.get(parent) ?? []) {
        // A continuation stays in the snapshot's profile (a foreign row naming it as parent is not one).
        if (seen.has(child.session_id) || !sameProfile(child.profile, snapshot.profile)) continue;
        seen.add(child.session_id);
        if (child.pre_compression_snapshot === true) next.push(child.session_id);
        else if (!best || child.updated_at > best.updated_at || (child.updated_at === best.updated_at && child.session_id > best.session_id)) best = child;
      }
    }
    frontier = next;
  }
  return best?.session_id ?? null;
}

/**
 * The live continuation tip of a compression snapshot: the newest non-snapshot descendant in
 * its profile (through snapshot children, at most 20 hops); null for a session that is not a
 * snapshot or has no continuation (then it is its own canonical session).
 */
export function continuationTip(snapshot: LineageRow, rows: Iterable<LineageRow>): string | null {
  return tipIn(snapshot, childrenByParent(rows));
}

/**
 * The rows the sidebar lists: a snapshot with a live continuation is represented by that tip
 * (so clicking the lineage's row opens what loading it resolves to); a snapshot without one
 * stays, its transcript reachable.
 */
export function withoutSupersededSnapshots<T extends LineageRow>(rows: readonly T[]): readonly T[] {
  if (!rows.some((r) => r.pre_compression_snapshot === true)) return rows;
  const children = childrenByParent(rows);
  return rows.filter((r) => r.pre_compression_snapshot !== true || tipIn(r, children) === null);
}

/** The lineage fields of a session answer (ours and the incumbent's). */
export interface CanonicalFields {
  canonical_visible_session_id?: string | null;
  continuation_session_id?: string | null;
}

/**
 * Where an opened session leads for ordinary navigation: the server's
 * `canonical_visible_session_id`, else (an older server) its `continuation_session_id`, else
 * itself; always itself when the caller inspects history.
 */
export function canonicalTarget(requested: string, answer: CanonicalFields, inspect = false): string {
  if (inspect) return requested;
  return clean(answer.canonical_visible_session_id) ?? clean(answer.continuation_session_id) ?? requested;
}
