import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { parseFrontmatter } from '../../src/agent/tools/skills-scan.js';

const skill = (name: string, description: string, body = `# ${name}\n\nSteps for ${name}.\n`, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;

async function put(path: string, text: string) {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

describe('skills API', () => {
  let t: TestApp;
  let skills: string;
  let outside: string;

  beforeEach(async () => {
    t = await makeTestApp({
      configYaml: '# my settings\nskills:\n  # hidden for now\n  disabled:\n    - old-skill # retired\n  external_dirs:\n    - ../shared-skills\n',
    });
    skills = join(t.hermesHome, 'skills');
    outside = join(t.dir, 'outside');
    await put(join(skills, 'devops', 'deploy', 'SKILL.md'), skill('deploy', 'Ship the app', undefined, 'metadata:\n  hermes:\n    tags: [ops, ship]\n'));
    await put(join(skills, 'devops', 'deploy', 'references', 'checklist.md'), '# Checklist\n\n- tests green\n');
    await put(join(skills, 'devops', 'deploy', 'scripts', 'run.sh'), 'echo deploy\n');
    await put(join(skills, 'devops', 'deploy', 'assets', 'img', 'logo.svg'), '<svg/>');
    await put(join(skills, 'note-taking', 'SKILL.md'), skill('note-taking', 'Keep notes'));
    await put(join(skills, 'old-skill', 'SKILL.md'), skill('old-skill', 'Retired'));
    await put(join(skills, 'mac-only', 'SKILL.md'), skill('mac-only', 'Only on macOS', undefined, 'platforms: [macos]\n'));
    // A SKILL.md preserved inside a support folder is documentation, not a skill.
    await put(join(skills, 'devops', 'deploy', 'references', 'old', 'SKILL.md'), skill('ghost', 'Not a skill'));
    await put(join(t.dir, 'shared-skills', 'team-style', 'SKILL.md'), skill('team-style', 'House style'));
    await put(join(outside, 'secret.md'), 'top secret\n');
  });
  afterEach(async () => {
    await t.close();
  });

  it('lists skills with categories, disabled state, linked files and the platform filter', async () => {
    const r = await t.call('GET', '/api/skills');
    expect(r.status).toBe(200);
    const byName = Object.fromEntries(r.body.skills.map((s: any) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['deploy', 'note-taking', 'old-skill', 'team-style']);
    expect(byName.deploy).toMatchObject({
      category: 'devops',
      description: 'Ship the app',
      disabled: false,
      enabled: true,
      path: 'devops/deploy/SKILL.md',
      source: 'local',
      tags: ['ops', 'ship'],
      linked_files: { references: ['references/checklist.md'], scripts: ['scripts/run.sh'], assets: ['assets/img/logo.svg'] },
    });
    expect(byName['note-taking'].category).toBeNull();
    expect(byName['old-skill']).toMatchObject({ disabled: true, enabled: false });
    // A flat skill of an external root is filed under the root's name, read-only.
    expect(byName['team-style']).toMatchObject({ category: 'shared-skills', source: 'external', read_only: true });
    expect(r.body.categories).toEqual(['devops', 'shared-skills']);
    const only = await t.call('GET', '/api/skills?category=devops');
    expect(only.body.skills.map((s: any) => s.name)).toEqual(['deploy']);
  });

  it('refresh=1 scans again at once: a skill written meanwhile by the agent shows without waiting', async () => {
    const names = async (q = '') => (await t.call('GET', `/api/skills${q}`)).body.skills.map((s: any) => s.name);
    expect(await names()).not.toContain('fresh-one');
    await put(join(skills, 'fresh-one', 'SKILL.md'), skill('fresh-one', 'Written by skill_manage'));
    // Within the scan's freshness window the cached scan answers; refresh=1 does not wait for it.
    expect(await names('?refresh=1')).toContain('fresh-one');
    expect((await t.call('GET', '/api/skills?refresh=maybe')).status).toBe(400);
  });

  it('serves SKILL.md and its linked files, refusing traversal, absolute paths and symlinks out', async () => {
    const view = await t.call('GET', '/api/skills/content?name=deploy');
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ success: true, name: 'deploy', description: 'Ship the app', tags: ['ops', 'ship'], path: 'devops/deploy/SKILL.md' });
    expect(view.body.content).toContain('Steps for deploy.');
    expect(view.body.linked_files.references).toEqual(['references/checklist.md']);

    const ref = await t.call('GET', '/api/skills/content?name=deploy&file=references/checklist.md');
    expect(ref.body).toEqual({ content: '# Checklist\n\n- tests green\n', path: 'references/checklist.md' });

    expect((await t.call('GET', '/api/skills/content?name=deploy&file=../../note-taking/SKILL.md')).status).toBe(400);
    expect((await t.call('GET', `/api/skills/content?name=deploy&file=${encodeURIComponent(join(outside, 'secret.md'))}`)).status).toBe(400);
    await symlink(join(outside, 'secret.md'), join(skills, 'devops', 'deploy', 'references', 'leak.md'));
    await symlink(outside, join(skills, 'devops', 'deploy', 'templates'));
    const leak = await t.call('GET', '/api/skills/content?name=deploy&file=references/leak.md');
    expect(leak.status).toBe(403);
    expect(leak.body.error).toMatch(/outside the skill directory/);
    expect((await t.call('GET', '/api/skills/content?name=deploy&file=templates/secret.md')).status).toBe(403);
    expect((await t.call('GET', '/api/skills/content?name=deploy&file=references/missing.md')).status).toBe(404);
    expect((await t.call('GET', '/api/skills/content?name=deploy&file=references')).status).toBe(404);

    const missing = await t.call('GET', '/api/skills/content?name=nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "Skill 'nope' not found.", success: false });
    expect(missing.body.available_skills).toContain('deploy');
    expect((await t.call('GET', '/api/skills/content')).body).toEqual({ error: 'name required' });
    expect((await t.call('GET', '/api/skills/content?name=de*')).status).toBe(400);
  });

  it('creates and edits SKILL.md with Hermes front matter rules', async () => {
    const content = skill('lint-fix', 'Fix lint errors', '# Lint\n\nRun the linter, then fix.\n');
    const created = await t.call('POST', '/api/skills/save', { name: 'Lint Fix', category: 'dev', content });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ok: true, name: 'lint-fix', created: true });
    const file = join(skills, 'dev', 'lint-fix', 'SKILL.md');
    expect(await readFile(file, 'utf8')).toBe(content);
    // Read back with Hermes' front matter rules: YAML mapping, then the body.
    const parsed = parseFrontmatter(await readFile(file, 'utf8'));
    expect(parsed.frontmatter).toEqual({ name: 'lint-fix', description: 'Fix lint errors' });
    expect(parsed.body).toBe('# Lint\n\nRun the linter, then fix.\n');

    // Editing finds the skill where it is, whatever category the form sends.
    const edited = skill('lint-fix', 'Fix lint errors fast', '# Lint\n\nRun biome.\n');
    const again = await t.call('POST', '/api/skills/save', { name: 'lint-fix', content: edited });
    expect(again.body).toMatchObject({ ok: true, created: false, path: file });
    expect(await readFile(file, 'utf8')).toBe(edited);

    const bad = async (body: unknown) => (await t.call('POST', '/api/skills/save', body)).body.error as string;
    expect(await bad({ name: '../evil', content })).toMatch(/Invalid skill name/);
    expect(await bad({ name: '-x', content })).toMatch(/Invalid skill name/);
    expect(await bad({ name: 'x'.repeat(65), content })).toMatch(/exceeds 64/);
    expect(await bad({ name: 'ok', category: 'a/b', content })).toMatch(/Invalid category/);
    expect(await bad({ name: 'ok', content: '# no front matter\n' })).toMatch(/must start with YAML frontmatter/);
    expect(await bad({ name: 'ok', content: '---\nname: ok\n---\nbody\n' })).toMatch(/'description'/);
    expect(await bad({ name: 'ok', content: '---\nname: ok\ndescription: d\n---\n' })).toMatch(/content after the frontmatter/);
    expect(await bad({ name: 'ok', content: '---\nname: [ok\ndescription: d\n---\nbody\n' })).toMatch(/YAML frontmatter parse error/);
    expect(await bad({ name: 'ok' })).toMatch(/content is required/);
    expect((await t.call('POST', '/api/skills/save', { name: 'ok', content: 5 })).status).toBe(400);
    expect(existsSync(join(skills, 'ok'))).toBe(false);
  });

  it('refuses to write or delete skills of external dirs and through symlinks', async () => {
    await put(join(outside, 'linked', 'SKILL.md'), skill('linked', 'Lives elsewhere'));
    await symlink(join(outside, 'linked'), join(skills, 'linked'));
    const ext = await t.call('POST', '/api/skills/save', { name: 'team-style', content: skill('team-style', 'Mine now') });
    expect(ext.status).toBe(403);
    expect(ext.body.error).toMatch(/read-only/);
    expect((await t.call('POST', '/api/skills/delete', { name: 'team-style' })).status).toBe(403);
    expect(existsSync(join(t.dir, 'shared-skills', 'team-style', 'SKILL.md'))).toBe(true);

    const save = await t.call('POST', '/api/skills/save', { name: 'linked', content: skill('linked', 'Overwrite') });
    expect(save.status).toBe(400);
    expect((await t.call('POST', '/api/skills/delete', { name: 'linked' })).status).toBe(400);
    expect(await readFile(join(outside, 'linked', 'SKILL.md'), 'utf8')).toContain('Lives elsewhere');

    await put(join(outside, 'target.md'), 'keep me');
    await mkdir(join(skills, 'sneaky'), { recursive: true });
    await symlink(join(outside, 'target.md'), join(skills, 'sneaky', 'SKILL.md'));
    const sneaky = await t.call('POST', '/api/skills/save', { name: 'sneaky', content: skill('sneaky', 'x') });
    expect(sneaky.body.error).toMatch(/symlink/);
    expect(await readFile(join(outside, 'target.md'), 'utf8')).toBe('keep me');
  });

  it('deletes a skill folder, and 404s a missing one', async () => {
    const r = await t.call('POST', '/api/skills/delete', { name: 'note-taking' });
    expect(r.body).toEqual({ ok: true, name: 'note-taking' });
    expect(existsSync(join(skills, 'note-taking'))).toBe(false);
    expect((await t.call('POST', '/api/skills/delete', { name: 'note-taking' })).status).toBe(404);
    expect((await t.call('POST', '/api/skills/delete', { name: '../x' })).status).toBe(400);
    expect((await t.call('POST', '/api/skills/delete', {})).status).toBe(400);
  });

  it('toggles skills.disabled in config.yaml, keeping comments and other keys', async () => {
    const config = join(t.hermesHome, 'config.yaml');
    const off = await t.call('POST', '/api/skills/toggle', { name: 'deploy', enabled: false });
    expect(off.body).toEqual({ ok: true, name: 'deploy', enabled: false });
    let text = await readFile(config, 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('# hidden for now');
    expect(text).toContain('- old-skill # retired');
    expect(text).toContain('- deploy');
    expect(text).toContain('external_dirs:');
    expect((await t.call('GET', '/api/skills')).body.skills.find((s: any) => s.name === 'deploy').disabled).toBe(true);

    await t.call('POST', '/api/skills/toggle', { name: 'old-skill', enabled: true });
    await t.call('POST', '/api/skills/toggle', { name: 'deploy', enabled: 1 });
    text = await readFile(config, 'utf8');
    expect(text).not.toContain('old-skill');
    expect(text).not.toMatch(/- deploy/);
    expect(text).toContain('# my settings');

    expect((await t.call('POST', '/api/skills/toggle', { name: 'nope', enabled: false })).status).toBe(404);
    expect((await t.call('POST', '/api/skills/toggle', { name: 'deploy', enabled: 'yes' })).status).toBe(400);
    await writeFile(config, 'skills: [unclosed\n');
    const broken = await t.call('POST', '/api/skills/toggle', { name: 'deploy', enabled: false });
    expect(broken.status).toBe(409);
    expect(await readFile(config, 'utf8')).toBe('skills: [unclosed\n');
  });

  it('honours platform_disabled.webui and a JSON-string disabled list', async () => {
    const config = join(t.hermesHome, 'config.yaml');
    await writeFile(config, `skills:\n  disabled: '["note-taking"]'\n  platform_disabled:\n    webui: [deploy]\n`);
    const rows = (await t.call('GET', '/api/skills')).body.skills;
    expect(
      rows
        .filter((s: any) => s.disabled)
        .map((s: any) => s.name)
        .sort(),
    ).toEqual(['deploy', 'note-taking']);
    await t.call('POST', '/api/skills/toggle', { name: 'deploy', enabled: true });
    const text = await readFile(config, 'utf8');
    expect(text).toMatch(/webui: \[\]/);
    expect(text).toContain('- note-taking');
  });

  it('reports usage from skills/.usage.json as Hermes writes it', async () => {
    expect((await t.call('GET', '/api/skills/usage')).body).toMatchObject({ usage: {}, total_invocations: 0, unique_skills_used: 0 });
    const usage = {
      deploy: { use_count: 3, view_count: 2, patch_count: 1, last_used_at: '2026-11-30T10:00:00+00:00', state: 'active', pinned: false },
      'note-taking': { use_count: 0, view_count: 0, patch_count: 0 },
      broken: 'not a record',
    };
    await writeFile(join(skills, '.usage.json'), JSON.stringify(usage, null, 2));
    const r = await t.call('GET', '/api/skills/usage');
    expect(r.body.usage.deploy).toEqual(usage.deploy);
    expect(r.body.usage.broken).toEqual({ use_count: 0, view_count: 0, patch_count: 0 });
    expect(r.body.total_invocations).toBe(6);
    expect(r.body.unique_skills_used).toBe(1);
    expect(r.body.skill_names).toEqual(['deploy', 'note-taking', 'old-skill', 'team-style']);
    await writeFile(join(skills, '.usage.json'), '{not json');
    expect((await t.call('GET', '/api/skills/usage')).body.usage).toEqual({});
  });

  it('works on the profile the hermes_profile cookie names', async () => {
    const work = join(t.hermesHome, 'profiles', 'work');
    await put(join(work, 'skills', 'work-only', 'SKILL.md'), skill('work-only', 'Work things'));
    const cookie = { Cookie: 'hermes_profile=work' };
    const list = await t.call('GET', '/api/skills', undefined, cookie);
    expect(list.body.skills.map((s: any) => s.name)).toEqual(['work-only']);
    await t.call('POST', '/api/skills/save', { name: 'work-two', content: skill('work-two', 'More work') }, cookie);
    expect(existsSync(join(work, 'skills', 'work-two', 'SKILL.md'))).toBe(true);
    expect(existsSync(join(skills, 'work-two'))).toBe(false);
    await t.call('POST', '/api/skills/toggle', { name: 'work-only', enabled: false }, cookie);
    expect(await readFile(join(work, 'config.yaml'), 'utf8')).toContain('- work-only');
    expect(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).not.toContain('work-only');
    // The default profile does not see them.
    expect((await t.call('GET', '/api/skills')).body.skills.map((s: any) => s.name)).not.toContain('work-only');
    await rm(work, { recursive: true, force: true });
  });
});
