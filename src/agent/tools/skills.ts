import { errorMessage, json, str } from './args.js';
import type { KnowledgeContext } from './knowledge-context.js';
import { isInsideDir, joinPath } from './paths.js';
import { skillUsage } from './skill-usage.js';
import {
  EXCLUDED_DIRS,
  findSkills,
  headOf,
  readSkillTexts,
  listField,
  matchesPlatform,
  parseFrontmatter,
  skillFiles,
  skillRoots,
  SUPPORT_DIRS,
  type Frontmatter,
  type SkillEntry,
} from './skills-scan.js';
import type { Tool, ToolContext } from './types.js';

const fail = (error: string, extra: Record<string, unknown> = {}) => json({ success: false, error, ...extra });
const LOOKUP_HINT = 'Use a skill name or a path relative to the skills directory.';
const TEXT_EXTENSIONS = ['.md', '.py', '.yaml', '.yml', '.json', '.tex', '.sh'];
/** linked_files groups: which files of each support dir are listed, and whether to recurse. */
const LINKED: Array<{ dir: (typeof SUPPORT_DIRS)[number]; recursive: boolean; matches: (file: string) => boolean }> = [
  { dir: 'references', recursive: false, matches: (f) => f.endsWith('.md') },
  { dir: 'templates', recursive: true, matches: (f) => TEXT_EXTENSIONS.includes(extension(f)) },
  { dir: 'assets', recursive: true, matches: () => true },
  { dir: 'scripts', recursive: false, matches: (f) => ['.py', '.sh', '.bash', '.js', '.ts', '.rb'].includes(extension(f)) },
];

function extension(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
}

function services(ctx: ToolContext): { knowledge: KnowledgeContext; platform: string } | null {
  if (!ctx.knowledge || !ctx.host.walkFiles) return null;
  return { knowledge: ctx.knowledge, platform: ctx.knowledge.platform };
}

/** Code-point order, as Python sorts Hermes' listings. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byCategoryThenName = (a: SkillEntry, b: SkillEntry) => cmp(a.category ?? '', b.category ?? '') || cmp(a.name, b.name);

export const skillsListTool: Tool = {
  spec: {
    name: 'skills_list',
    description: 'List the available skills (name and description). Load one with skill_view(name) for its full instructions.',
    parameters: {
      type: 'object',
      properties: { category: { type: 'string', description: 'Only skills of this category' } },
      required: [],
    },
  },
  async run(args, ctx) {
    const s = services(ctx);
    if (!s) return fail('Skills are not available on this server');
    try {
      let skills = await findSkills(ctx.host, { hermesHome: ctx.hermesHome, settings: s.knowledge.skills, platform: s.platform, tools: null });
      if (!skills.length) return json({ success: true, skills: [], categories: [], message: 'No skills found in the skills directory.' });
      const category = str(args.category)?.trim();
      if (category) skills = skills.filter((k) => k.category === category);
      skills.sort(byCategoryThenName);
      return json({
        success: true,
        skills: skills.map((k) => ({ name: k.name, description: k.description, category: k.category })),
        categories: [...new Set(skills.map((k) => k.category).filter((c): c is string => !!c))].sort(),
        count: skills.length,
        hint: 'Load one with skill_view(name) for its content, tags and linked files',
      });
    } catch (err) {
      return fail(errorMessage(err));
    }
  },
};

/** A lookup name that could leave the skills roots, or null when it is fine. */
function lookupError(name: string): string | null {
  const n = name.trim();
  if (n.startsWith('/') || /^[A-Za-z]:[\\/]/.test(n) || n.startsWith('\\')) return 'Skill name must be a relative path within the skills directory.';
  if (n.split(/[\\/]/).includes('..')) return "Skill name cannot contain '..' path traversal components.";
  return null;
}

interface Candidate {
  dir: string | null;
  skillMd: string;
  root: string;
}

/** Every skill `name` could mean, across roots: a direct path, a dir or frontmatter name, a flat `<name>.md`. */
async function candidates(ctx: ToolContext, names: string[], roots: string[]): Promise<Candidate[]> {
  const found = new Map<string, Candidate>();
  const add = (c: Candidate) => found.has(c.skillMd) || found.set(c.skillMd, c);
  for (const root of roots) {
    for (const n of names) {
      const direct = joinPath(root, n);
      if (!isInsideDir(root, direct)) continue;
      if ((await ctx.host.stat(`${direct}/SKILL.md`))?.isFile) add({ dir: direct, skillMd: `${direct}/SKILL.md`, root });
      else if ((await ctx.host.stat(`${direct}.md`))?.isFile) add({ dir: null, skillMd: `${direct}.md`, root });
    }
    const name = names[0]!;
    const rels = await skillFiles(ctx.host, root);
    // Texts read side by side; matches are added in scan order.
    const texts = await readSkillTexts(
      ctx.host,
      rels.map((rel) => joinPath(root, rel)),
    );
    for (const [i, rel] of rels.entries()) {
      const skillMd = joinPath(root, rel);
      const parts = rel.split('/');
      const text = texts[i];
      if (parts[parts.length - 2] === name || (text && headOf(text).frontmatter.name === name))
        add({ dir: skillMd.slice(0, -'/SKILL.md'.length), skillMd, root });
    }
  }
  return [...found.values()];
}

/** The files of a skill directory by support dir, as skill_view's linked_files lists them. */
async function linkedFiles(ctx: ToolContext, dir: string): Promise<Record<string, string[]> | null> {
  const files = await ctx.host.walkFiles!(dir, { skipDirs: EXCLUDED_DIRS, maxFiles: 2000 });
  const out: Record<string, string[]> = {};
  for (const spec of LINKED) {
    const prefix = `${spec.dir}/`;
    const hits = files.filter((f) => f.startsWith(prefix) && (spec.recursive || !f.slice(prefix.length).includes('/')) && spec.matches(f));
    if (hits.length) out[spec.dir] = hits;
  }
  return Object.keys(out).length ? out : null;
}

/** Every non-SKILL.md file by support dir (+ `other` for known text files elsewhere), dot-dirs left out. */
async function availableFiles(ctx: ToolContext, dir: string): Promise<Record<string, string[]>> {
  const files = await ctx.host.walkFiles!(dir, { skipDirs: EXCLUDED_DIRS, maxFiles: 2000 });
  const groups: Record<string, string[]> = {};
  for (const f of files) {
    if (f === 'SKILL.md' || f.split('/').some((p) => p.startsWith('.'))) continue;
    const top = f.includes('/') ? f.slice(0, f.indexOf('/')) : null;
    const group = top && (SUPPORT_DIRS as readonly string[]).includes(top) ? top : TEXT_EXTENSIONS.includes(extension(f)) ? 'other' : null;
    if (group) (groups[group] ??= []).push(f);
  }
  return groups;
}

/** `${HERMES_SKILL_DIR}` and `${HERMES_SESSION_ID}` in a skill's text, as Hermes' template vars. */
function renderTemplate(content: string, dir: string | null, sessionId: string): string {
  return content.replaceAll('${HERMES_SKILL_DIR}', dir ?? '').replaceAll('${HERMES_SESSION_ID}', sessionId);
}

async function serveFile(ctx: ToolContext, dir: string, filePath: string, label: string): Promise<string> {
  const hint = { hint: 'Use a relative path within the skill directory' };
  if (filePath.split(/[\\/]/).includes('..')) return fail("Path traversal ('..') is not allowed.", hint);
  const target = joinPath(dir, filePath);
  if (!isInsideDir(dir, target) || target === dir) return fail('The file must be inside the skill directory.', hint);
  if (!(await ctx.host.stat(target))?.isFile) {
    return fail(`File '${filePath}' not found in skill '${label}'.`, {
      available_files: await availableFiles(ctx, dir),
      hint: 'Use one of the paths in available_files',
    });
  }
  const text = await ctx.host.readText(target);
  if (text === null) return fail(`File '${filePath}' not found in skill '${label}'.`);
  if (text.includes('\0') || text.includes('\uFFFD')) {
    const size = (await ctx.host.stat(target))?.size ?? 0;
    return json({
      success: true,
      name: label,
      file: filePath,
      is_binary: true,
      content: `[Binary file: ${filePath.slice(filePath.lastIndexOf('/') + 1)}, size: ${size} bytes]`,
    });
  }
  return json({ success: true, name: label, file: filePath, content: text, file_type: extension(filePath) });
}

export const skillViewTool: Tool = {
  spec: {
    name: 'skill_view',
    description:
      "Load a skill: the instructions for a specific task or workflow, with its scripts, templates and references. The first call returns SKILL.md's content and a 'linked_files' map; " +
      'call again with file_path to read one of those files.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: "The skill's name (see skills_list), or its path such as 'category/skill-name'" },
        file_path: {
          type: 'string',
          description:
            "OPTIONAL: a linked file within the skill (e.g. 'references/api.md', 'templates/config.yaml', 'scripts/validate.py'). Omit for SKILL.md.",
        },
      },
      required: ['name'],
    },
  },
  run: (args, ctx) => viewSkill(args, ctx),
};

/**
 * skill_view's answer. `record: false` loads without counting a view (a `/skill` invocation
 * counts its own use, and rebuilding an earlier turn's invocation counts nothing).
 */
export async function viewSkill(args: Record<string, unknown>, ctx: ToolContext, options: { record?: boolean } = {}): Promise<string> {
  const s = services(ctx);
  if (!s) return fail('Skills are not available on this server');
  const name = (str(args.name) ?? '').trim();
  if (!name) return fail('name is required', { hint: LOOKUP_HINT });
  const bad = lookupError(name);
  if (bad) return fail(bad, { hint: LOOKUP_HINT });
  // No plugins here: `namespace:skill` can only mean the categorized path `namespace/skill`.
  const names = name.includes(':') ? [name, name.replace(':', '/')] : [name];
  const settings = s.knowledge.skills;
  try {
    const roots = skillRoots(ctx.hermesHome, settings);
    const found = await candidates(ctx, names, roots);
    if (found.length > 1) {
      return fail(`Ambiguous skill name '${name}': ${found.length} skills match. Load one by its categorized path instead of guessing.`, {
        matches: found.map((c) => c.skillMd),
        hint: "Pass the path relative to its skills directory (e.g. 'category/skill-name'), or rename one of them.",
      });
    }
    const hit = found[0];
    if (!hit) {
      const all = await findSkills(ctx.host, { hermesHome: ctx.hermesHome, settings, platform: s.platform, tools: null });
      return fail(`Skill '${name}' not found.`, {
        available_skills: all
          .sort(byCategoryThenName)
          .slice(0, 20)
          .map((k) => k.name),
        hint: 'skills_list shows every available skill',
      });
    }
    const content = await ctx.host.readText(hit.skillMd);
    if (content === null) return fail(`Skill '${name}' not found.`);
    const { frontmatter } = parseFrontmatter(content);
    if (!matchesPlatform(frontmatter, s.platform)) return fail(`Skill '${name}' is not supported on this platform.`, { readiness_status: 'unsupported' });
    const dirName = hit.dir ? hit.dir.slice(hit.dir.lastIndexOf('/') + 1) : hit.skillMd.slice(hit.skillMd.lastIndexOf('/') + 1, -'.md'.length);
    const skillName = String(frontmatter.name ?? dirName);
    if (settings.disabled.includes(skillName))
      return fail(`Skill '${skillName}' is disabled. Enable it again in config.yaml (skills.disabled) or read its files directly.`);
    const filePath = str(args.file_path)?.trim();
    if (filePath && hit.dir) return await serveFile(ctx, hit.dir, filePath, name);
    // Hermes counts a successful load as a view and a use (skills/.usage.json).
    if (options.record !== false) await skillUsage.viewed(ctx.host, ctx.hermesHome, skillName);
    return json(viewResult(hit, frontmatter, skillName, renderTemplate(content, hit.dir, ctx.sessionId), await (hit.dir ? linkedFiles(ctx, hit.dir) : null)));
  } catch (err) {
    return fail(errorMessage(err));
  }
}

function viewResult(hit: Candidate, frontmatter: Frontmatter, name: string, content: string, linked: Record<string, string[]> | null) {
  const rel = hit.skillMd.startsWith(`${hit.root}/`) ? hit.skillMd.slice(hit.root.length + 1) : hit.skillMd;
  const out: Record<string, unknown> = {
    success: true,
    name,
    description: frontmatter.description ?? '',
    tags: listField(frontmatter, 'tags'),
    related_skills: listField(frontmatter, 'related_skills'),
    content,
    path: rel,
    skill_dir: hit.dir,
    linked_files: linked,
    usage_hint: linked ? "Read a linked file with skill_view(name, file_path), e.g. file_path='references/api.md'" : null,
  };
  if (frontmatter.compatibility) out.compatibility = frontmatter.compatibility;
  if (frontmatter.metadata && typeof frontmatter.metadata === 'object') out.metadata = frontmatter.metadata;
  return out;
}
