import { expect, cleanup, stubFetch, waitFor } from '../helpers.js';
import { SETTINGS, mountWith, session } from './providers.js';
import { emit } from '../../../components/events.js';
import '../../../components/workspace/hermes-workspace-panel.js';
import type { HermesWorkspacePanel } from '../../../components/workspace/hermes-workspace-panel.js';

describe('hermes-workspace-panel', () => {
  let fetch: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    fetch = stubFetch({
      'GET /api/list': { entries: [], path: '.', workspace: '/home/me/work' },
      'GET /api/file': { path: 'src/a.ts', content: 'x', size: 1, lines: 1 },
    });
  });
  afterEach(() => {
    fetch.restore();
    cleanup();
  });

  it('says what to do when no conversation is open', async () => {
    const { el } = await mountWith<HermesWorkspacePanel>('hermes-workspace-panel');
    expect(el.shadowRoot!.querySelector('[data-role="no-session"]')).to.exist;
    expect(el.shadowRoot!.querySelector('hermes-file-tree')).to.not.exist;
  });

  it('says files are not available on a deployment without a file system, and asks for none', async () => {
    const { el } = await mountWith<HermesWorkspacePanel>('hermes-workspace-panel', {
      session: session('s1', '/workspace'),
      settings: { ...SETTINGS, features: { files: false, uploads: false, terminal: false } },
    });
    expect(el.shadowRoot!.querySelector('[data-role="files-unavailable"]')?.textContent).to.contain('Files are not available on this deployment');
    expect(el.shadowRoot!.querySelector('hermes-file-tree')).to.not.exist;
    expect(el.shadowRoot!.querySelector('[data-action="new-file"]')).to.not.exist;
    expect(fetch.calls.filter((c) => c.url.startsWith('/api/list'))).to.have.length(0);
  });

  it('names the workspace by its folder and closes with a `close` event', async () => {
    const { el } = await mountWith<HermesWorkspacePanel>('hermes-workspace-panel', { session: session('s1', '/home/me/work') });
    const name = el.shadowRoot!.querySelector<HTMLElement>('[data-role="workspace-name"]')!;
    expect(name.textContent).to.equal('work');
    expect(name.title).to.equal('/home/me/work');
    let closed = false;
    el.addEventListener('hermes-panel-close', () => (closed = true));
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="close"]')!.click();
    expect(closed).to.equal(true);
  });

  it('opens a file announced with hermes-open-file, relative or absolute', async () => {
    const { el } = await mountWith<HermesWorkspacePanel>('hermes-workspace-panel', { session: session('s1', '/home/me/work') });
    emit(document.body, 'hermes-open-file', { path: '/home/me/work/src/a.ts' });
    await waitFor(() => expect(el.shadowRoot!.querySelector('hermes-file-preview')?.path).to.equal('src/a.ts'));
    emit(document.body, 'hermes-open-file', { path: 'README.md' });
    await waitFor(() => expect(el.shadowRoot!.querySelector('hermes-file-preview')?.path).to.equal('README.md'));
  });

  it('reloads the tree when the workspace changed behind it (an undone turn), for its own session only', async () => {
    const { el } = await mountWith<HermesWorkspacePanel>('hermes-workspace-panel', { session: session('s1', '/home/me/work') });
    const lists = () => fetch.calls.filter((c) => c.url.startsWith('/api/list')).length;
    await waitFor(() => lists() === 1);
    emit(window, 'hermes-workspace-changed', { sessionId: 'another' });
    emit(window, 'hermes-workspace-changed', { sessionId: 's1' });
    await waitFor(() => lists() === 2);
    await el.updateComplete;
    expect(lists()).to.equal(2);
  });
});
