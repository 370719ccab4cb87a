import type { SessionListRow } from '../state/sessions-store.js';

/** A row as the list draws it: a parent counts its folded subagents; an open child is marked nested. */
export type FoldedRow = SessionListRow & { subagent_count?: number; nested?: boolean };

/**
 * delegate_task's children (`session_source: "subagent"`) are folded under their parent, as the
 * incumbent stacks them: the parent's row counts them and its Activity row opens them. A child
 * stays in the list while it is the open session (marked nested), or when its parent is not in
 * the list (filtered out, or not loaded yet), so no session becomes unreachable.
 */
export function foldSubagents(rows: readonly SessionListRow[], activeId: string | null): readonly FoldedRow[] {
  const ids = new Set<string>();
  let any = false;
  for (const r of rows) {
    ids.add(r.session_id);
    if (r.session_source === 'subagent' && r.parent_session_id) any = true;
  }
  // The common case (no subagents at all) keeps the very same array: nothing to re-bucket.
  if (!any) return rows;
  const counts = new Map<string, number>();
  const out: FoldedRow[] = [];
  for (const r of rows) {
    const parent = r.session_source === 'subagent' ? r.parent_session_id : null;
    if (!parent || !ids.has(parent)) {
      out.push(r);
      continue;
    }
    counts.set(parent, (counts.get(parent) ?? 0) + 1);
    if (r.session_id === activeId) out.push({ ...r, nested: true });
  }
  return out.map((r) => (counts.has(r.session_id) ? { ...r, subagent_count: counts.get(r.session_id)! } : r));
}
