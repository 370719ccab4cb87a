import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseFrontmatter } from '../../src/agent/tools/skills-scan.js';
import { deepText, startUi, type UiHarness } from '../helpers/browser.js';

const row = (name: string) => `[data-role="skill-row"][data-skill="${name}"]`;

/** A hand-written Hermes skills tree, before the server starts. */
async function writeSkills(stateDir: string) {
  const skills = join(stateDir, '..', 'skills');
  const put = async (path: string, text: string) => {
    await mkdir(join(skills, path, '..'), { recursive: true });
    await writeFile(join(skills, path), text);
  };
  await put('devops/deploy/SKILL.md', '---\nname: deploy\ndescription: Ship the app to production\n---\n# Deploy\n\nRun the **release** checklist first.\n');
  await put('devops/deploy/references/checklist.md', '# Checklist\n\n- tests green\n- changelog written\n');
  await put('devops/deploy/scripts/release.sh', '#!/bin/sh\necho release\n');
  await put('note-taking/SKILL.md', '---\nname: note-taking\ndescription: Keep tidy notes\n---\nWrite notes in markdown.\n');
  await writeFile(join(skills, '.usage.json'), JSON.stringify({ deploy: { use_count: 4, view_count: 3, patch_count: 0 } }, null, 2));
}

/**
 * A person in Chromium at /panel/skills: searches, opens a skill and one of its linked files,
 * creates a skill, edits it, turns it off, reloads (the panel comes back as it was), deletes it.
 * Each step is checked on disk in Hermes' own formats.
 */
describe('web app: the Skills panel', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare: writeSkills });
  }, 120_000);
  afterAll(async () => ui?.close());

  it('search, open, linked file, create, edit, toggle, reload, delete', async () => {
    const skills = join(ui.home, '.hermes', 'skills');
    const { page } = await ui.open('/panel/skills');
    await page.locator('[data-role="panel"][data-panel="skills"]').waitFor();
    await expect.poll(() => page.locator('[data-role="skill-row"]').count(), { timeout: 15_000 }).toBe(2);
    expect(await deepText(page.locator(row('deploy')))).toContain('7 uses');
    expect(await deepText(page.locator('[data-role="skill-category"][data-category="devops"]'))).toContain('devops');

    // Search narrows the list.
    await page.locator('[data-role="skill-search"]').fill('tidy');
    await expect.poll(() => page.locator('[data-role="skill-row"]').count()).toBe(1);
    await page.locator('[data-role="skill-search"]').fill('');

    // Open a skill: its SKILL.md rendered, its linked files listed; open one.
    await page.locator(row('deploy')).click();
    const detail = page.locator('[data-role="skill-detail"][data-skill="deploy"]');
    await expect.poll(() => deepText(detail.locator('[data-role="skill-body"]'))).toContain('Run the release checklist first.');
    expect(await detail.locator('[data-role="skill-body"] strong').count()).toBe(1);
    expect(await page.locator('[data-role="skill-file"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-file')))).toEqual([
      'references/checklist.md',
      'scripts/release.sh',
    ]);
    await page.locator('[data-role="skill-file"][data-file="references/checklist.md"]').click();
    await expect.poll(() => deepText(page.locator('[data-role="skill-file-view"]'))).toContain('changelog written');
    await page.locator('[data-role="skill-file-back"]').click();
    await detail.waitFor();

    // Create.
    await page.locator('[data-role="skill-new"]').click();
    await page.locator('[data-role="skill-form-name"]').fill('Lint Fix');
    await page.locator('[data-role="skill-form-category"]').fill('dev');
    await page.locator('[data-role="skill-form-description"]').fill('Fix lint errors: run the linter, then fix');
    await page.locator('[data-role="skill-form-body"]').fill('# Lint\n\nRun `biome check` and fix what it reports.');
    await page.locator('[data-role="skill-form-save"]').click();
    await page.locator('[data-role="skill-detail"][data-skill="lint-fix"]').waitFor();
    const file = join(skills, 'dev', 'lint-fix', 'SKILL.md');
    const created = parseFrontmatter(await readFile(file, 'utf8'));
    expect(created.frontmatter).toEqual({ name: 'lint-fix', description: 'Fix lint errors: run the linter, then fix' });
    expect(created.body.trim()).toBe('# Lint\n\nRun `biome check` and fix what it reports.');
    await expect.poll(() => page.locator(row('lint-fix')).count()).toBe(1);

    // Edit the whole SKILL.md.
    await page.locator('[data-role="skill-edit"]').click();
    const content = page.locator('[data-role="skill-form-content"]');
    await content.fill((await content.inputValue()).replace('fix what it reports', 'fix every warning'));
    await page.locator('[data-role="skill-form-save"]').click();
    await expect
      .poll(() => deepText(page.locator('[data-role="skill-detail"][data-skill="lint-fix"] [data-role="skill-body"]')))
      .toContain('fix every warning');
    expect(await readFile(file, 'utf8')).toContain('fix every warning');

    // A bad edit is refused with Hermes' message and nothing is written.
    await page.locator('[data-role="skill-edit"]').click();
    await content.fill('no front matter');
    await page.locator('[data-role="skill-form-save"]').click();
    await expect.poll(() => deepText(page.locator('[data-role="skill-form-error"]'))).toContain('must start with YAML frontmatter');
    expect(await readFile(file, 'utf8')).toContain('fix every warning');
    await page.locator('[data-role="skill-form-cancel"]').click();

    // Turn it off: config.yaml's skills.disabled, the model settings kept.
    await page.locator(`${row('lint-fix')} [data-role="skill-toggle"]`).uncheck();
    const config = async () => parseYaml(await readFile(join(ui.home, '.hermes', 'config.yaml'), 'utf8'));
    await expect.poll(async () => (await config()).skills?.disabled).toEqual(['lint-fix']);
    expect((await config()).model.default).toBe('scripted-model');
    await page.locator('[data-role="skill-search"]').fill('lint');
    await ui.screenshot(page, 'panel-skills');

    // Reload: the search, the open skill and the switch are as they were.
    await page.reload();
    await page.locator('[data-role="skill-detail"][data-skill="lint-fix"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-role="skill-search"]').inputValue()).toBe('lint');
    await expect.poll(() => page.locator('[data-role="skill-row"]').count()).toBe(1);
    expect(await page.locator(`${row('lint-fix')} [data-role="skill-toggle"]`).isChecked()).toBe(false);

    // Delete, with a confirmation first.
    await page.locator('[data-role="skill-delete"]').click();
    await page.locator('[data-role="skill-delete-yes"]').click();
    await expect.poll(() => page.locator(row('lint-fix')).count()).toBe(0);
    expect(existsSync(join(skills, 'dev', 'lint-fix'))).toBe(false);
    expect(existsSync(join(skills, 'devops', 'deploy', 'SKILL.md'))).toBe(true);
  }, 120_000);

  it('on a phone the list sits above the open skill', async () => {
    const { page } = await ui.open('/panel/skills', { viewport: { width: 390, height: 844 }, isMobile: true });
    await expect.poll(() => page.locator('[data-role="skill-row"]').count(), { timeout: 15_000 }).toBe(2);
    await page.locator(row('deploy')).click();
    const body = page.locator('[data-role="skill-detail"][data-skill="deploy"]');
    await body.waitFor();
    const list = await page.locator('[data-role="skill-list"]').boundingBox();
    const detail = await body.boundingBox();
    expect(list!.width).toBeGreaterThan(300);
    expect(detail!.y).toBeGreaterThanOrEqual(list!.y + list!.height - 1);
    const create = await page.locator('[data-role="skill-new"]').boundingBox();
    expect(create!.x + create!.width).toBeLessThanOrEqual(390);
    await ui.screenshot(page, 'panel-skills-phone');
  }, 60_000);
});
