import { joinPath } from '../agent/tools/paths.js';
import type { HermesHome } from '../ports/hermes-home.js';

const COUNTERS = ['use_count', 'view_count', 'patch_count'] as const;
type UsageRecord = Record<string, unknown> & { use_count: number; view_count: number; patch_count: number };

const count = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : 0;
  return Number.isFinite(n) ? Math.trunc(n) : 0;
};

/**
 * `skills/.usage.json`, which Hermes' skill tools keep (`{name: {use_count, view_count,
 * patch_count, last_used_at, …}}`), read-only, as the incumbent reports it: the three counters
 * coerced to numbers, every other key passed through, totals beside. Missing or corrupt: empty.
 */
export async function readSkillUsage(home: HermesHome) {
  let raw: unknown = null;
  try {
    raw = JSON.parse((await home.files.readText(joinPath(home.root, 'skills/.usage.json'))) ?? 'null');
  } catch {
    raw = null;
  }
  const usage: Record<string, UsageRecord> = {};
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
      const rec = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
      usage[name] = { ...rec, use_count: count(rec.use_count), view_count: count(rec.view_count), patch_count: count(rec.patch_count) };
    }
  }
  const entries = Object.values(usage);
  return {
    usage,
    total_invocations: entries.reduce((sum, e) => sum + COUNTERS.reduce((s, k) => s + e[k], 0), 0),
    unique_skills_used: entries.filter((e) => COUNTERS.some((k) => e[k] > 0)).length,
  };
}
