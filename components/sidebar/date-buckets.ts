import { msg } from '@lit/localize';
import type { SessionListRow } from '../state/sessions-store.js';

export type BucketLabel = 'Pinned' | 'Today' | 'Yesterday' | 'This week' | 'Older';

/** One line of the virtual list: a bucket header or a session, both one row tall. */
export type ListItem = { kind: 'header'; key: string; label: BucketLabel } | { kind: 'session'; key: string; row: SessionListRow; index: number };

/** A bucket's heading in the current language (the label itself stays the English key). */
export function bucketName(label: BucketLabel): string {
  switch (label) {
    case 'Pinned':
      return msg('Pinned');
    case 'Today':
      return msg('Today');
    case 'Yesterday':
      return msg('Yesterday');
    case 'This week':
      return msg('This week');
    case 'Older':
      return msg('Older');
  }
}

const DAY_MS = 86_400_000;

/** Which date bucket a time (epoch seconds, as the API sends it) falls in, by local days. */
export function bucketOf(updatedAt: number, now: Date = new Date()): Exclude<BucketLabel, 'Pinned'> {
  return bucketAt(updatedAt, new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime());
}

/** bucketOf with local midnight already worked out: bucketize calls it for every row. */
function bucketAt(updatedAt: number, midnight: number): Exclude<BucketLabel, 'Pinned'> {
  const t = updatedAt * 1000;
  if (t >= midnight) return 'Today';
  if (t >= midnight - DAY_MS) return 'Yesterday';
  // The six days before yesterday: "this week" as a rolling week, so Mondays aren't empty.
  if (t >= midnight - 7 * DAY_MS) return 'This week';
  return 'Older';
}

function newestFirst(list: readonly SessionListRow[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i]!.updated_at > list[i - 1]!.updated_at) return false;
  return true;
}

const ORDER: BucketLabel[] = ['Pinned', 'Today', 'Yesterday', 'This week', 'Older'];

/**
 * Flattens rows into header + session items: pinned first, then by date, newest first inside
 * each bucket. `index` is the position among sessions only (headers not counted).
 */
export function bucketize(rows: readonly SessionListRow[], now: Date = new Date()): ListItem[] {
  const groups = new Map<BucketLabel, SessionListRow[]>();
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  for (const row of rows) {
    const label = row.pinned ? 'Pinned' : bucketAt(row.updated_at, midnight);
    let list = groups.get(label);
    if (!list) groups.set(label, (list = []));
    list.push(row);
  }
  const items: ListItem[] = [];
  let index = 0;
  for (const label of ORDER) {
    const list = groups.get(label);
    if (!list) continue;
    // The store keeps rows newest first; sort anyway so a patched row lands in place.
    if (!newestFirst(list)) list.sort((a, b) => b.updated_at - a.updated_at);
    items.push({ kind: 'header', key: `h:${label}`, label });
    for (const row of list) items.push({ kind: 'session', key: row.session_id, row, index: index++ });
  }
  return items;
}
