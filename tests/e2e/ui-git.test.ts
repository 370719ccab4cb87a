import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });
const panel = '[data-role="git-panel"]';
const gitFile = (group: string, path: string) => `${panel} [data-group="${group}"] [data-role="git-file"][data-path="${path}"]`;

/** The Git view of the workspace panel against the real server and a real repository as the workspace. */
describe('web app: the git panel', () => {
  let ui: UiHarness;
  let repo: string;
  beforeAll(async () => {
    ui = await startUi({
      env: { HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE: '1' },
      // The default workspace is a repository with one commit, one edited file and one new file.
      prepare: async (stateDir) => {
        repo = join(stateDir, 'workspace');
        await mkdir(join(repo, 'src'), { recursive: true });
        git(repo, 'init', '-q', '-b', 'main');
        git(repo, 'config', 'user.name', 'Hermes Test');
        git(repo, 'config', 'user.email', 'hermes@example.test');
        await writeFile(join(repo, 'src', 'app.ts'), 'export const a = 1;\nexport const b = 2;\n');
        git(repo, 'add', '.');
        git(repo, 'commit', '-q', '-m', 'First');
        await writeFile(join(repo, 'src', 'app.ts'), 'export const a = 1;\nexport const b = 3;\n');
        await writeFile(join(repo, 'notes.md'), '# Notes\n');
      },
    });
  });
  afterAll(async () => ui?.close());

  it('shows the changes with badges and diffs, stages a file, commits it with a typed message and ends clean', async () => {
    const { page } = await ui.open('/');
    ui.model.enqueue([{ text: 'ready' }]);
    await page.locator(hooks.composer).fill('hello');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('ready')).toBe(true);
    await page.locator('[data-role="workspace-files"]').click();
    await expect.poll(() => page.locator(hooks.workspacePanel).count()).toBe(1);

    // The tree marks the changes from the one status answer.
    await expect.poll(() => page.locator('hermes-file-tree [data-path="notes.md"] [data-role="git-badge"]').textContent()).toBe('?');
    await expect.poll(() => page.locator('hermes-file-tree [data-path="src"] [data-role="git-dot"]').count()).toBe(1);

    await page.locator('[role="tab"][data-view="git"]').click();
    await expect.poll(() => page.locator(gitFile('changes', 'src/app.ts')).count()).toBe(1);
    await expect.poll(() => page.locator(gitFile('untracked', 'notes.md')).count()).toBe(1);
    expect(await page.locator(`${gitFile('changes', 'src/app.ts')} [data-role="git-counts"]`).textContent()).toMatch(/\+1\s*−1/);

    // The diff opens under its row.
    await page.locator(`${gitFile('changes', 'src/app.ts')} .file-main`).click();
    await expect.poll(async () => deepText(page.locator(`${panel} hermes-diff-view`))).toContain('export const b = 3;');

    await page.locator(`${gitFile('changes', 'src/app.ts')}`).hover();
    await page.locator(`${gitFile('changes', 'src/app.ts')} [data-action="stage"]`).click();
    await expect.poll(() => page.locator(gitFile('staged', 'src/app.ts')).count()).toBe(1);
    expect(git(repo, 'diff', '--cached', '--name-only').trim()).toBe('src/app.ts');

    await page.locator('[data-role="commit-message"]').fill('Raise b to 3');
    await ui.screenshot(page, 'git-panel');
    await page.locator('[data-action="commit"]').click();
    await expect.poll(() => page.locator(gitFile('staged', 'src/app.ts')).count()).toBe(0);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Raise b to 3');

    // Only the untracked file is left; staging and committing it leaves the tree clean.
    await page.locator(`${panel} [data-group="untracked"] [data-action="stage-all"]`).click();
    await expect.poll(() => page.locator(gitFile('staged', 'notes.md')).count()).toBe(1);
    await page.locator('[data-role="commit-message"]').fill('Add notes');
    await page.locator('[data-action="commit"]').click();
    await expect.poll(() => page.locator(`${panel} [data-role="git-clean"]`).count()).toBe(1);
    expect(git(repo, 'status', '--porcelain').trim()).toBe('');
    await ui.screenshot(page, 'git-panel-clean');

    // Back in the files, the badges are gone.
    await page.locator('[role="tab"][data-view="files"]').click();
    await expect.poll(() => page.locator('hermes-file-tree [data-path="notes.md"]').count()).toBe(1);
    expect(await page.locator('hermes-file-tree [data-role="git-badge"]').count()).toBe(0);
  }, 90_000);
});
