import { parse as parseYaml } from 'yaml';
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from './skills-scan.js';

/**
 * What skill_manage accepts, as Hermes' skill manager checks it: names and categories are one
 * lowercase directory segment, SKILL.md opens with a YAML mapping naming `name` and
 * `description` and has a body, text is capped at 100,000 characters and a supporting file at
 * 1 MiB, and supporting files live under references/, templates/, scripts/ or assets/.
 */

export const MAX_SKILL_CONTENT_CHARS = 100_000;
export const MAX_SKILL_FILE_BYTES = 1_048_576;
export const ALLOWED_SUBDIRS = ['assets', 'references', 'scripts', 'templates'] as const;
const NAME_RE = /^[a-z0-9][a-z0-9._-]*$/;

export function nameError(name: string): string | null {
  if (!name) return 'Skill name is required.';
  if (name.length > MAX_NAME_LENGTH) return `Skill name exceeds ${MAX_NAME_LENGTH} characters.`;
  if (!NAME_RE.test(name))
    return `Invalid skill name '${name}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.`;
  return null;
}

export function categoryError(category: unknown): string | null {
  if (category === undefined || category === null) return null;
  if (typeof category !== 'string') return 'Category must be a string.';
  const c = category.trim();
  if (!c) return null;
  const invalid = `Invalid category '${c}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Categories must be a single directory name.`;
  if (c.includes('/') || c.includes('\\')) return invalid;
  if (c.length > MAX_NAME_LENGTH) return `Category exceeds ${MAX_NAME_LENGTH} characters.`;
  return NAME_RE.test(c) ? null : invalid;
}

/** The frontmatter block of SKILL.md text (BOM tolerated), or why there is none. */
function splitFrontmatter(content: string): { yaml: string; body: string } | { error: string } {
  const text = content.replace(/^\uFEFF+/, '');
  if (!text.startsWith('---')) return { error: 'SKILL.md must start with YAML frontmatter (---). See existing skills for format.' };
  const end = /\n---\s*\n/.exec(text.slice(3));
  if (!end) return { error: "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line." };
  return { yaml: text.slice(3, end.index + 3), body: text.slice(end.index + 3 + end[0].length) };
}

export function frontmatterError(content: string): string | null {
  if (!content.trim()) return 'Content cannot be empty.';
  const parts = splitFrontmatter(content);
  if ('error' in parts) return parts.error;
  let parsed: unknown;
  try {
    parsed = parseYaml(parts.yaml);
  } catch (err) {
    return `YAML frontmatter parse error: ${(err as Error).message}`;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'Frontmatter must be a YAML mapping (key: value pairs).';
  const fm = parsed as Record<string, unknown>;
  if (!('name' in fm)) return "Frontmatter must include 'name' field.";
  if (!('description' in fm)) return "Frontmatter must include 'description' field.";
  if (String(fm.description).length > MAX_DESCRIPTION_LENGTH) return `Description exceeds ${MAX_DESCRIPTION_LENGTH} characters.`;
  if (!parts.body.trim()) return 'SKILL.md must have content after the frontmatter (instructions, procedures, etc.).';
  return null;
}

/** The description for the change note (first 120 characters), '' when unreadable. */
export function descriptionOf(content: string): string {
  const parts = splitFrontmatter(content);
  if ('error' in parts) return '';
  try {
    const fm = parseYaml(parts.yaml) as Record<string, unknown> | null;
    return String(fm?.description ?? '').slice(0, 120);
  } catch {
    return '';
  }
}

const grouped = (n: number) => n.toLocaleString('en-US');

export function sizeError(content: string, label = 'SKILL.md'): string | null {
  if (content.length <= MAX_SKILL_CONTENT_CHARS) return null;
  return (
    `${label} content is ${grouped(content.length)} characters (limit: ${grouped(MAX_SKILL_CONTENT_CHARS)}). ` +
    'Consider splitting into a smaller SKILL.md with supporting files in references/ or templates/.'
  );
}

export function fileBytesError(bytes: number): string | null {
  if (bytes <= MAX_SKILL_FILE_BYTES) return null;
  return `File content is ${grouped(bytes)} bytes (limit: ${grouped(MAX_SKILL_FILE_BYTES)} bytes / 1 MiB). Consider splitting into smaller files.`;
}

/**
 * A supporting-file path for write_file/remove_file/patch: relative, no `..`, under an allowed
 * subdirectory with a file name, or SKILL.md itself (`SKILL.md`, `<skill>/SKILL.md`).
 */
export function filePathError(filePath: string): string | null {
  if (!filePath) return 'file_path is required.';
  const parts = filePath.split(/[\\/]+/).filter((p) => p && p !== '.');
  if (parts.includes('..')) return "Path traversal ('..') is not allowed.";
  if (filePath.startsWith('/') || filePath.startsWith('\\') || /^[A-Za-z]:/.test(filePath)) return "Path traversal ('..') is not allowed.";
  if (parts.at(-1) === 'SKILL.md' && parts.length <= 2) return null;
  if (!parts.length || !(ALLOWED_SUBDIRS as readonly string[]).includes(parts[0]!))
    return `File must be under one of: ${ALLOWED_SUBDIRS.join(', ')}. Got: '${filePath}'`;
  if (parts.length < 2) return `Provide a file path, not just a directory. Example: '${parts[0]}/myfile.md'`;
  return null;
}

/** `<skill>/SKILL.md` names the skill's own SKILL.md. */
export function normalFilePath(filePath: string): string {
  const parts = filePath.split(/[\\/]+/).filter((p) => p && p !== '.');
  return parts.at(-1) === 'SKILL.md' && parts.length <= 2 ? 'SKILL.md' : parts.join('/');
}
