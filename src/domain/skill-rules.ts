import { parse as parseYaml } from 'yaml';
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '../agent/tools/skills-scan.js';

/**
 * Hermes' rules for a skill written by hand or by the panel (its skill_manage create/edit
 * checks), and the shape of a skill directory: which files count as its linked files.
 */

/** Hermes' skill and category names: lowercase, digits, `.`, `_`, `-`, starting with a letter or digit. */
const VALID_NAME = /^[a-z0-9][a-z0-9._-]*$/;
/** skill_manage's cap on SKILL.md (about 36k tokens). */
export const MAX_SKILL_CHARS = 100_000;
/** A linked file larger than this is not sent to the browser (skill_manage's cap on one file). */
export const MAX_LINKED_FILE_BYTES = 1_048_576;

/** The panel's name as the incumbent normalises it: trimmed, lowercase, spaces as hyphens. */
export const normaliseSkillName = (name: string) => name.trim().toLowerCase().replace(/\s+/g, '-');

/** null when Hermes would accept `name` as a skill's directory name, else its message. */
export function skillNameError(name: string): string | null {
  if (!name) return 'Skill name is required.';
  if (name.length > MAX_NAME_LENGTH) return `Skill name exceeds ${MAX_NAME_LENGTH} characters.`;
  if (!VALID_NAME.test(name))
    return `Invalid skill name '${name}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.`;
  return null;
}

/** null for no category or one Hermes accepts (one directory level), else its message. */
export function categoryError(category: string): string | null {
  if (!category) return null;
  const bad = `Invalid category '${category}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Categories must be a single directory name.`;
  if (category.includes('/') || category.includes('\\')) return bad;
  if (category.length > MAX_NAME_LENGTH) return `Category exceeds ${MAX_NAME_LENGTH} characters.`;
  return VALID_NAME.test(category) ? null : bad;
}

/**
 * null when SKILL.md text has what Hermes requires: YAML front matter (a mapping with `name`
 * and `description`, the description at most 1,024 characters) closed by `---`, then a body.
 */
export function skillContentError(content: string): string | null {
  if (!content.trim()) return 'Content cannot be empty.';
  if (content.length > MAX_SKILL_CHARS)
    return `SKILL.md content is ${content.length.toLocaleString('en-US')} characters (limit: ${MAX_SKILL_CHARS.toLocaleString('en-US')}). Move detail into references/ or templates/ files.`;
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  if (!text.startsWith('---')) return 'SKILL.md must start with YAML frontmatter (---).';
  const end = /\n---\s*\n/.exec(text.slice(3));
  if (!end) return "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line.";
  let parsed: unknown;
  try {
    parsed = parseYaml(text.slice(3, end.index + 3));
  } catch (err) {
    return `YAML frontmatter parse error: ${(err as Error).message.split('\n')[0]}`;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'Frontmatter must be a YAML mapping (key: value pairs).';
  const fm = parsed as Record<string, unknown>;
  if (!('name' in fm)) return "Frontmatter must include 'name' field.";
  if (!('description' in fm)) return "Frontmatter must include 'description' field.";
  if (String(fm.description).length > MAX_DESCRIPTION_LENGTH) return `Description exceeds ${MAX_DESCRIPTION_LENGTH} characters.`;
  if (!text.slice(end.index + 3 + end[0].length).trim()) return 'SKILL.md must have content after the frontmatter (instructions, procedures, etc.).';
  return null;
}

/** A `file=` path inside a skill: relative, no `..`, no NUL. null when acceptable. */
export function linkedPathError(file: string): string | null {
  if (!file || file.includes('\0')) return 'Invalid file path';
  if (file.startsWith('/') || file.startsWith('\\') || /^[a-zA-Z]:/.test(file)) return 'Invalid file path: absolute paths are not allowed';
  if (file.split(/[/\\]/).some((part) => part === '..')) return "Invalid file path: path traversal ('..') is not allowed";
  return null;
}

export type LinkedFiles = Partial<Record<'references' | 'templates' | 'assets' | 'scripts', string[]>>;

const ext = (path: string) => {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
};
const TEMPLATE_EXTS = new Set(['.md', '.py', '.yaml', '.yml', '.json', '.tex', '.sh']);
const SCRIPT_EXTS = new Set(['.py', '.sh', '.bash', '.js', '.ts', '.rb']);

/**
 * The linked files of a skill, from the paths of every file in its directory (relative to it),
 * by the incumbent's rules: references/*.md and scripts/ code at the top of their folder,
 * templates/ by extension and assets/ whole, at any depth. Sorted; empty groups left out.
 */
export function linkedFiles(paths: readonly string[]): LinkedFiles {
  const groups: Required<LinkedFiles> = { references: [], templates: [], assets: [], scripts: [] };
  for (const p of paths) {
    const slash = p.indexOf('/');
    if (slash < 0) continue;
    const top = p.slice(0, slash);
    const flat = !p.slice(slash + 1).includes('/');
    if (top === 'references' && flat && ext(p) === '.md') groups.references.push(p);
    else if (top === 'templates' && TEMPLATE_EXTS.has(ext(p))) groups.templates.push(p);
    else if (top === 'assets') groups.assets.push(p);
    else if (top === 'scripts' && flat && SCRIPT_EXTS.has(ext(p))) groups.scripts.push(p);
  }
  const out: LinkedFiles = {};
  for (const [k, v] of Object.entries(groups) as [keyof LinkedFiles, string[]][]) if (v.length) out[k] = v.sort();
  return out;
}

/**
 * A config list as Hermes reads it: a YAML list, or a string holding a JSON/Python list
 * (`hermes config set` writes those), or one name.
 */
export function configNameList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  if (typeof value === 'string') {
    const s = value.trim();
    if (s.startsWith('[')) {
      try {
        const parsed: unknown = parseYaml(s);
        if (Array.isArray(parsed)) return parsed.map((v) => String(v).trim()).filter(Boolean);
      } catch {
        /* not a list after all: one name */
      }
    }
    return s ? [s] : [];
  }
  return [];
}
