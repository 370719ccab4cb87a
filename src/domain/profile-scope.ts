import { DEFAULT_PROFILE } from '../ports/hermes-home.js';
import type { SessionPage, SessionStore } from '../ports/session-store.js';
import type { SessionRow } from '../shared/session.js';

type Rows = SessionPage['rows'];

/** The list as one profile sees it, and the incumbent's profile fields for the answer. */
export interface ProfileScope {
  rows: Rows;
  archivedCount: number;
  /** `,"all_profiles":…,"active_profile":…,"other_profile_count":…` to append to the JSON. */
  fields: string;
}

/** A row without a profile predates profiles: it is `default`'s. */
export const rowProfile = (row: Pick<SessionRow, 'profile'>): string => row.profile || DEFAULT_PROFILE;

// The store's row arrays are shared and immutable per revision: a scope is computed once per array.
const memo = new WeakMap<Rows, Map<string, { rows: Rows; other: number }>>();
const archivedMemo = new WeakMap<Rows, Map<string, number>>();

function filtered(rows: Rows, profile: string): { rows: Rows; other: number } {
  let byProfile = memo.get(rows);
  if (!byProfile) memo.set(rows, (byProfile = new Map()));
  let hit = byProfile.get(profile);
  if (!hit) {
    const mine = rows.filter((r) => rowProfile(r) === profile);
    // Every row is this profile's (the usual single-profile case): the shared array as it is.
    hit = { rows: mine.length === rows.length ? rows : mine, other: rows.length - mine.length };
    byProfile.set(profile, hit);
  }
  return hit;
}

/** The archived sessions of `profile` (counted whether or not the page includes them). */
async function archivedOf(store: SessionStore, profile: string): Promise<number> {
  const all = (await store.list({ includeArchived: true })).rows;
  let counts = archivedMemo.get(all);
  if (!counts) {
    counts = new Map();
    for (const r of all) if (r.archived) counts.set(rowProfile(r), (counts.get(rowProfile(r)) ?? 0) + 1);
    archivedMemo.set(all, counts);
  }
  return counts.get(profile) ?? 0;
}

/** The page's rows of the active profile (or all, with `allProfiles`), with their counts. */
export async function profileScope(store: SessionStore, page: SessionPage, active: string, allProfiles: boolean): Promise<ProfileScope> {
  const fields = (other: number) => `,"all_profiles":${allProfiles},"active_profile":${JSON.stringify(active)},"other_profile_count":${other}`;
  if (allProfiles) return { rows: page.rows, archivedCount: page.archivedCount, fields: fields(0) };
  const { rows, other } = filtered(page.rows, active);
  return { rows, archivedCount: await archivedOf(store, active), fields: fields(other) };
}

/** Projects (or any rows with a `profile`) of the active profile, or all, in the incumbent's answer shape. */
export function scopeByProfile<T extends { profile?: string | null }>(items: T[], active: string, allProfiles: boolean) {
  const mine = allProfiles ? items : items.filter((p) => rowProfile(p) === active);
  return { items: mine, all_profiles: allProfiles, active_profile: active, other_profile_count: items.length - mine.length };
}
