import { joinPath } from './paths.js';
import type { ToolHost } from './types.js';

/**
 * Hermes' skill usage sidecar, `$HERMES_HOME/skills/.usage.json`: one record per skill name, kept
 * for the curator (and shown by the Skills panel). Hermes records only skills it did not get from
 * its bundle (`.bundled_manifest`) or the hub (`.hub/lock.json`), writes the whole map with
 * `indent=2` and sorted keys, and never lets a broken sidecar fail the tool that bumped it.
 */

export type UsageRecord = Record<string, unknown>;
export type UsageMap = Record<string, UsageRecord>;

/** A fresh record, with every field Hermes' curator reads. */
export function emptyUsageRecord(now: string): UsageRecord {
  return {
    use_count: 0,
    view_count: 0,
    last_used_at: null,
    last_viewed_at: null,
    patch_count: 0,
    last_patched_at: null,
    created_at: now,
    state: 'active',
    pinned: false,
    archived_at: null,
    negative_claim_confidence: null,
    negative_claim_ttl_days: null,
    negative_claim_last_revalidated_at: null,
    negative_claim_revalidation_due_at: null,
    negative_claim_summary: null,
    negative_claim_status: null,
    negative_claims: [],
  };
}

/** Python's `datetime.now(timezone.utc).isoformat()`: microseconds and `+00:00`. */
export function pythonUtcIso(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

const usageFile = (hermesHome: string) => joinPath(hermesHome, 'skills/.usage.json');

/** The map; {} when the file is missing or unreadable, non-record values dropped (as Hermes reads it). */
export async function loadUsage(host: ToolHost, hermesHome: string): Promise<UsageMap> {
  const text = await host.readText(usageFile(hermesHome)).catch(() => null);
  if (!text) return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return {};
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  const out: UsageMap = {};
  for (const [k, v] of Object.entries(data)) if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = v as UsageRecord;
  return out;
}

/** JSON with every object's keys sorted (Python's `sort_keys=True`), two-space indent, no final newline. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = sort((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value), null, 2);
}

/** Names of skills from Hermes' bundle and hub: never recorded. */
async function upstreamNames(host: ToolHost, hermesHome: string): Promise<Set<string>> {
  const names = new Set<string>();
  const manifest = await host.readText(joinPath(hermesHome, 'skills/.bundled_manifest')).catch(() => null);
  for (const line of manifest?.split('\n') ?? []) {
    const name = line.trim().split(':', 1)[0]?.trim();
    if (name) names.add(name);
  }
  const lock = await host.readText(joinPath(hermesHome, 'skills/.hub/lock.json')).catch(() => null);
  try {
    const installed = lock ? (JSON.parse(lock) as { installed?: unknown }).installed : null;
    if (installed && typeof installed === 'object' && !Array.isArray(installed)) for (const k of Object.keys(installed)) names.add(k);
  } catch {
    // An unreadable lock file hides no skill.
  }
  return names;
}

/** One writer at a time per sidecar: parallel skill_view calls must not lose each other's bumps. */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const next = (queues.get(key) ?? Promise.resolve()).then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

type Mutation = (record: UsageRecord, now: string) => void;

/** Load, change one record, save; best-effort (a failure costs the counter, never the tool). */
async function mutate(host: ToolHost, hermesHome: string, name: string, change: Mutation | 'forget', now = new Date()): Promise<void> {
  if (!name) return;
  await serialized(usageFile(hermesHome), async () => {
    const data = await loadUsage(host, hermesHome);
    if (change === 'forget') {
      if (!(name in data)) return;
      delete data[name];
    } else {
      if ((await upstreamNames(host, hermesHome)).has(name)) return;
      const iso = pythonUtcIso(now);
      const record = data[name] ?? emptyUsageRecord(iso);
      change(record, iso);
      data[name] = record;
    }
    await host.writeText(usageFile(hermesHome), sortedJson(data));
  }).catch(() => undefined);
}

const bump =
  (count: string, at: string): Mutation =>
  (r, now) => {
    r[count] = (Number(r[count]) || 0) + 1;
    r[at] = now;
  };

export const skillUsage = {
  /** skill_view loaded it: Hermes counts a view and a use. */
  viewed: (host: ToolHost, hermesHome: string, name: string, now?: Date) =>
    mutate(
      host,
      hermesHome,
      name,
      (r, iso) => {
        bump('view_count', 'last_viewed_at')(r, iso);
        bump('use_count', 'last_used_at')(r, iso);
      },
      now,
    ),
  /** Invoked by `/<skill>` or `/use`: a use. */
  used: (host: ToolHost, hermesHome: string, name: string, now?: Date) => mutate(host, hermesHome, name, bump('use_count', 'last_used_at'), now),
  /** skill_manage changed its guidance (edit, patch, write_file, remove_file). */
  patched: (host: ToolHost, hermesHome: string, name: string, now?: Date) => mutate(host, hermesHome, name, bump('patch_count', 'last_patched_at'), now),
  /** skill_manage deleted it: the record goes. */
  forget: (host: ToolHost, hermesHome: string, name: string) => mutate(host, hermesHome, name, 'forget'),
};
