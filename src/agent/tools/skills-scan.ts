import { parse as parseYaml } from 'yaml';
import { joinPath } from './paths.js';
import type { SkillsSettings } from './knowledge-context.js';
import type { ToolHost } from './types.js';

/**
 * Finding Hermes skills on disk: `$HERMES_HOME/skills/<category>/<name>/SKILL.md` (YAML
 * frontmatter + instructions, beside references/ templates/ assets/ scripts/), then each
 * `skills.external_dirs` root. The first skill of a name wins; `skills.disabled`, `platforms`
 * and the metadata.hermes requires/fallback conditions hide skills as Hermes does.
 */

/** Never skill roots: VCS, caches, virtualenvs, dependencies, Hermes' hub/archive dirs. */
export const EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '.github',
  '.hub',
  '.archive',
  '.venv',
  'venv',
  'node_modules',
  'site-packages',
  '__pycache__',
  '.tox',
  '.nox',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
]);
/** Inside a skill these hold its linked files, never further skills. */
export const SUPPORT_DIRS = ['references', 'templates', 'assets', 'scripts'] as const;
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Index descriptions are cut shorter: the index rides in every prompt. */
const INDEX_DESCRIPTION_LENGTH = 60;
const MAX_SCANNED_FILES = 20_000;
const PLATFORMS: Record<string, string> = { macos: 'darwin', linux: 'linux', windows: 'win32' };

export type Frontmatter = Record<string, unknown>;

export interface SkillEntry {
  name: string;
  description: string;
  /** skills_list's category: the first directory of `<category>/<name>/SKILL.md`, else null. */
  category: string | null;
  /** The index's grouping (Hermes: the path above the skill dir, or the skill's own dir at the top). */
  indexCategory: string;
  /** Absolute path of SKILL.md, and of its directory. */
  skillMd: string;
  dir: string;
  /** The root it was found under and its path there (`mlops/axolotl/SKILL.md`). */
  root: string;
  relPath: string;
  frontmatter: Frontmatter;
}

/** Frontmatter and body of a markdown file; malformed YAML falls back to `key: value` lines. */
export function parseFrontmatter(text: string): { frontmatter: Frontmatter; body: string } {
  const content = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (!content.startsWith('---')) return { frontmatter: {}, body: content };
  const end = /\n---\s*\n/.exec(content.slice(3));
  if (!end) return { frontmatter: {}, body: content };
  const yamlText = content.slice(3, end.index + 3);
  const body = content.slice(end.index + 3 + end[0].length);
  try {
    const parsed: unknown = parseYaml(yamlText);
    return { frontmatter: parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Frontmatter) : {}, body };
  } catch {
    const frontmatter: Frontmatter = {};
    for (const line of yamlText.trim().split('\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) frontmatter[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    return { frontmatter, body };
  }
}

/** `platforms: [macos, linux]` against the machine; absent or empty means every platform. */
export function matchesPlatform(frontmatter: Frontmatter, platform: string): boolean {
  const raw = frontmatter.platforms;
  if (!raw || (Array.isArray(raw) && !raw.length)) return true;
  const list = Array.isArray(raw) ? raw : [raw];
  return list.some((p) => {
    const name = String(p).toLowerCase().trim();
    return platform.startsWith(PLATFORMS[name] ?? name);
  });
}

function hermesMeta(frontmatter: Frontmatter): Record<string, unknown> {
  const meta = frontmatter.metadata;
  const hermes = meta && typeof meta === 'object' ? (meta as Record<string, unknown>).hermes : null;
  return hermes && typeof hermes === 'object' ? (hermes as Record<string, unknown>) : {};
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : []);

/** Hermes' toolsets of the tools this runtime offers (for requires_/fallback_for_toolsets). */
const TOOLSET_OF: Record<string, string> = {
  terminal: 'terminal',
  process: 'terminal',
  read_file: 'file',
  write_file: 'file',
  patch: 'file',
  search_files: 'file',
  todo: 'todo',
  memory: 'memory',
  clarify: 'clarify',
  session_search: 'session_search',
  skills_list: 'skills',
  skill_view: 'skills',
  skill_manage: 'skills',
  vision_analyze: 'vision',
  web_search: 'web',
  web_extract: 'web',
  delegate_task: 'delegation',
};

/** False when the skill's conditions hide it: a fallback whose primary is here, or a missing requirement. */
export function conditionsAllow(frontmatter: Frontmatter, tools: readonly string[] | null): boolean {
  if (!tools) return true;
  const meta = hermesMeta(frontmatter);
  const toolsets = new Set(tools.map((t) => TOOLSET_OF[t]).filter(Boolean));
  const has = (t: string) => tools.includes(t);
  return !(
    strings(meta.fallback_for_toolsets).some((ts) => toolsets.has(ts)) ||
    strings(meta.fallback_for_tools).some(has) ||
    strings(meta.requires_toolsets).some((ts) => !toolsets.has(ts)) ||
    strings(meta.requires_tools).some((t) => !has(t))
  );
}

/** Tags and related skills: metadata.hermes.* first, then top level; lists or "a, b" strings. */
export function listField(frontmatter: Frontmatter, key: string): string[] {
  const raw = hermesMeta(frontmatter)[key] || frontmatter[key];
  if (!raw) return [];
  if (Array.isArray(raw)) return raw.filter(Boolean).map((t) => String(t).trim());
  let text = String(raw).trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  return text
    .split(',')
    .map((t) => t.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
}

export function truncateDescription(description: string): string {
  return description.length <= MAX_DESCRIPTION_LENGTH ? description : `${description.slice(0, MAX_DESCRIPTION_LENGTH - 3)}...`;
}

/** The roots to scan, local first. */
export function skillRoots(hermesHome: string, settings: SkillsSettings): string[] {
  const local = joinPath(hermesHome, 'skills');
  return [local, ...settings.externalDirs.filter((d) => d !== local)];
}

/** SKILL.md files under `root` (relative paths), leaving out those inside another skill's support dirs. */
export async function skillFiles(host: ToolHost, root: string, file = 'SKILL.md'): Promise<string[]> {
  if (!host.walkFiles) return [];
  const all = await host.walkFiles(root, { skipDirs: EXCLUDED_DIRS, maxFiles: MAX_SCANNED_FILES });
  const skillDirs = new Set(all.filter((p) => p === 'SKILL.md' || p.endsWith('/SKILL.md')).map((p) => p.slice(0, -'SKILL.md'.length)));
  return all.filter((p) => {
    if (!(p === file || p.endsWith(`/${file}`))) return false;
    const parts = p.split('/');
    // A support dir directly inside a skill: its files are linked files, not skills.
    for (let i = 1; i < parts.length - 1; i++) {
      if ((SUPPORT_DIRS as readonly string[]).includes(parts[i]!) && skillDirs.has(parts.slice(0, i).join('/') + '/')) return false;
    }
    return true;
  });
}

function describe(frontmatter: Frontmatter, body: string): string {
  const fm = frontmatter.description;
  if (fm !== undefined && fm !== null && String(fm).trim()) return String(fm);
  return (
    body
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('#')) ?? ''
  );
}

/**
 * Parsed heads of SKILL.md texts seen before: YAML parsing dominates a warm scan of hundreds of
 * skills, and the text itself is the key, so an edited file is parsed again. Read-only results.
 */
const heads = new Map<string, { frontmatter: Frontmatter; body: string }>();
const MAX_HEADS = 5000;

export function headOf(text: string): { frontmatter: Frontmatter; body: string } {
  const head = text.slice(0, 4000);
  let parsed = heads.get(head);
  if (!parsed) {
    parsed = parseFrontmatter(head);
    if (heads.size >= MAX_HEADS) heads.delete(heads.keys().next().value!);
    heads.set(head, parsed);
  }
  return parsed;
}

/** Texts of `paths` (null where unreadable), read at most 32 at a time. */
export async function readSkillTexts(host: ToolHost, paths: string[]): Promise<Array<string | null>> {
  const out: Array<string | null> = new Array(paths.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const i = next++;
      out[i] = await host.readText(paths[i]!).catch(() => null);
    }
  };
  await Promise.all(Array.from({ length: Math.min(32, paths.length) }, worker));
  return out;
}

/**
 * Every visible skill, first-wins by name, in scan order (sorted paths per root). `tools` (the
 * offered tool names) applies the requires/fallback conditions; null skips them (skills_list).
 */
export async function findSkills(
  host: ToolHost,
  input: { hermesHome: string; settings: SkillsSettings; platform: string; tools: readonly string[] | null; includeDisabled?: boolean },
): Promise<SkillEntry[]> {
  const disabled = new Set(input.includeDisabled ? [] : input.settings.disabled);
  const seen = new Set<string>();
  const out: SkillEntry[] = [];
  for (const root of skillRoots(input.hermesHome, input.settings)) {
    const relPaths = await skillFiles(host, root);
    // Read side by side (a tree of hundreds of skills), then judged in scan order: first wins.
    const texts = await readSkillTexts(
      host,
      relPaths.map((p) => joinPath(root, p)),
    );
    for (const [i, relPath] of relPaths.entries()) {
      const skillMd = joinPath(root, relPath);
      const text = texts[i];
      if (text === null || text === undefined) continue;
      const { frontmatter, body } = headOf(text);
      if (!matchesPlatform(frontmatter, input.platform) || !conditionsAllow(frontmatter, input.tools)) continue;
      const parts = relPath.split('/');
      const dirName = parts[parts.length - 2] ?? relPath;
      const name = String(frontmatter.name ?? dirName).slice(0, MAX_NAME_LENGTH);
      if (seen.has(name) || disabled.has(name) || disabled.has(dirName)) continue;
      seen.add(name);
      out.push({
        name,
        description: truncateDescription(describe(frontmatter, body)),
        category: parts.length >= 3 ? parts[0]! : null,
        indexCategory: parts.length < 2 ? 'general' : parts.length > 2 ? parts.slice(0, -2).join('/') : parts[0]!,
        skillMd,
        dir: skillMd.slice(0, -'/SKILL.md'.length),
        root,
        relPath,
        frontmatter,
      });
    }
  }
  return out;
}

/** `description` of each DESCRIPTION.md, by category path. */
async function categoryDescriptions(host: ToolHost, roots: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const root of roots) {
    for (const rel of await skillFiles(host, root, 'DESCRIPTION.md')) {
      const text = await host.readText(joinPath(root, rel)).catch(() => null);
      const desc = text ? parseFrontmatter(text).frontmatter.description : null;
      const category = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : 'general';
      if (desc && !found.has(category))
        found.set(
          category,
          String(desc)
            .trim()
            .replace(/^["']|["']$/g, ''),
        );
    }
  }
  return found;
}

function indexDescription(frontmatter: Frontmatter): string {
  const raw = frontmatter.description;
  const desc = raw
    ? String(raw)
        .trim()
        .replace(/^["']+|["']+$/g, '')
    : '';
  return desc.length > INDEX_DESCRIPTION_LENGTH ? `${desc.slice(0, INDEX_DESCRIPTION_LENGTH - 3)}...` : desc;
}

/**
 * The `## Skills` block of the system prompt, in Hermes' layout (categories sorted, each skill
 * `    - name: short description` inside `<available_skills>`); '' without skills.
 */
export async function skillsIndex(
  host: ToolHost,
  input: { hermesHome: string; settings: SkillsSettings; platform: string; tools: readonly string[] },
): Promise<string> {
  const skills = await findSkills(host, input);
  if (!skills.length) return '';
  const descriptions = await categoryDescriptions(host, skillRoots(input.hermesHome, input.settings));
  const byCategory = new Map<string, SkillEntry[]>();
  for (const s of skills) byCategory.set(s.indexCategory, [...(byCategory.get(s.indexCategory) ?? []), s]);
  const lines: string[] = [];
  for (const category of [...byCategory.keys()].sort()) {
    const desc = descriptions.get(category);
    lines.push(desc ? `  ${category}: ${desc}` : `  ${category}:`);
    for (const s of [...byCategory.get(category)!].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const d = indexDescription(s.frontmatter);
      lines.push(d ? `    - ${s.name}: ${d}` : `    - ${s.name}`);
    }
  }
  const basic = input.tools.includes('web_search') ? 'web_search or terminal' : 'terminal';
  return [
    '## Skills',
    'Before you answer, look through the skills below. When one fits the task, even partly, load it with ' +
      "skill_view(name) and follow it: skills carry the user's own procedures, conventions, commands and " +
      `pitfalls for that kind of work, and they beat improvising with basic tools like ${basic}. ` +
      'Load a matching skill even for work you already know how to do.',
    '',
    '<available_skills>',
    ...lines,
    '</available_skills>',
    '',
    'Go ahead without a skill only when none of them is relevant.',
  ].join('\n');
}
