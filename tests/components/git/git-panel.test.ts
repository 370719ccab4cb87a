import { expect, cleanup, fixture, stubFetch, waitFor } from '../helpers.js';
import { BRANCHES, EVERY_KIND, file, refusal, status } from './fixtures.js';
import '../../../components/git/hermes-git-panel.js';
import type { HermesGitPanel } from '../../../components/git/hermes-git-panel.js';
import type { GitStatus } from '../../../components/api/git.js';

const DIFF = 'diff --git a/src/app.ts b/src/app.ts\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n keep();\n';

let sessionN = 0;
async function mount(s: GitStatus | null, routes: Record<string, unknown> = {}) {
  const fetch = stubFetch({ 'GET /api/git/branches': { branches: BRANCHES }, ...routes });
  // A fresh session each time: a read-only answer is remembered per session.
  const el = await fixture<HermesGitPanel>('hermes-git-panel', { sessionId: `s${++sessionN}`, status: s });
  return {
    el,
    fetch,
    $: (sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel),
    $$: (sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)],
  };
}

describe('hermes-git-panel', () => {
  let restore: () => void = () => {};
  afterEach(() => {
    restore();
    cleanup();
  });

  it('says so when the workspace is not a repository', async () => {
    const m = await mount({ is_git: false });
    restore = m.fetch.restore;
    expect(m.$('[data-role="git-not-repo"]')?.textContent).to.contain('not a Git repository');
    expect(m.$('[data-role="commit-message"]')).to.not.exist;
  });

  it('asks for the status itself when the owner has none', async () => {
    const m = await mount(null, { 'GET /api/git/status': { git: status([]) } });
    restore = m.fetch.restore;
    await waitFor(() => expect(m.$('[data-role="git-clean"]')).to.exist);
    expect(m.fetch.calls.some((c) => c.url.startsWith('/api/git/status?session_id='))).to.equal(true);
  });

  it('shows a clean tree with its branch, upstream and an idle commit box', async () => {
    const m = await mount(status([], { ahead: 0, behind: 0 }));
    restore = m.fetch.restore;
    expect(m.$('[data-role="git-clean"]')?.textContent).to.contain('clean');
    expect(m.$('[data-role="git-upstream"]')?.textContent).to.contain('origin/main');
    await waitFor(() => expect(m.$('[data-role="git-branch"]')).to.exist);
    expect((m.$('[data-role="git-branch"]') as HTMLSelectElement).value).to.equal('local:main');
    expect((m.$('[data-action="commit"]') as HTMLButtonElement).disabled).to.equal(true);
    expect((m.$('[data-action="suggest"]') as HTMLButtonElement).disabled).to.equal(true);
  });

  it('groups every kind of change with its letter and line counts', async () => {
    const m = await mount(EVERY_KIND);
    restore = m.fetch.restore;
    const groups = m.$$('[data-role="git-group"]').map((g) => g.dataset.group);
    expect(groups).to.deep.equal(['conflicts', 'staged', 'changes', 'untracked']);
    const row = (group: string, path: string) => m.$(`[data-group="${group}"] [data-role="git-file"][data-path="${path}"]`)!;
    expect(row('conflicts', 'both.txt').dataset.status).to.equal('U');
    expect(row('staged', 'src/new.ts').dataset.status).to.equal('A');
    expect(row('staged', 'old.txt').dataset.status).to.equal('D');
    expect(row('changes', 'src/app.ts').dataset.status).to.equal('M');
    expect(row('untracked', 'notes.md').dataset.status).to.equal('?');
    expect(row('changes', 'src/app.ts').querySelector('[data-role="git-counts"]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal('+4 −2');
    expect(m.$('[data-role="git-upstream"]')!.textContent).to.contain('↑2').and.contain('↓1');
    // Only real changes are listed once per group: the conflict is in no other group.
    expect(m.$$('[data-role="git-file"][data-path="both.txt"]')).to.have.length(1);
  });

  it('opens a file’s diff from GET /api/git/diff with the kind of its group, and closes it', async () => {
    const m = await mount(EVERY_KIND, {
      'GET /api/git/diff': (c: { url: string }) => ({
        diff: {
          path: 'src/app.ts',
          kind: new URL(c.url, location.href).searchParams.get('kind'),
          binary: false,
          too_large: false,
          additions: 1,
          deletions: 1,
          diff: DIFF,
        },
      }),
    });
    restore = m.fetch.restore;
    m.$('[data-group="changes"] [data-path="src/app.ts"] .file-main')!.click();
    await waitFor(() => expect(m.$('hermes-diff-view')).to.exist);
    const call = m.fetch.calls.find((c) => c.url.startsWith('/api/git/diff'))!;
    const params = new URL(call.url, location.href).searchParams;
    expect(params.get('path')).to.equal('src/app.ts');
    expect(params.get('kind')).to.equal('unstaged');
    const view = m.$('hermes-diff-view') as HTMLElement & { diff: string; updateComplete: Promise<unknown> };
    expect(view.diff).to.equal(DIFF);
    await view.updateComplete;
    expect(view.shadowRoot!.querySelectorAll('[data-kind="add"]')).to.have.length(1);
    m.$('[data-group="staged"] [data-path="src/new.ts"] .file-main')!.click();
    await waitFor(() => expect(m.fetch.calls.filter((c) => c.url.startsWith('/api/git/diff')).at(-1)!.url).to.contain('kind=staged'));
    m.$('[data-group="staged"] [data-path="src/new.ts"] .file-main')!.click();
    await waitFor(() => expect(m.$('[data-role="git-diff"]')).to.not.exist);
  });

  it('stages, unstages and stages all with the paths in the body, and takes the answer’s status', async () => {
    const after = status([file('src/app.ts', { staged: true, unstaged: false })]);
    const m = await mount(EVERY_KIND, {
      'POST /api/git/stage': { ok: true, git: after },
      'POST /api/git/unstage': { ok: true, git: EVERY_KIND },
    });
    restore = m.fetch.restore;
    const seen: GitStatus[] = [];
    m.el.addEventListener('hermes-git-status', (e) => seen.push(e.detail.status));
    m.$('[data-group="changes"] [data-path="src/app.ts"] [data-action="stage"]')!.click();
    await waitFor(() => expect(m.$$('[data-role="git-group"]').map((g) => g.dataset.group)).to.deep.equal(['staged']));
    expect(m.fetch.calls.find((c) => c.url === '/api/git/stage')!.body).to.deep.equal({ session_id: m.el.sessionId, paths: ['src/app.ts'] });
    expect(seen).to.deep.equal([after]);

    m.$('[data-group="staged"] [data-path="src/app.ts"] [data-action="unstage"]')!.click();
    await waitFor(() => expect(m.$('[data-group="untracked"]')).to.exist);
    expect(m.fetch.calls.find((c) => c.url === '/api/git/unstage')!.body).to.deep.equal({ session_id: m.el.sessionId, paths: ['src/app.ts'] });

    m.$('[data-group="untracked"] [data-action="stage-all"]')!.click();
    await waitFor(() => expect(m.fetch.calls.filter((c) => c.url === '/api/git/stage')).to.have.length(2));
    expect(m.fetch.calls.filter((c) => c.url === '/api/git/stage')[1]!.body.paths).to.deep.equal(['notes.md']);
  });

  it('discards only after a confirmation, and deletes an untracked file with delete_untracked', async () => {
    const m = await mount(EVERY_KIND, { 'POST /api/git/discard': { ok: true, git: status([]) } });
    restore = m.fetch.restore;
    m.$('[data-group="changes"] [data-path="src/app.ts"] [data-action="discard"]')!.click();
    await m.el.updateComplete;
    m.$('[data-action="cancel-discard"]')!.click();
    await m.el.updateComplete;
    expect(m.fetch.calls.filter((c) => c.url === '/api/git/discard')).to.have.length(0);

    m.$('[data-group="untracked"] [data-path="notes.md"] [data-action="discard"]')!.click();
    await m.el.updateComplete;
    expect(m.$('[data-role="git-file"].confirm')!.textContent).to.contain('Delete');
    m.$('[data-action="confirm-discard"]')!.click();
    await waitFor(() => expect(m.$('[data-role="git-clean"]')).to.exist);
    expect(m.fetch.calls.find((c) => c.url === '/api/git/discard')!.body).to.deep.equal({
      session_id: m.el.sessionId,
      paths: ['notes.md'],
      delete_untracked: true,
    });
  });

  it('fills the message from Suggest, and commits it only with staged files and a message', async () => {
    const m = await mount(EVERY_KIND, {
      'POST /api/git/commit-message': { ok: true, message: 'Add the new module', truncated: false },
      'POST /api/git/commit': { ok: true, commit: 'abc1234', status: status([]) },
    });
    restore = m.fetch.restore;
    const commit = () => m.$('[data-action="commit"]') as HTMLButtonElement;
    expect(commit().disabled).to.equal(true);
    m.$('[data-action="suggest"]')!.click();
    await waitFor(() => expect((m.$('[data-role="commit-message"]') as HTMLTextAreaElement).value).to.equal('Add the new module'));
    expect(m.fetch.calls.find((c) => c.url === '/api/git/commit-message')!.body).to.deep.equal({ session_id: m.el.sessionId });
    expect(commit().disabled).to.equal(false);
    expect(commit().textContent).to.contain('2 files');
    const box = m.$('[data-role="commit-message"]') as HTMLTextAreaElement;
    box.value = 'Add the new module\n\nAnd drop old.txt';
    box.dispatchEvent(new Event('input'));
    await m.el.updateComplete;
    commit().click();
    await waitFor(() => expect(m.$('[data-role="git-clean"]')).to.exist);
    expect(m.fetch.calls.find((c) => c.url === '/api/git/commit')!.body).to.deep.equal({
      session_id: m.el.sessionId,
      message: 'Add the new module\n\nAnd drop old.txt',
    });
    expect((m.$('[data-role="commit-message"]') as HTMLTextAreaElement).value).to.equal('');
    expect(m.$('[data-role="git-notice"]')!.textContent).to.contain('Committed');
  });

  it('turns read-only with an explanation when the server refuses writes (403 destructive_git_disabled)', async () => {
    const m = await mount(EVERY_KIND, {
      'POST /api/git/stage': refusal(
        403,
        'Destructive workspace Git operations are disabled. Set HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1 to enable them.',
        'destructive_git_disabled',
      ),
    });
    restore = m.fetch.restore;
    m.$('[data-group="changes"] [data-action="stage-all"]')!.click();
    await waitFor(() => expect(m.$('[data-role="git-read-only"]')).to.exist);
    expect(m.$('[data-role="git-read-only"]')!.textContent).to.contain('HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1');
    for (const action of ['stage', 'unstage', 'discard', 'stage-all', 'commit', 'suggest', 'git-pull', 'git-push'])
      expect(m.$(`[data-action="${action}"]`), action).to.not.exist;
    expect(m.$('[data-role="git-branch"]')).to.not.exist;
    // Reading still works: the diff opens, fetch stays.
    expect(m.$('[data-action="git-fetch"]')).to.exist;
    expect(m.$$('[data-role="git-file"]')).to.have.length(5);
    // Remembered for the session: the panel opened again is read-only at once.
    const again = await fixture<HermesGitPanel>('hermes-git-panel', { sessionId: m.el.sessionId, status: EVERY_KIND });
    expect(again.shadowRoot!.querySelector('[data-role="git-read-only"]')).to.exist;
  });

  it('shows a quiet inline notice when a running turn refuses the action (409 active_stream)', async () => {
    const m = await mount(EVERY_KIND, {
      'POST /api/git/commit-message': { ok: true, message: 'msg', truncated: false },
      'POST /api/git/commit': refusal(409, 'A session run is active. Wait for it to finish before running this Git operation.', 'active_stream'),
    });
    restore = m.fetch.restore;
    m.$('[data-action="suggest"]')!.click();
    await waitFor(() => expect((m.$('[data-action="commit"]') as HTMLButtonElement).disabled).to.equal(false));
    m.$('[data-action="commit"]')!.click();
    await waitFor(() => expect(m.$('[data-role="git-turn-running"]')).to.exist);
    expect(m.$('[data-role="git-turn-running"]')!.getAttribute('role')).to.equal('status');
    expect(m.$('[data-role="git-turn-running"]')!.textContent).to.contain('turn is running');
    // Nothing lost: the message and the staged files are still there, the controls too.
    expect((m.$('[data-role="commit-message"]') as HTMLTextAreaElement).value).to.equal('msg');
    expect(m.$('[data-role="git-read-only"]')).to.not.exist;
  });

  it('shows git’s own failure as an error and switches branch with checkout', async () => {
    const m = await mount(EVERY_KIND, {
      'POST /api/git/push': refusal(400, 'No upstream branch is configured', 'no_upstream'),
      'POST /api/git/checkout': {
        ok: true,
        git: status([], { branch: 'feature/x' }),
        branches: { ...BRANCHES, current: 'feature/x' },
        current_branch: 'feature/x',
        message: '',
      },
    });
    restore = m.fetch.restore;
    m.$('[data-action="git-push"]')!.click();
    await waitFor(() => expect(m.$('[role="alert"]')?.textContent).to.contain('No upstream branch'));
    await waitFor(() => expect(m.$('[data-role="git-branch"]')).to.exist);
    const select = m.$('[data-role="git-branch"]') as HTMLSelectElement;
    select.value = 'local:feature/x';
    select.dispatchEvent(new Event('change'));
    await waitFor(() => expect(m.$('[data-role="git-clean"]')).to.exist);
    expect(m.fetch.calls.find((c) => c.url === '/api/git/checkout')!.body).to.deep.equal({ session_id: m.el.sessionId, ref: 'feature/x', mode: 'local' });
  });

  it('reads an open diff again when the owner passes a new status, and closes it when the file is no longer changed', async () => {
    const m = await mount(EVERY_KIND, {
      'GET /api/git/diff': { diff: { path: 'src/app.ts', kind: 'unstaged', binary: false, too_large: false, additions: 1, deletions: 1, diff: DIFF } },
    });
    restore = m.fetch.restore;
    const diffs = () => m.fetch.calls.filter((c) => c.url.startsWith('/api/git/diff')).length;
    m.$('[data-group="changes"] [data-path="src/app.ts"] .file-main')!.click();
    await waitFor(() => expect(m.$('hermes-diff-view')).to.exist);
    expect(diffs()).to.equal(1);
    // A turn ended: the owner read the status again and the file is still edited.
    m.el.status = status([file('src/app.ts', { additions: 9 })]);
    await waitFor(() => expect(diffs()).to.equal(2));
    m.el.status = status([]);
    await waitFor(() => expect(m.$('[data-role="git-diff"]')).to.not.exist);
    expect(diffs()).to.equal(2);
  });

  it('says another operation holds the repository (409 operation_in_progress) and puts the switcher back after a refused checkout', async () => {
    const m = await mount(EVERY_KIND, {
      'POST /api/git/stage': refusal(409, 'Another Git operation is running', 'operation_in_progress'),
      'POST /api/git/checkout': refusal(400, 'Your local changes would be overwritten by checkout', 'dirty_worktree'),
    });
    restore = m.fetch.restore;
    m.$('[data-group="changes"] [data-action="stage-all"]')!.click();
    await waitFor(() => expect(m.$('[data-role="git-notice"]')?.textContent).to.contain('Another Git operation'));
    expect(m.$('[data-role="git-notice"]')!.getAttribute('role')).to.equal('status');
    await waitFor(() => expect(m.$('[data-role="git-branch"]')).to.exist);
    const select = m.$('[data-role="git-branch"]') as HTMLSelectElement;
    select.value = 'local:feature/x';
    select.dispatchEvent(new Event('change'));
    await waitFor(() => expect(m.$('[role="alert"]')?.textContent).to.contain('local changes would be overwritten'));
    expect(select.value).to.equal('local:main');
  });
});
