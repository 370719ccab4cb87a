import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { bodyFlag, jsonBody, queryFlag, queryParams } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { AppError, BadRequest, Conflict, Forbidden, NotFound, TooLarge } from '../ports/errors.js';
import type { HermesHome } from '../ports/hermes-home.js';
import { ConfigSyntaxError } from '../agent/config-edit.js';
import { joinPath } from '../agent/tools/paths.js';
import { matchesPlatform, parseFrontmatter } from '../agent/tools/skills-scan.js';
import { readSkillsConfig, setSkillEnabled, type SkillsConfig } from '../domain/skills-config.js';
import { MAX_LINKED_FILE_BYTES, categoryError, linkedPathError, normaliseSkillName, skillContentError, skillNameError } from '../domain/skill-rules.js';
import { findSkill, forgetSkills, scanSkills, skillRow, skillView, type SkillRecord } from './skills-catalog.js';
import { readSkillUsage } from './skills-usage.js';

const Text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
// `refresh=1`: scan again now (the panel asks after the agent changed a skill).
const ListQuery = z.object({ category: Text(256).optional(), refresh: queryFlag });
const ContentQuery = z.object({ name: Text(256).optional(), file: Text(4096).optional() });
const SaveBody = z.object({
  name: Text(256),
  content: z.string(),
  category: Text(256).nullish(),
});
const NameBody = z.object({ name: Text(256) });
const ToggleBody = z.object({ name: Text(256), enabled: bodyFlag });

/** `path` is `dir` or inside it (both already real paths). */
const within = (dir: string, path: string) => path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * The Skills panel's API, the incumbent's paths and fields, on the request's profile:
 * `<home>/skills/**\/SKILL.md` plus `skills.external_dirs` (read-only), `skills.disabled` in
 * config.yaml (edited with its comments kept), usage from `skills/.usage.json` (Hermes writes it).
 */
export function skillsRoutes(deps: AppDeps) {
  const app = new Hono();
  const platform = deps.options.machine?.platform ?? '';
  const homeDir = deps.options.machine?.homeDir ?? '/';

  // The last config read per home: parsed again only when its text changed.
  const configs = new Map<string, { text: string | null; config: SkillsConfig }>();
  const catalog = async (home: HermesHome) => {
    const { configYaml } = await home.config.readFiles();
    let known = configs.get(home.root);
    if (!known || known.text !== configYaml) {
      known = { text: configYaml, config: readSkillsConfig(configYaml, { root: home.root, homeDir, env: home.config.processEnv }) };
      configs.set(home.root, known);
    }
    const config = known.config;
    return { config, configYaml, skills: await scanSkills(home.files, { root: home.root, config, platform }) };
  };
  const notFound = (name: string, skills: readonly SkillRecord[]) =>
    new AppError(404, `Skill '${name}' not found.`, { success: false, available_skills: skills.slice(0, 20).map((s) => s.name) });
  const writable = (skill: SkillRecord, action: string) => {
    if (skill.external)
      throw new Forbidden(`Skill '${skill.name}' lives in skills.external_dirs (${skill.root}), which is read-only here: ${action} it there.`);
  };

  const listed = new WeakMap<SkillRecord[], Map<string, string>>();
  app.get('/api/skills', async (c) => {
    const { category, refresh } = queryParams(c, ListQuery);
    const home = await requestHome(c, deps);
    if (refresh) forgetSkills(home.files);
    const { skills } = await catalog(home);
    // The answer's JSON is built once per scan, disabled list and filter (a panel asks often).
    let byCategory = listed.get(skills);
    if (!byCategory) listed.set(skills, (byCategory = new Map()));
    let json = byCategory.get(category ?? '');
    if (json === undefined) {
      const rows = (category ? skills.filter((s) => s.category === category) : skills).map(skillRow);
      const categories = [...new Set(rows.map((r) => r.category).filter((x): x is string => !!x))].sort();
      json = JSON.stringify({ skills: rows, categories, count: rows.length });
      if (byCategory.size < 64) byCategory.set(category ?? '', json);
    }
    return c.body(json, 200, { 'Content-Type': 'application/json' });
  });

  app.get('/api/skills/usage', async (c) => {
    const home = await requestHome(c, deps);
    const [usage, { skills }] = await Promise.all([readSkillUsage(home), catalog(home)]);
    return c.json({ ...usage, skill_names: [...new Set(skills.map((s) => s.name))].sort() });
  });

  app.get('/api/skills/content', async (c) => {
    const { name = '', file = '' } = queryParams(c, ContentQuery);
    if (!name.trim()) throw new BadRequest('name required');
    if (/[*?[\]]/.test(name)) throw new BadRequest('Invalid skill name');
    const home = await requestHome(c, deps);
    const { skills } = await catalog(home);
    const skill = findSkill(skills, name);
    if (!skill) throw notFound(name, skills);
    if (file) return c.json(await linkedFile(home, skill, file));
    const content = await home.files.readText(joinPath(skill.dir, 'SKILL.md'));
    if (content === null) throw notFound(name, skills);
    if (!matchesPlatform(parseFrontmatter(content).frontmatter, platform)) throw new NotFound('Skill is not available on this platform.');
    return c.json(skillView(skill, content));
  });

  app.post('/api/skills/save', async (c) => {
    const body = await jsonBody(c, SaveBody);
    const name = normaliseSkillName(body.name);
    const category = (body.category ?? '').trim();
    const problem = skillNameError(name) ?? categoryError(category) ?? skillContentError(body.content);
    if (problem) throw new BadRequest(problem);
    const home = await requestHome(c, deps);
    const { skills } = await catalog(home);
    // An existing skill is edited where it is (Hermes finds skills by directory name).
    const existing = skills.find((s) => s.dirName === name) ?? null;
    if (existing) writable(existing, 'edit');
    const root = joinPath(home.root, 'skills');
    const dir = existing?.dir ?? joinPath(root, category ? `${category}/${name}` : name);
    await guardWrite(home, root, dir);
    const file = joinPath(dir, 'SKILL.md');
    await home.files.writeText(file, body.content);
    forgetSkills(home.files);
    return c.json({ ok: true, name, path: file, created: !existing });
  });

  app.post('/api/skills/delete', async (c) => {
    const body = await jsonBody(c, NameBody);
    const name = normaliseSkillName(body.name);
    if (!name || name.includes('/') || name.includes('..')) throw new BadRequest('Invalid skill name');
    const home = await requestHome(c, deps);
    const { skills } = await catalog(home);
    const skill = skills.find((s) => s.dirName === name) ?? findSkill(skills, name);
    if (!skill) throw new NotFound('Skill not found');
    writable(skill, 'delete');
    const root = joinPath(home.root, 'skills');
    if (skill.dir === root) throw new BadRequest(`Refusing to delete '${skill.dir}': it is the skills folder itself.`);
    await guardWrite(home, root, skill.dir);
    await home.files.remove(skill.dir);
    forgetSkills(home.files);
    return c.json({ ok: true, name: body.name });
  });

  app.post('/api/skills/toggle', async (c) => {
    const body = await jsonBody(c, ToggleBody);
    const name = body.name.trim();
    if (!name) throw new BadRequest('name is required');
    const home = await requestHome(c, deps);
    const { skills, config } = await catalog(home);
    if (!findSkill(skills, name)) throw new NotFound(`Skill '${name}' not found`);
    // Enabling a skill nothing disables writes nothing (and creates no config.yaml).
    if (!body.enabled || config.disabled.has(name)) await toggle(home, name, body.enabled);
    return c.json({ ok: true, name, enabled: body.enabled });
  });

  return app;
}

/** skills.disabled edited in the profile's config.yaml; a file that does not parse is left alone (409). */
async function toggle(home: HermesHome, name: string, enabled: boolean): Promise<void> {
  try {
    await home.config.updateConfigYaml((text) => setSkillEnabled(text, name, enabled));
  } catch (err) {
    if (err instanceof ConfigSyntaxError) throw new Conflict(`${err.message}. Fix ${home.config.paths.config} by hand; it was not changed.`);
    throw err;
  }
}

/**
 * A write or delete under the home's skills folder: the directory must stay inside it once
 * symlinks are followed, and neither it nor its SKILL.md may be a symlink.
 */
async function guardWrite(home: HermesHome, root: string, dir: string): Promise<void> {
  const realRoot = await home.files.realPath(root);
  const realDir = await home.files.realPath(dir);
  if (!within(realRoot, realDir) || realDir === realRoot) throw new BadRequest('Invalid skill path');
  if ((await home.files.stat(dir))?.kind === 'symlink') throw new BadRequest('Cannot change a symlinked skill directory');
  if ((await home.files.stat(joinPath(dir, 'SKILL.md')))?.kind === 'symlink') throw new BadRequest('Cannot save to a symlinked skill file');
}

/** A file under the skill's directory: no traversal or absolute path (400), nothing leading out (403). */
async function linkedFile(home: HermesHome, skill: SkillRecord, file: string) {
  const problem = linkedPathError(file);
  if (problem) throw new BadRequest(problem);
  const target = joinPath(skill.dir, file.replace(/\\/g, '/'));
  const [realDir, realTarget] = await Promise.all([home.files.realPath(skill.dir), home.files.realPath(target)]);
  if (!within(realDir, realTarget)) throw new Forbidden('Invalid file path: it leads outside the skill directory');
  const st = await home.files.stat(realTarget);
  if (st?.kind !== 'file') throw new NotFound('File not found');
  if (st.size > MAX_LINKED_FILE_BYTES) throw new TooLarge(`File is larger than ${MAX_LINKED_FILE_BYTES} bytes`);
  const content = await home.files.readText(realTarget);
  if (content === null) throw new NotFound('File not found');
  return { content, path: file };
}
