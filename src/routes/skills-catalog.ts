import { joinPath } from '../agent/tools/paths.js';
import {
  EXCLUDED_DIRS,
  MAX_NAME_LENGTH,
  SUPPORT_DIRS,
  listField,
  matchesPlatform,
  parseFrontmatter,
  truncateDescription,
  type Frontmatter,
} from '../agent/tools/skills-scan.js';
import type { HermesFiles } from '../ports/hermes-home.js';
import { linkedFiles, type LinkedFiles } from '../domain/skill-rules.js';
import type { SkillsConfig } from '../domain/skills-config.js';

/** Hermes' own cap on one scan. */
const MAX_SCANNED_FILES = 20_000;
/** Front matter and the first lines are all a list needs (Hermes reads the same 4,000 characters). */
const HEAD_CHARS = 4000;

export interface SkillRecord {
  name: string;
  description: string;
  /** The incumbent's category: the first folder of `<category>/<name>/SKILL.md`; an external root's own name for a flat skill there; else null. */
  category: string | null;
  disabled: boolean;
  /** Found under a `skills.external_dirs` root: listed and viewable, never written. */
  external: boolean;
  /** The root it was found under, and SKILL.md's path there (`devops/deploy/SKILL.md`). */
  root: string;
  relPath: string;
  /** Absolute path of the skill's directory. */
  dir: string;
  /** The directory's own name (what Hermes' skill_manage finds a skill by). */
  dirName: string;
  frontmatter: Frontmatter;
  /** metadata.hermes.tags (or top-level tags). */
  tags: string[];
  linkedFiles: LinkedFiles;
}

const baseName = (path: string) => path.replace(/\/+$/, '').split('/').pop() ?? path;

/** SKILL.md paths of one root, leaving out those inside another skill's support folders (Hermes' rule). */
function skillPaths(all: readonly string[]): string[] {
  const skillDirs = new Set(all.filter((p) => p === 'SKILL.md' || p.endsWith('/SKILL.md')).map((p) => p.slice(0, -'SKILL.md'.length)));
  return all.filter((p) => {
    if (!(p === 'SKILL.md' || p.endsWith('/SKILL.md'))) return false;
    const parts = p.split('/');
    for (let i = 1; i < parts.length - 1; i++) {
      if ((SUPPORT_DIRS as readonly string[]).includes(parts[i]!) && skillDirs.has(`${parts.slice(0, i).join('/')}/`)) return false;
    }
    return true;
  });
}

interface Head {
  mtime: number;
  size: number;
  frontmatter: Frontmatter;
  description: string;
}
/** Parsed SKILL.md heads by path, per file source: YAML parsing is most of a scan's cost. */
const heads = new WeakMap<HermesFiles, Map<string, Head>>();
const MAX_CACHED_HEADS = 50_000;

/** SKILL.md's front matter and description, parsed again only when its mtime or size changed. */
async function readHead(files: HermesFiles, path: string): Promise<Head | null> {
  let cache = heads.get(files);
  if (!cache) heads.set(files, (cache = new Map()));
  const st = await files.stat(path).catch(() => null);
  if (!st) return null;
  const known = cache.get(path);
  // A symlink's own times say nothing about its target: read it every time.
  if (known && st.kind === 'file' && known.mtime === st.mtime && known.size === st.size) return known;
  const text = await files.readText(path).catch(() => null);
  if (text === null) return null;
  const { frontmatter, body } = parseFrontmatter(text.slice(0, HEAD_CHARS));
  const head = { mtime: st.mtime, size: st.size, frontmatter, description: truncateDescription(describe(frontmatter, body)) };
  if (cache.size >= MAX_CACHED_HEADS) cache.clear();
  if (st.kind === 'file') cache.set(path, head);
  return head;
}

/** The paths of sorted `all` that start with `prefix`, without it (a contiguous run: found by bisection). */
function under(all: readonly string[], prefix: string): string[] {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < all.length && all[i]!.startsWith(prefix); i++) out.push(all[i]!.slice(prefix.length));
  return out;
}

function describe(frontmatter: Frontmatter, body: string): string {
  const fm = frontmatter.description;
  if (fm !== undefined && fm !== null && String(fm).trim()) return String(fm);
  return (
    body
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('#')) ?? ''
  );
}

/**
 * How old a scan may be before a request starts the next one (answering from the last meanwhile):
 * a change made outside this server shows within about a second; its own writes forget the scan.
 */
export const SCAN_FRESH_MS = 1000;
type Found = Omit<SkillRecord, 'disabled'>;
interface Scan {
  at: number;
  found: Promise<Found[]>;
}
const scans = new WeakMap<HermesFiles, Map<string, Scan>>();
const refreshing = new WeakSet<Scan>();

/** Forgets the scans of these files (after a save, delete or toggle here). */
export function forgetSkills(files: HermesFiles): void {
  scans.delete(files);
}

/**
 * Every skill of a profile, as the incumbent's Skills panel lists them: the home's `skills/`
 * first, then each external root; the first skill of a name wins; skills whose `platforms`
 * leave this machine out are hidden. Disabled skills are listed, marked `disabled`.
 * One walk per root (HermesFiles.walk) gives both the SKILL.md files and their linked files;
 * a scan is reused, and refreshed in the background once older than SCAN_FRESH_MS.
 */
export async function scanSkills(files: HermesFiles, input: { root: string; config: SkillsConfig; platform: string; now?: number }): Promise<SkillRecord[]> {
  const roots = [joinPath(input.root, 'skills'), ...input.config.externalDirs];
  const key = JSON.stringify([input.platform, roots]);
  let byKey = scans.get(files);
  if (!byKey) scans.set(files, (byKey = new Map()));
  const now = input.now ?? Date.now();
  const map = byKey;
  const start = () => {
    const next = { at: now, found: discover(files, roots, input.platform) };
    next.found.then(
      () => map.set(key, next),
      () => map.get(key) === next && map.delete(key),
    );
    return next;
  };
  let entry = map.get(key);
  if (!entry) {
    entry = start();
    map.set(key, entry);
  } else if (now - entry.at > SCAN_FRESH_MS && !refreshing.has(entry)) {
    // Stale: this answer comes from the last scan while a new one runs beside it.
    const old = entry;
    refreshing.add(old);
    start()
      .found.finally(() => refreshing.delete(old))
      .catch(() => {});
  }
  const found = await entry.found;
  // The same array for the same scan and disabled list, so callers can keep what they built from it.
  const disabledKey = [...input.config.disabled].sort().join('\n');
  const known = marked.get(found);
  if (known?.disabledKey === disabledKey) return known.records;
  const records = found.map((s) => ({ ...s, disabled: input.config.disabled.has(s.name) }));
  marked.set(found, { disabledKey, records });
  return records;
}
const marked = new WeakMap<Found[], { disabledKey: string; records: SkillRecord[] }>();

async function discover(files: HermesFiles, roots: string[], platform: string): Promise<Found[]> {
  const local = roots[0]!;
  const out: Found[] = [];
  const seen = new Set<string>();
  const walks = await Promise.all(roots.map((root) => files.walk(root, { skipDirs: EXCLUDED_DIRS, maxFiles: MAX_SCANNED_FILES })));
  for (const [r, root] of roots.entries()) {
    const all = walks[r]!;
    const paths = skillPaths(all);
    const heads = await Promise.all(paths.map((p) => readHead(files, joinPath(root, p))));
    paths.forEach((relPath, i) => {
      const head = heads[i];
      if (!head) return;
      const { frontmatter, description } = head;
      if (!matchesPlatform(frontmatter, platform)) return;
      const parts = relPath.split('/');
      const dirRel = parts.slice(0, -1).join('/');
      const dirName = parts.length >= 2 ? parts[parts.length - 2]! : baseName(root);
      const name = String(frontmatter.name ?? dirName).slice(0, MAX_NAME_LENGTH);
      if (seen.has(name)) return;
      seen.add(name);
      const prefix = dirRel ? `${dirRel}/` : '';
      out.push({
        name,
        description,
        category: parts.length >= 3 ? parts[0]! : parts.length === 2 && root !== local ? baseName(root) : null,
        external: root !== local,
        root,
        relPath,
        dir: dirRel ? joinPath(root, dirRel) : root,
        dirName,
        frontmatter,
        tags: listField(frontmatter, 'tags'),
        linkedFiles: linkedFiles(prefix ? under(all, prefix) : all),
      });
    });
  }
  return out.sort((a, b) => (a.category ?? '').localeCompare(b.category ?? '') || a.name.localeCompare(b.name));
}

/** The skill a panel request names: by front matter name, else by directory name (`ns:skill` as `ns/skill` too). */
export function findSkill(skills: readonly SkillRecord[], name: string): SkillRecord | null {
  const wanted = name.trim().replace(/^\/+|\/+$/g, '');
  if (!wanted) return null;
  const slashed = wanted.includes(':') ? wanted.replace(':', '/') : null;
  return (
    skills.find((s) => s.name === wanted) ??
    skills.find((s) => s.dirName === wanted) ??
    (slashed ? skills.find((s) => s.relPath === `${slashed}/SKILL.md`) : undefined) ??
    null
  );
}

/** The shape the incumbent's `skill_view` answer has, plus where it lives. */
export function skillView(skill: SkillRecord, content: string) {
  const { frontmatter } = parseFrontmatter(content);
  return {
    success: true,
    name: String(frontmatter.name ?? skill.dirName),
    description: frontmatter.description === undefined || frontmatter.description === null ? '' : String(frontmatter.description),
    tags: listField(frontmatter, 'tags'),
    related_skills: listField(frontmatter, 'related_skills'),
    content,
    path: skill.relPath,
    skill_dir: skill.dir,
    category: skill.category,
    disabled: skill.disabled,
    read_only: skill.external,
    linked_files: skill.linkedFiles,
  };
}

/** One row of GET /api/skills: the incumbent's fields (name, description, category, disabled) and ours. */
export function skillRow(skill: SkillRecord) {
  return {
    name: skill.name,
    description: skill.description,
    category: skill.category,
    disabled: skill.disabled,
    enabled: !skill.disabled,
    path: skill.relPath,
    source: skill.external ? 'external' : 'local',
    read_only: skill.external,
    tags: skill.tags,
    linked_files: skill.linkedFiles,
  };
}
