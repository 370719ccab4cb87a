import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/settings/hermes-workspaces-settings.js';
import type { HermesWorkspacesSettings } from '../../../components/settings/hermes-workspaces-settings.js';

const $ = <T extends Element = HTMLElement>(el: Element, sel: string) => el.shadowRoot!.querySelector(sel) as T | null;
const paths = (el: HermesWorkspacesSettings) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="workspace-row"]')].map((r) => r.dataset.path);
const row = (el: HermesWorkspacesSettings, path: string) => el.shadowRoot!.querySelector<HTMLElement>(`[data-role="workspace-row"][data-path="${path}"]`)!;

describe('hermes-workspaces-settings', () => {
  let list: Array<{ path: string; name: string }>;
  let fetchStub: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    list = [
      { path: '/w/home', name: 'Home' },
      { path: '/w/a', name: 'A' },
      { path: '/w/b', name: 'B' },
    ];
    const answer = () => ({ ok: true, workspaces: list });
    fetchStub = stubFetch({
      'GET /api/workspaces': () => ({ workspaces: list, last: '/w/home' }),
      'POST /api/workspaces/rename': (c) => ((list = list.map((w) => (w.path === c.body.path ? { ...w, name: c.body.name } : w))), answer()),
      'POST /api/workspaces/reorder': (c) => ((list = c.body.paths.map((p: string) => list.find((w) => w.path === p)!)), answer()),
      'POST /api/workspaces/remove': (c) => ((list = list.filter((w) => w.path !== c.body.path)), answer()),
    });
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });

  const mount = async () => {
    const el = await fixture<HermesWorkspacesSettings>('hermes-workspaces-settings');
    const saved: number[] = [];
    el.addEventListener('hermes-setting-saved', () => saved.push(1));
    await waitFor(() => paths(el).length === 3);
    return { el, saved };
  };
  const posts = () => fetchStub.calls.filter((c) => c.method === 'POST').map((c) => [new URL(c.url, location.href).pathname, c.body]);

  it('lists the saved workspaces in order; the ends cannot move further', async () => {
    const { el } = await mount();
    expect(paths(el)).to.deep.equal(['/w/home', '/w/a', '/w/b']);
    expect(row(el, '/w/home').querySelector<HTMLButtonElement>('[data-role="workspace-up"]')!.disabled).to.equal(true);
    expect(row(el, '/w/b').querySelector<HTMLButtonElement>('[data-role="workspace-down"]')!.disabled).to.equal(true);
  });

  it('renames on change, and refuses an empty name without asking the server', async () => {
    const { el, saved } = await mount();
    const input = row(el, '/w/a').querySelector<HTMLInputElement>('[data-role="workspace-rename"]')!;
    input.value = '   ';
    input.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(input.value).to.equal('A');
    expect($(el, '.field-error')!.textContent).to.contain('needs a name');
    input.value = 'Project A';
    input.dispatchEvent(new Event('change'));
    await waitFor(() => saved.length === 1);
    expect(posts()).to.deep.equal([['/api/workspaces/rename', { path: '/w/a', name: 'Project A' }]]);
  });

  it('moves a row down with the whole new order, and removes after a confirmation', async () => {
    const { el } = await mount();
    row(el, '/w/home').querySelector<HTMLButtonElement>('[data-role="workspace-down"]')!.click();
    await waitFor(() => paths(el).join() === '/w/a,/w/home,/w/b');
    expect(posts()[0]).to.deep.equal(['/api/workspaces/reorder', { paths: ['/w/a', '/w/home', '/w/b'] }]);
    row(el, '/w/b').querySelector<HTMLButtonElement>('[data-role="workspace-remove"]')!.click();
    await el.updateComplete;
    expect(posts()).to.have.length(1);
    row(el, '/w/b').querySelector<HTMLButtonElement>('[data-role="workspace-remove-confirm"]')!.click();
    await waitFor(() => paths(el).length === 2);
    expect(posts()[1]).to.deep.equal(['/api/workspaces/remove', { path: '/w/b' }]);
  });
});
