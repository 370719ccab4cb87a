import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knowledgeContext } from '../../../src/agent/builtin/knowledge.js';
import { parseAgentConfig } from '../../../src/agent/config.js';
import type { ModelProvider } from '../../../src/agent/providers/types.js';
import { skillManageTool } from '../../../src/agent/tools/skill-manage.js';
import { skillViewTool } from '../../../src/agent/tools/skills.js';
import { parseFrontmatter } from '../../../src/agent/tools/skills-scan.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const skills = () => join(box.hermesHome, 'skills');
const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const SKILL = '---\nname: deploy\ndescription: Ship the service\n---\n# Deploy\n\n1. Build\n2. Push\n';
const usage = () => JSON.parse(readFileSync(join(skills(), '.usage.json'), 'utf8'));

/** What the last call's tool emitted. */
let lastEmits: unknown[] = [];
const emitted = () => lastEmits;

function context(yaml = '') {
  const fake = fakeContext(box);
  lastEmits = fake.emits;
  fake.ctx.knowledge = knowledgeContext({
    config: parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} }),
    hermesHome: box.hermesHome,
    host: fake.ctx.host,
    main: { provider: {} as ModelProvider, model: 'm' },
    sessions: null,
    agentSessions: null,
    platform: 'linux',
  });
  return fake.ctx;
}
let lastCtx: ReturnType<typeof context> | null = null;
const manage = async (args: Record<string, unknown>, yaml?: string) => parse(await skillManageTool.run(args, (lastCtx = context(yaml))));

describe('skill_manage', () => {
  it('has Hermes’ name, actions and parameters', () => {
    const p = skillManageTool.spec.parameters as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(skillManageTool.spec.name).toBe('skill_manage');
    expect(p.required).toEqual(['action', 'name']);
    expect(p.properties.action!.enum).toEqual(['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file']);
    expect(Object.keys(p.properties).sort()).toEqual(
      ['absorbed_into', 'action', 'category', 'content', 'file_content', 'file_path', 'name', 'new_string', 'old_string', 'replace_all'].sort(),
    );
  });

  it('creates a skill under its category, readable by Hermes’ parser, and refuses a second of the same name', async () => {
    const r = await manage({ action: 'create', name: 'deploy', category: 'devops', content: SKILL });
    expect(r).toMatchObject({ success: true, message: "Skill 'deploy' created.", path: 'devops/deploy', category: 'devops' });
    expect(r.skill_md).toBe(join(skills(), 'devops/deploy/SKILL.md'));
    const { frontmatter, body } = parseFrontmatter(readFileSync(r.skill_md, 'utf8'));
    expect(frontmatter).toEqual({ name: 'deploy', description: 'Ship the service' });
    expect(body).toContain('1. Build');
    // The open Skills panel is told (state_saved, kind skill).
    expect(emitted()).toEqual([{ event: 'state_saved', data: { session_id: lastCtx!.sessionId, kind: 'skill', action: 'create', name: 'deploy' } }]);
    const again = await manage({ action: 'create', name: 'deploy', content: SKILL });
    expect(emitted()).toEqual([]);
    expect(again).toEqual({ success: false, error: `A skill named 'deploy' already exists at ${join(skills(), 'devops/deploy')}.` });
  });

  it('refuses bad names, categories, frontmatter and oversize content on create', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'Deploy', content: SKILL }, /Invalid skill name 'Deploy'/],
      [{ name: '-x', content: SKILL }, /Must start with a letter or digit/],
      [{ name: 'a'.repeat(65), content: SKILL }, /exceeds 64 characters/],
      [{ name: 'ok', category: '../etc', content: SKILL }, /Invalid category/],
      [{ name: 'ok', category: 'a/b', content: SKILL }, /single directory name/],
      [{ name: 'ok', content: '# no frontmatter' }, /must start with YAML frontmatter/],
      [{ name: 'ok', content: '---\nname: ok\n' }, /frontmatter is not closed/],
      [{ name: 'ok', content: '---\nname: ok\n---\nbody' }, /must include 'description'/],
      [{ name: 'ok', content: '---\ndescription: d\n---\nbody' }, /must include 'name'/],
      [{ name: 'ok', content: '---\n- a\n- b\n---\nbody' }, /must be a YAML mapping/],
      [{ name: 'ok', content: '---\nname: ok\ndescription: d\n---\n   \n' }, /must have content after the frontmatter/],
      [{ name: 'ok', content: `---\nname: ok\ndescription: ${'d'.repeat(1025)}\n---\nbody` }, /Description exceeds 1024/],
      [{ name: 'ok', content: `---\nname: ok\ndescription: d\n---\n${'x'.repeat(100_001)}` }, /characters \(limit: 100,000\)/],
      [{ name: 'ok' }, /content is required for 'create'/],
    ];
    for (const [args, error] of cases) {
      const r = await manage({ action: 'create', ...args });
      expect(r.success, String(error)).toBe(false);
      expect(r.error).toMatch(error);
    }
    expect(existsSync(join(skills(), 'ok'))).toBe(false);
  });

  it('edits, patches (tolerant match, unique unless replace_all) and keeps SKILL.md valid', async () => {
    await manage({ action: 'create', name: 'deploy', content: SKILL });
    const md = join(skills(), 'deploy/SKILL.md');
    expect(await manage({ action: 'patch', name: 'deploy', old_string: '2. Push', new_string: '2. Push\n3. Verify' })).toMatchObject({
      success: true,
      message: "Patched SKILL.md in skill 'deploy' (1 replacement).",
    });
    expect(readFileSync(md, 'utf8')).toContain('3. Verify');
    const broken = await manage({ action: 'patch', name: 'deploy', old_string: 'description: Ship the service\n', new_string: '' });
    expect(broken.error).toMatch(/^Patch would break SKILL.md structure: Frontmatter must include 'description'/);
    const missing = await manage({ action: 'patch', name: 'deploy', old_string: 'nowhere', new_string: 'x' });
    expect(missing).toMatchObject({ success: false, file_preview: expect.stringContaining('# Deploy') });
    await manage({ action: 'write_file', name: 'deploy', file_path: 'references/notes.md', file_content: 'a\na\n' });
    expect((await manage({ action: 'patch', name: 'deploy', file_path: 'references/notes.md', old_string: 'a', new_string: 'b' })).error).toMatch(
      /matches 2 times/,
    );
    expect(
      await manage({ action: 'patch', name: 'deploy', file_path: 'references/notes.md', old_string: 'a', new_string: 'b', replace_all: true }),
    ).toMatchObject({
      success: true,
      message: "Patched references/notes.md in skill 'deploy' (2 replacements).",
    });
    expect(readFileSync(join(skills(), 'deploy/references/notes.md'), 'utf8')).toBe('b\nb\n');

    const edited = await manage({ action: 'edit', name: 'deploy', content: SKILL.replace('Ship the service', 'Ship it') });
    expect(edited).toMatchObject({ success: true, message: "Skill 'deploy' updated (full rewrite).", path: join(skills(), 'deploy') });
    expect(readFileSync(md, 'utf8')).toContain('description: Ship it');
    expect((await manage({ action: 'edit', name: 'deploy', content: 'plain' })).error).toMatch(/must start with YAML frontmatter/);
    expect((await manage({ action: 'edit', name: 'ghost', content: SKILL })).error).toBe(
      "Skill 'ghost' not found in active profile 'default'. Use skills_list() to see available skills.",
    );
  });

  it('writes and removes supporting files only under the allowed folders, inside the skill', async () => {
    await manage({ action: 'create', name: 'deploy', content: SKILL });
    const dir = join(skills(), 'deploy');
    expect(await manage({ action: 'write_file', name: 'deploy', file_path: 'scripts/run.sh', file_content: 'echo hi' })).toEqual({
      success: true,
      message: "File 'scripts/run.sh' written to skill 'deploy'.",
      path: join(dir, 'scripts/run.sh'),
    });
    const refusals: Array<[string, RegExp]> = [
      ['../escape.md', /Path traversal/],
      ['references/../../x.md', /Path traversal/],
      ['/etc/passwd', /Path traversal/],
      ['notes.md', /File must be under one of: assets, references, scripts, templates/],
      ['references', /Provide a file path, not just a directory/],
    ];
    for (const [file_path, error] of refusals)
      expect((await manage({ action: 'write_file', name: 'deploy', file_path, file_content: 'x' })).error).toMatch(error);
    // A link inside the skill that points out of it is refused too.
    mkdirSync(join(box.root, 'outside'));
    symlinkSync(join(box.root, 'outside'), join(dir, 'assets'));
    expect((await manage({ action: 'write_file', name: 'deploy', file_path: 'assets/x.txt', file_content: 'x' })).error).toMatch(/escapes the skill directory/);
    expect(existsSync(join(box.root, 'outside/x.txt'))).toBe(false);
    const big = await manage({ action: 'write_file', name: 'deploy', file_path: 'assets/big.bin', file_content: 'é'.repeat(600_000) });
    expect(big.error).toMatch(/1,200,000 bytes \(limit: 1,048,576 bytes \/ 1 MiB\)/);
    expect((await manage({ action: 'write_file', name: 'ghost', file_path: 'references/a.md', file_content: 'x' })).error).toMatch(
      /not found in active profile 'default'.* Create it first with action='create'\.$/,
    );

    const gone = await manage({ action: 'remove_file', name: 'deploy', file_path: 'scripts/nope.sh' });
    expect(gone).toMatchObject({ success: false, error: "File 'scripts/nope.sh' not found in skill 'deploy'.", available_files: ['scripts/run.sh'] });
    expect(await manage({ action: 'remove_file', name: 'deploy', file_path: 'scripts/run.sh' })).toEqual({
      success: true,
      message: "File 'scripts/run.sh' removed from skill 'deploy'.",
    });
    // The emptied folder goes with its last file.
    expect(existsSync(join(dir, 'scripts'))).toBe(false);
  });

  it('deletes a skill and its emptied category, refuses pinned skills, unknown umbrellas and links', async () => {
    await manage({ action: 'create', name: 'deploy', category: 'devops', content: SKILL });
    await manage({ action: 'create', name: 'ship', content: SKILL.replace('name: deploy', 'name: ship') });
    expect((await manage({ action: 'delete', name: 'deploy', absorbed_into: 'deploy' })).error).toMatch(/cannot equal the skill being deleted/);
    expect((await manage({ action: 'delete', name: 'deploy', absorbed_into: 'nothing' })).error).toMatch(/absorbed_into='nothing' does not exist/);
    write(join(skills(), '.usage.json'), JSON.stringify({ ship: { pinned: true } }));
    expect((await manage({ action: 'delete', name: 'ship' })).error).toMatch(/is pinned.*hermes curator unpin ship/);
    expect(await manage({ action: 'delete', name: 'deploy', absorbed_into: 'ship' })).toEqual({
      success: true,
      message: "Skill 'deploy' deleted. Content absorbed into 'ship'.",
    });
    expect(existsSync(join(skills(), 'devops'))).toBe(false);
    expect(existsSync(skills())).toBe(true);

    // A skill folder that is a link is never deleted through (its target would go).
    write(join(box.root, 'linked/real/SKILL.md'), SKILL.replace('name: deploy', 'name: linked'));
    symlinkSync(join(box.root, 'linked/real'), join(skills(), 'linked'));
    expect((await manage({ action: 'delete', name: 'linked' })).error).toMatch(/is a symlink/);
    expect(existsSync(join(box.root, 'linked/real/SKILL.md'))).toBe(true);
    expect((await manage({ action: 'frobnicate', name: 'x' })).error).toBe(
      "Unknown action 'frobnicate'. Use: create, patch, edit, delete, write_file, remove_file",
    );
  });

  it('edits a skill of skills.external_dirs where it lives', async () => {
    const ext = join(box.root, 'team-skills');
    write(join(ext, 'ops/rotate/SKILL.md'), SKILL.replace('name: deploy', 'name: rotate'));
    const r = await manage({ action: 'patch', name: 'rotate', old_string: '1. Build', new_string: '1. Rotate' }, `skills:\n  external_dirs: [${ext}]\n`);
    expect(r.success).toBe(true);
    expect(readFileSync(join(ext, 'ops/rotate/SKILL.md'), 'utf8')).toContain('1. Rotate');
  });

  it('records usage in skills/.usage.json as Hermes does: views and patches count, a delete forgets, upstream skills are left out', async () => {
    await manage({ action: 'create', name: 'deploy', content: SKILL });
    await manage({ action: 'create', name: 'bundled', content: SKILL.replace('name: deploy', 'name: bundled') });
    write(join(skills(), '.bundled_manifest'), 'bundled:abc123\n');
    const ctx = context();
    expect(parse(await skillViewTool.run({ name: 'deploy' }, ctx)).success).toBe(true);
    expect(parse(await skillViewTool.run({ name: 'bundled' }, ctx)).success).toBe(true);
    await manage({ action: 'patch', name: 'deploy', old_string: '1. Build', new_string: '1. Compile' });
    const raw = readFileSync(join(skills(), '.usage.json'), 'utf8');
    // Python's json.dump(indent=2, sort_keys=True): sorted keys, no final newline.
    expect(raw.endsWith('}')).toBe(true);
    const rec = usage().deploy;
    expect(Object.keys(rec)).toEqual([...Object.keys(rec)].sort());
    expect(rec).toMatchObject({ view_count: 1, use_count: 1, patch_count: 1, state: 'active', pinned: false, archived_at: null });
    expect(rec.last_viewed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(usage().bundled).toBeUndefined();
    await manage({ action: 'delete', name: 'deploy' });
    expect(usage().deploy).toBeUndefined();
  });
});
