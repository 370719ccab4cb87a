import { expect, cleanup, fixture, stubFetch, waitFor } from '../helpers.js';
import { BRANCHES, file, status } from '../git/fixtures.js';
import '../../../components/git/hermes-git-panel.js';
import '../../../components/workspace/hermes-file-preview.js';
import type { HermesGitPanel } from '../../../components/git/hermes-git-panel.js';
import type { HermesFilePreview } from '../../../components/workspace/hermes-file-preview.js';
import { applyLanguage, loadMessages } from '../../../components/i18n/localization.js';

const flat = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('git and workspace in another language', () => {
  // The app loads these screens through loadScreen, which brings their messages ('workspace') with them.
  before(() => Promise.all([loadMessages('workspace')]));
  let restore: () => void = () => {};
  afterEach(async () => {
    restore();
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('the Git panel re-renders its groups, commit button and line counts in German, and back', async () => {
    restore = stubFetch({ 'GET /api/git/branches': { branches: BRANCHES } }).restore;
    const files = [
      file('src/app.ts', { status: 'M', staged: true, unstaged: false, additions: 1234, deletions: 5 }),
      file('b.ts', { staged: true, unstaged: false }),
    ];
    const el = await fixture<HermesGitPanel>('hermes-git-panel', { sessionId: 'lang-1', status: status(files) });
    const $ = (sel: string) => el.shadowRoot!.querySelector(sel);
    expect(flat($('[data-group="staged"] h3 span'))).to.equal('Staged');
    expect(flat($('[data-action="commit"]'))).to.equal('Commit 2 files');
    expect(flat($('[data-path="src/app.ts"] [data-role="git-counts"]'))).to.equal('+1,234 −5');

    await applyLanguage('de');
    await waitFor(() => flat($('[data-group="staged"] h3 span')) === 'Gestagt');
    expect(flat($('[data-action="commit"]'))).to.equal('2 Dateien committen');
    expect(flat($('[data-path="src/app.ts"] [data-role="git-counts"]'))).to.equal('+1.234 −5');
    expect($('[data-action="unstage"]')?.getAttribute('aria-label')).to.equal('src/app.ts unstagen');

    await applyLanguage('en');
    await waitFor(() => flat($('[data-action="commit"]')) === 'Commit 2 files');
  });

  it('the file preview shows its size and buttons in French', async () => {
    const content = 'x'.repeat(1536);
    restore = stubFetch({ 'GET /api/file': { path: 'a.txt', content, size: 1536, lines: 1 } }).restore;
    await applyLanguage('fr');
    const el = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'notes/a.txt' });
    const $ = (sel: string) => el.shadowRoot!.querySelector(sel);
    await waitFor(() => expect($('[data-kind="text"]')).to.exist);
    expect(flat($('.size')).replace(/\s/g, ' ')).to.equal('1,5 ko');
    expect($('[data-action="close-preview"]')?.getAttribute('aria-label')).to.equal('Fermer l’aperçu');
    expect($('[data-action="edit"]')?.getAttribute('title')).to.equal('Modifier');
  });
});
