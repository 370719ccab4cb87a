import type { SessionRow } from '../shared/session.js';

/**
 * Task runs are sessions with source `cron` (ours, and Hermes' own `cron_…` ids). As the
 * incumbent, the normal list leaves them out unless the `show_cron_sessions` setting is on;
 * `GET /api/sessions?source=cron` (the sidebar's Tasks filter) lists only them.
 */
export type CronView = 'hide' | 'show' | 'only';

export const isCronRow = (row: Pick<SessionRow, 'session_id' | 'session_source'>): boolean =>
  row.session_source === 'cron' || row.session_id.startsWith('cron_');

// Row arrays are shared and frozen per store revision: each view is computed once per array.
const memo = new WeakMap<readonly SessionRow[], { hide: SessionRow[]; only: SessionRow[] }>();

/** The rows a view shows, and how many task sessions the scope holds (the Tasks chip's count). */
export function cronView<T extends readonly SessionRow[]>(rows: T, view: CronView): { rows: T; cronCount: number } {
  let split = memo.get(rows);
  if (!split) {
    const hide: SessionRow[] = [];
    const only: SessionRow[] = [];
    for (const r of rows) (isCronRow(r) ? only : hide).push(r);
    memo.set(rows, (split = { hide, only }));
  }
  const cronCount = split.only.length;
  // No task sessions: the array as it is (hiding nothing keeps the shared rows).
  if (view === 'show' || (view === 'hide' && cronCount === 0)) return { rows, cronCount };
  return { rows: (view === 'only' ? split.only : split.hide) as unknown as T, cronCount };
}
