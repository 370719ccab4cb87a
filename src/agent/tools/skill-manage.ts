import { bool, errorMessage, json } from './args.js';
import { replaceTolerant } from './patch.js';
import { basenameOf, dirnameOf, isInsideDir, joinPath } from './paths.js';
import {
  ALLOWED_SUBDIRS,
  categoryError,
  descriptionOf,
  fileBytesError,
  filePathError,
  frontmatterError,
  nameError,
  normalFilePath,
  sizeError,
} from './skill-manage-rules.js';
import { loadUsage, skillUsage } from './skill-usage.js';
import { EXCLUDED_DIRS, skillFiles, skillRoots } from './skills-scan.js';
import type { Tool, ToolContext } from './types.js';

/**
 * skill_manage: the agent writes its procedural memory. New skills go to the profile's
 * `$HERMES_HOME/skills/[<category>/]<name>/SKILL.md`; existing ones (found by directory name in
 * the local tree, then `skills.external_dirs`) are edited wherever they live, as Hermes does.
 * Hermes' optional write-approval gate is off by default, so writes go straight through here.
 */

type Result = Record<string, unknown> & { success: boolean };
const refuse = (error: string, extra: Record<string, unknown> = {}): Result => ({ success: false, error, ...extra });
const ACTIONS = ['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file'] as const;

/** The profile a Hermes home belongs to: `…/profiles/<name>`, else default. */
function profileOf(hermesHome: string): string {
  const m = /\/profiles\/([^/]+)\/?$/.exec(hermesHome);
  return m ? m[1]! : 'default';
}

function notFound(ctx: ToolContext, name: string, suffix = ''): string {
  return `Skill '${name}' not found in active profile '${profileOf(ctx.hermesHome)}'. Use skills_list() to see available skills.${suffix}`;
}

const roots = (ctx: ToolContext) => skillRoots(ctx.hermesHome, ctx.knowledge?.skills ?? { disabled: [], externalDirs: [] });

/** The first skill directory named `name` across the roots (Hermes matches the directory, not frontmatter). */
async function findSkillDir(ctx: ToolContext, name: string): Promise<{ dir: string; root: string } | null> {
  for (const root of roots(ctx)) {
    for (const rel of await skillFiles(ctx.host, root)) {
      const parts = rel.split('/');
      if (parts.length >= 2 && parts[parts.length - 2] === name) return { dir: joinPath(root, parts.slice(0, -1).join('/')), root };
    }
  }
  return null;
}

/** A supporting file's absolute path, refused when it (or a link on the way) leaves the skill directory. */
async function targetIn(ctx: ToolContext, dir: string, filePath: string): Promise<{ abs: string } | { error: string }> {
  const abs = joinPath(dir, normalFilePath(filePath));
  const outside = { error: `Path escapes the skill directory: ${filePath}` };
  if (!isInsideDir(dir, abs) || abs === dir) return outside;
  if (ctx.host.realPath) {
    const [realDir, realTarget] = await Promise.all([ctx.host.realPath(dir), ctx.host.realPath(abs)]);
    if (!isInsideDir(realDir, realTarget) || realTarget === realDir) return outside;
  }
  return { abs };
}

async function create(ctx: ToolContext, name: string, content: string, category: string | null): Promise<Result> {
  const bad = nameError(name) ?? categoryError(category) ?? frontmatterError(content) ?? sizeError(content);
  if (bad) return refuse(bad);
  const existing = await findSkillDir(ctx, name);
  if (existing) return refuse(`A skill named '${name}' already exists at ${existing.dir}.`);
  const local = joinPath(ctx.hermesHome, 'skills');
  const rel = category ? `${category}/${name}` : name;
  const skillMd = joinPath(local, `${rel}/SKILL.md`);
  await ctx.host.writeText(skillMd, content);
  return {
    success: true,
    message: `Skill '${name}' created.`,
    path: rel,
    skill_md: skillMd,
    _change: { description: descriptionOf(content) },
    ...(category ? { category } : {}),
    hint: `To add reference files, templates, or scripts, use skill_manage(action='write_file', name='${name}', file_path='references/example.md', file_content='...')`,
  };
}

async function edit(ctx: ToolContext, name: string, content: string): Promise<Result> {
  const bad = frontmatterError(content) ?? sizeError(content);
  if (bad) return refuse(bad);
  const existing = await findSkillDir(ctx, name);
  if (!existing) return refuse(notFound(ctx, name));
  await ctx.host.writeText(joinPath(existing.dir, 'SKILL.md'), content);
  return { success: true, message: `Skill '${name}' updated (full rewrite).`, path: existing.dir, _change: { description: descriptionOf(content) } };
}

async function patch(ctx: ToolContext, name: string, a: Args): Promise<Result> {
  const existing = await findSkillDir(ctx, name);
  if (!existing) return refuse(notFound(ctx, name));
  const filePath = a.file_path && normalFilePath(a.file_path) !== 'SKILL.md' ? a.file_path : null;
  let target = joinPath(existing.dir, 'SKILL.md');
  if (filePath) {
    const bad = filePathError(filePath);
    if (bad) return refuse(bad);
    const t = await targetIn(ctx, existing.dir, filePath);
    if ('error' in t) return refuse(t.error);
    target = t.abs;
  }
  const label = filePath ?? 'SKILL.md';
  const before = (await ctx.host.stat(target))?.isFile ? await ctx.host.readText(target) : null;
  if (before === null) return refuse(`File not found: ${label}`);
  const replaced = replaceTolerant(before, a.old_string!, a.new_string!, a.replace_all);
  if ('error' in replaced) {
    const preview = before.length > 500 ? `${before.slice(0, 500)}...` : before;
    const error =
      replaced.error === 'ambiguous'
        ? `old_string matches ${replaced.count} times in ${label}; include more surrounding context to make it unique, or set replace_all=true.`
        : `Could not find old_string in ${label}, not even ignoring trailing whitespace and indentation. Load the file with skill_view and copy the text exactly.`;
    return refuse(error, { file_preview: preview });
  }
  const tooBig = sizeError(replaced.content, label);
  if (tooBig) return refuse(tooBig);
  if (!filePath) {
    const broken = frontmatterError(replaced.content);
    if (broken) return refuse(`Patch would break SKILL.md structure: ${broken}`);
  }
  await ctx.host.writeText(target, replaced.content);
  const cut = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
  return {
    success: true,
    message: `Patched ${label} in skill '${name}' (${replaced.count} replacement${replaced.count > 1 ? 's' : ''}).`,
    _change: { old: cut(a.old_string!), new: cut(a.new_string!) },
  };
}

/** The skill dir may be deleted only when it is a real directory strictly inside a skills root. */
async function deleteRefusal(ctx: ToolContext, dir: string): Promise<string | null> {
  const real = ctx.host.realPath ? (p: string) => ctx.host.realPath!(p) : async (p: string) => p;
  const resolved = await real(dir);
  if (resolved !== joinPath(await real(dirnameOf(dir)), basenameOf(dir)))
    return `Refusing to delete '${dir}': the skill directory is a symlink. Remove the link target manually if intended.`;
  for (const root of roots(ctx)) {
    const r = await real(root);
    if (resolved === r) return `Refusing to delete '${dir}': it is the skills root itself, which would remove every installed skill.`;
    if (isInsideDir(r, resolved)) return null;
  }
  return `Refusing to delete '${dir}': it is not inside any known skills root.`;
}

async function remove(ctx: ToolContext, name: string, absorbedInto: string | null): Promise<Result> {
  const existing = await findSkillDir(ctx, name);
  if (!existing) return refuse(notFound(ctx, name));
  if ((await loadUsage(ctx.host, ctx.hermesHome))[name]?.pinned === true) {
    return refuse(
      `Skill '${name}' is pinned, so skill_manage will not delete it. Ask the user to run \`hermes curator unpin ${name}\` first. ` +
        'Pinned skills can still be patched and edited; only deletion is blocked.',
    );
  }
  const umbrella = absorbedInto?.trim() ?? '';
  if (umbrella) {
    if (umbrella === name) return refuse(`absorbed_into='${umbrella}' cannot equal the skill being deleted.`);
    if (!(await findSkillDir(ctx, umbrella)))
      return refuse(`absorbed_into='${umbrella}' does not exist. Create or patch the umbrella skill first, then retry the delete.`);
  }
  if (!ctx.host.remove) return refuse('Deleting skills is not available on this server.');
  const unsafe = await deleteRefusal(ctx, existing.dir);
  if (unsafe) return refuse(unsafe);
  await ctx.host.remove(existing.dir, { recursive: true });
  // An emptied category folder goes too; the root stays.
  const parent = dirnameOf(existing.dir);
  if (parent !== existing.root) await ctx.host.remove(parent).catch(() => false);
  return { success: true, message: `Skill '${name}' deleted.${umbrella ? ` Content absorbed into '${umbrella}'.` : ''}` };
}

async function writeFile(ctx: ToolContext, name: string, filePath: string, content: string): Promise<Result> {
  const bad = filePathError(filePath) ?? fileBytesError(new TextEncoder().encode(content).length) ?? sizeError(content, filePath);
  if (bad) return refuse(bad);
  const existing = await findSkillDir(ctx, name);
  if (!existing) return refuse(notFound(ctx, name, " Create it first with action='create'."));
  const t = await targetIn(ctx, existing.dir, filePath);
  if ('error' in t) return refuse(t.error);
  await ctx.host.writeText(t.abs, content);
  return { success: true, message: `File '${filePath}' written to skill '${name}'.`, path: t.abs };
}

async function removeFile(ctx: ToolContext, name: string, filePath: string): Promise<Result> {
  const bad = filePathError(filePath);
  if (bad) return refuse(bad);
  const existing = await findSkillDir(ctx, name);
  if (!existing) return refuse(notFound(ctx, name));
  const t = await targetIn(ctx, existing.dir, filePath);
  if ('error' in t) return refuse(t.error);
  if (!(await ctx.host.stat(t.abs))?.isFile) {
    const files = ctx.host.walkFiles ? await ctx.host.walkFiles(existing.dir, { skipDirs: EXCLUDED_DIRS, maxFiles: 2000 }) : [];
    const available = files.filter((f) => (ALLOWED_SUBDIRS as readonly string[]).includes(f.split('/')[0]!));
    return refuse(`File '${filePath}' not found in skill '${name}'.`, { available_files: available.length ? available : null });
  }
  if (!ctx.host.remove) return refuse('Removing skill files is not available on this server.');
  await ctx.host.remove(t.abs);
  const parent = dirnameOf(t.abs);
  if (parent !== existing.dir) await ctx.host.remove(parent).catch(() => false);
  return { success: true, message: `File '${filePath}' removed from skill '${name}'.` };
}

interface Args {
  action: string;
  name: string;
  content: string | null;
  category: string | null;
  file_path: string | null;
  file_content: string | null;
  old_string: string | null;
  new_string: string | null;
  replace_all: boolean;
  absorbed_into: string | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : v === undefined || v === null ? null : String(v));

async function dispatch(a: Args, ctx: ToolContext): Promise<Result> {
  switch (a.action) {
    case 'create':
      if (!a.content) return refuse("content is required for 'create'. Provide the full SKILL.md text (frontmatter + body).");
      return create(ctx, a.name, a.content, a.category?.trim() || null);
    case 'edit':
      if (!a.content) return refuse("content is required for 'edit'. Provide the full updated SKILL.md text.");
      return edit(ctx, a.name, a.content);
    case 'patch':
      if (!a.old_string) return refuse("old_string is required for 'patch'. Provide the text to find.");
      if (a.new_string === null) return refuse("new_string is required for 'patch'. Use empty string to delete matched text.");
      return patch(ctx, a.name, a);
    case 'delete':
      return remove(ctx, a.name, a.absorbed_into);
    case 'write_file':
      if (!a.file_path) return refuse("file_path is required for 'write_file'. Example: 'references/api-guide.md'");
      if (a.file_content === null) return refuse("file_content is required for 'write_file'.");
      return writeFile(ctx, a.name, a.file_path, a.file_content);
    case 'remove_file':
      if (!a.file_path) return refuse("file_path is required for 'remove_file'.");
      return removeFile(ctx, a.name, a.file_path);
    default:
      return refuse(`Unknown action '${a.action}'. Use: ${ACTIONS.join(', ')}`);
  }
}

export const skillManageTool: Tool = {
  spec: {
    name: 'skill_manage',
    description:
      'Manage skills (create, update, delete): your procedural memory, reusable approaches for recurring kinds of task. ' +
      "New skills go to the profile's skills/ folder; existing skills can be changed wherever they live.\n\n" +
      'Actions: create (full SKILL.md + optional category), patch (old_string/new_string, preferred for fixes), ' +
      'edit (full SKILL.md rewrite, for major overhauls only), delete, write_file, remove_file.\n\n' +
      'On delete, pass absorbed_into=<umbrella> when this skill was merged into another (it must exist), or absorbed_into="" when pruning it.\n\n' +
      'Create one after a complex task succeeded, errors were overcome, the user corrected the approach, or the user asks you to remember a procedure. ' +
      'Update one when its instructions were stale or wrong or missed a step or pitfall you hit while using it. ' +
      'Confirm with the user before creating or deleting. Good skills state when to use them, numbered steps with exact commands, pitfalls and how to verify. ' +
      'Pinned skills cannot be deleted (only patched or edited).',
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: [...ACTIONS], description: 'The action to perform.' },
        name: {
          type: 'string',
          description: 'Skill name (lowercase, hyphens/underscores, max 64 chars). Must match an existing skill for patch/edit/delete/write_file/remove_file.',
        },
        content: {
          type: 'string',
          description:
            "Full SKILL.md text (YAML frontmatter + markdown body). Required for 'create' and 'edit'; for 'edit' load the skill with skill_view() first.",
        },
        old_string: { type: 'string', description: "Text to find (required for 'patch'); unique unless replace_all=true." },
        new_string: { type: 'string', description: "Replacement text (required for 'patch'); may be empty to delete the match." },
        replace_all: { type: 'boolean', description: "For 'patch': replace every occurrence instead of requiring a unique match (default: false)." },
        category: { type: 'string', description: "Optional category folder for a new skill (e.g. 'devops', 'mlops'). Only used with 'create'." },
        file_path: {
          type: 'string',
          description:
            "A supporting file in the skill: required for 'write_file'/'remove_file' (under references/, templates/, scripts/ or assets/); optional for 'patch' (default SKILL.md).",
        },
        file_content: { type: 'string', description: "Content for the file. Required for 'write_file'." },
        absorbed_into: {
          type: 'string',
          description: "For 'delete': the umbrella skill this one was merged into (must exist), or '' when pruning it with no forwarding target.",
        },
      },
      required: ['action', 'name'],
    },
  },
  async run(raw, ctx) {
    const a: Args = {
      action: text(raw.action) ?? '',
      name: text(raw.name) ?? '',
      content: text(raw.content),
      category: text(raw.category),
      file_path: text(raw.file_path),
      file_content: text(raw.file_content),
      old_string: text(raw.old_string),
      new_string: text(raw.new_string),
      replace_all: bool(raw.replace_all, false),
      absorbed_into: text(raw.absorbed_into),
    };
    if (!ctx.host.walkFiles) return json(refuse('Skills are not available on this server'));
    let result: Result;
    try {
      result = await dispatch(a, ctx);
    } catch (err) {
      return json(refuse(errorMessage(err)));
    }
    if (result.success) {
      // Curator telemetry, as Hermes keeps it: changes of guidance count, a delete forgets.
      if (a.action === 'delete') await skillUsage.forget(ctx.host, ctx.hermesHome, a.name);
      else if (a.action !== 'create') await skillUsage.patched(ctx.host, ctx.hermesHome, a.name);
      // The open Skills panel lists it again.
      ctx.emit('state_saved', { session_id: ctx.sessionId, kind: 'skill', action: a.action, name: a.name });
    }
    return json(result);
  },
};
