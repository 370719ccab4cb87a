import { expect, cleanup, fixture, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import type { FileEntry } from '../../../components/api/client.js';
import { gitMarks } from '../../../components/git/git-marks.js';
import { SETTINGS, mountWith, session } from '../workspace/providers.js';
import { EVERY_KIND, file, status } from './fixtures.js';
import '../../../components/workspace/hermes-file-tree.js';
import '../../../components/workspace/hermes-workspace-panel.js';
import type { HermesFileTree } from '../../../components/workspace/hermes-file-tree.js';
import type { HermesWorkspacePanel } from '../../../components/workspace/hermes-workspace-panel.js';

const entry = (path: string, isDir = false): FileEntry => ({
  name: path.split('/').pop()!,
  path,
  type: isDir ? 'dir' : 'file',
  is_dir: isDir,
  size: 1,
  mtime_ns: '0',
});
const LISTING: Record<string, FileEntry[]> = {
  '': [entry('src', true), entry('docs', true), entry('both.txt'), entry('notes.md'), entry('clean.txt')],
  src: [entry('src/app.ts'), entry('src/new.ts')],
  docs: [entry('docs/a.md')],
};
const list = (c: FetchCall) => {
  const path = new URL(c.url, location.href).searchParams.get('path') ?? '';
  return { entries: LISTING[path] ?? [], path: path || '.', workspace: '/w' };
};

describe('git status badges', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => {
    fetch.restore();
    cleanup();
  });

  it('gives each changed file its letter and each folder holding changes a dot, and nothing to clean rows', async () => {
    fetch = stubFetch({ 'GET /api/list': list });
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1', workspace: '/w', marks: gitMarks(EVERY_KIND) });
    await waitFor(() => expect(tree.shadowRoot!.querySelector('[data-path="src"]')).to.exist);
    await tree.toggle('src', true);
    await tree.updateComplete;
    const badge = (path: string) => tree.shadowRoot!.querySelector(`[data-path="${path}"] [data-role="git-badge"]`)?.textContent;
    expect(badge('src/app.ts')).to.equal('M');
    expect(badge('src/new.ts')).to.equal('A');
    expect(badge('both.txt')).to.equal('U');
    expect(badge('notes.md')).to.equal('?');
    expect(badge('clean.txt')).to.equal(undefined);
    expect(tree.shadowRoot!.querySelector('[data-path="src"] [data-role="git-dot"]')).to.exist;
    expect(tree.shadowRoot!.querySelector('[data-path="docs"] [data-role="git-dot"]')).to.not.exist;
    // Coloured by tokens: a modified file takes the warning colour, a conflict the error colour.
    const root = document.documentElement.style;
    root.setProperty('--hermes-color-warning', 'rgb(1, 2, 3)');
    root.setProperty('--hermes-color-error', 'rgb(4, 5, 6)');
    const colour = (path: string) => getComputedStyle(tree.shadowRoot!.querySelector(`[data-path="${path}"] [data-role="git-badge"]`)!).color;
    try {
      expect(colour('src/app.ts')).to.equal('rgb(1, 2, 3)');
      expect(colour('both.txt')).to.equal('rgb(4, 5, 6)');
    } finally {
      for (const p of ['--hermes-color-warning', '--hermes-color-error']) root.removeProperty(p);
    }
  });

  it('maps statuses to letters: renames R, copies A, deletions D, untracked folders mark the folder', () => {
    const marks = gitMarks(
      status([
        file('a/b/renamed.ts', { status: 'R', old_path: 'a/old.ts', staged: true }),
        file('copy.ts', { status: 'C', staged: true }),
        file('gone.ts', { status: 'D' }),
        file('fresh/', { status: '??', untracked: true }),
        file('ignored.log', { status: 'Ignored', ignored: true }),
      ]),
    );
    expect([...marks.files]).to.deep.equal([
      ['a/b/renamed.ts', 'R'],
      ['copy.ts', 'A'],
      ['gone.ts', 'D'],
      ['fresh', '?'],
    ]);
    expect([...marks.dirs].sort()).to.deep.equal(['a', 'a/b', 'fresh']);
    expect(gitMarks({ is_git: false }).files.size).to.equal(0);
  });

  it('the workspace panel asks for the status once, offers a Git view for a repository and loads it when opened', async () => {
    fetch = stubFetch({
      'GET /api/list': list,
      'GET /api/git/status': { git: EVERY_KIND },
      'GET /api/git/branches': {
        branches: { is_git: true, current: 'main', detached: false, head: 'a', local: [], remote: [], upstream: '', ahead: 0, behind: 0 },
      },
      'POST /api/git/stage': { ok: true, git: status([file('src/app.ts', { staged: true, unstaged: false })]) },
    });
    const { el } = await mountWith<HermesWorkspacePanel>('hermes-workspace-panel', { session: session('s1', '/w') });
    const $ = (sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel);
    await waitFor(() => expect($('[role="tab"][data-view="git"]')).to.exist);
    expect($('[data-role="git-changed"]')!.textContent).to.equal('5');
    const tree = $('hermes-file-tree') as HermesFileTree;
    await waitFor(() => expect(tree.shadowRoot!.querySelector('[data-path="notes.md"] [data-role="git-badge"]')).to.exist);
    expect(fetch.calls.filter((c) => c.url.startsWith('/api/git/status'))).to.have.length(1);
    expect(customElements.get('hermes-git-panel')).to.equal(undefined);

    $('[role="tab"][data-view="git"]')!.click();
    await waitFor(() => expect($('hermes-git-panel')?.shadowRoot?.querySelector('[data-role="git-panel"]')).to.exist);
    // The panel takes the status it was given: no second request.
    expect(fetch.calls.filter((c) => c.url.startsWith('/api/git/status'))).to.have.length(1);
    const panel = $('hermes-git-panel')!;
    panel.shadowRoot!.querySelector<HTMLElement>('[data-group="changes"] [data-action="stage"]')!.click();
    await waitFor(() => expect($('[data-role="git-changed"]')!.textContent).to.equal('1'));

    // Back to the files: the badges follow the panel's answer.
    $('[role="tab"][data-view="files"]')!.click();
    await waitFor(() => expect($('hermes-file-tree')).to.exist);
    const tree2 = $('hermes-file-tree') as HermesFileTree;
    await waitFor(() => expect(tree2.shadowRoot!.querySelector('[data-path="notes.md"]')).to.exist);
    expect(tree2.shadowRoot!.querySelector('[data-path="notes.md"] [data-role="git-badge"]')).to.not.exist;
    expect(tree2.shadowRoot!.querySelector('[data-path="src"] [data-role="git-dot"]')).to.exist;
  });

  it('offers no Git view outside a repository, and reads the status again when a turn ends', async () => {
    let answer = { git: { is_git: false } as object };
    fetch = stubFetch({ 'GET /api/list': list, 'GET /api/git/status': () => answer });
    const { el, chat } = await mountWith<HermesWorkspacePanel>('hermes-workspace-panel', { session: session('s2', '/w'), settings: { ...SETTINGS } });
    await waitFor(() => expect(fetch.calls.filter((c) => c.url.startsWith('/api/git/status'))).to.have.length(1));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[role="tab"]')).to.not.exist;
    answer = { git: status([file('notes.md', { status: '??', untracked: true, unstaged: false })]) };
    // What a turn's start and end do to the chat store.
    const notify = () => (chat as unknown as { changed(): void }).changed();
    chat.status = 'running';
    notify();
    await el.updateComplete;
    chat.status = 'idle';
    notify();
    await waitFor(() => expect(el.shadowRoot!.querySelector('[role="tab"][data-view="git"]')).to.exist);
    expect(fetch.calls.filter((c) => c.url.startsWith('/api/git/status'))).to.have.length(2);
  });
});
