import { expect, cleanup, fixture, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import type { Project } from '../../../components/api/client.js';
import type { HermesProjectSettings } from '../../../components/sidebar/hermes-project-settings.js';
import '../../../components/sidebar/hermes-project-settings.js';
import { mountSidebar, row, type Mounted } from './setup.js';

const SAVED = [
  { path: '/w/alpha', name: 'Alpha' },
  { path: '/w/beta', name: 'Beta' },
];
const CATALOG = {
  active_provider: 'openrouter',
  default_model: 'm-default',
  fetched_at: null,
  stale: false,
  groups: [
    { provider: 'openrouter', label: 'OpenRouter', source: 'static', models: [{ id: 'anthropic/claude-sonnet-4', label: 'Claude Sonnet 4' }] },
    { provider: 'anthropic', label: 'Anthropic', source: 'static', models: [{ id: 'claude-opus-4', label: 'Claude Opus 4' }] },
  ],
  models: [],
};
const BOUND: Project = {
  project_id: 'p1',
  name: 'Atlas',
  color: null,
  profile: 'default',
  created_at: 1,
  workspaces: ['/w/alpha'],
  workspace: '/w/alpha',
  model: 'anthropic/claude-sonnet-4',
  model_provider: 'openrouter',
  reasoning_effort: 'high',
};

const binds = (calls: FetchCall[]) => calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/projects/bind'));

describe('hermes-project-settings', () => {
  let restore = () => {};
  afterEach(() => {
    restore();
    cleanup();
  });

  /** Mounts the dialog and waits for the catalog (`models` options) and the saved workspaces (`adds` options) to arrive. */
  async function mount(project: Project, bind: unknown = (c: FetchCall) => ({ ok: true, project: { ...project, ...c.body } }), { models = 3, adds = 2 } = {}) {
    const stub = stubFetch({
      'GET /api/workspaces': { workspaces: SAVED, last: '/w/alpha' },
      'GET /api/models': CATALOG,
      'POST /api/projects/bind': bind,
    });
    restore = stub.restore;
    const done: Array<Project | null> = [];
    const el = await fixture<HermesProjectSettings>('hermes-project-settings', { project, onDone: (p: Project | null) => done.push(p) });
    const $ = <T extends HTMLElement>(sel: string) => el.shadowRoot!.querySelector<T>(sel)!;
    await waitFor(() => $<HTMLSelectElement>('[data-role="project-model"]').querySelectorAll('option').length === models);
    await waitFor(() => $<HTMLSelectElement>('[data-role="project-workspace-add"]').querySelectorAll('option').length === adds);
    return { el, $, calls: stub.calls, done };
  }

  const choose = async (el: HermesProjectSettings, select: HTMLSelectElement, value: string) => {
    select.value = value;
    select.dispatchEvent(new Event('change'));
    await el.updateComplete;
  };
  const selectedText = (select: HTMLSelectElement) => select.selectedOptions[0]?.textContent?.trim();

  it('opens as a modal dialog showing the current bindings', async () => {
    const { $ } = await mount(BOUND);
    const dialog = $<HTMLDialogElement>('[data-role="project-settings"]');
    expect(dialog.open).to.equal(true);
    expect(dialog.matches(':modal')).to.equal(true);
    expect([...dialog.querySelectorAll('[data-role="project-workspace"]')].map((li) => (li as HTMLElement).dataset.path)).to.deep.equal(['/w/alpha']);
    expect(dialog.querySelector('[data-role="project-workspace"]')!.textContent).to.contain('Alpha');
    expect(selectedText($('[data-role="project-model"]'))).to.equal('Claude Sonnet 4');
    expect($<HTMLSelectElement>('[data-role="project-reasoning"]').value).to.equal('high');
    expect($<HTMLInputElement>('[data-role="project-auto-assign"]').checked).to.equal(false);
    // Only saved workspaces not yet bound can be added.
    expect([...$<HTMLSelectElement>('[data-role="project-workspace-add"]').options].map((o) => o.value)).to.deep.equal(['', '/w/beta']);
  });

  it('edits every axis and saves them in one bind request', async () => {
    const { el, $, calls, done } = await mount(BOUND);
    await choose(el, $('[data-role="project-workspace-add"]'), '/w/beta');
    await choose(el, $('[data-role="project-default-workspace"]'), '/w/beta');
    $<HTMLInputElement>('[data-role="project-auto-assign"]').click();
    const model = $<HTMLSelectElement>('[data-role="project-model"]');
    const opus = [...model.options].find((o) => o.dataset.model === 'claude-opus-4')!;
    await choose(el, model, opus.value);
    await choose(el, $('[data-role="project-reasoning"]'), 'max');
    $('[data-role="project-settings-save"]').click();
    await waitFor(() => done.length === 1);
    expect(binds(calls).map((c) => c.body)).to.deep.equal([
      {
        project_id: 'p1',
        workspaces: ['/w/alpha', '/w/beta'],
        default_workspace: '/w/beta',
        auto_assign: true,
        model: 'claude-opus-4',
        model_provider: 'anthropic',
        reasoning_effort: 'max',
      },
    ]);
    expect(done[0]).to.include({ model: 'claude-opus-4', default_workspace: '/w/beta' });
    expect($<HTMLDialogElement>('[data-role="project-settings"]').open).to.equal(false);
  });

  it('clears each axis with null', async () => {
    const { el, $, calls, done } = await mount({ ...BOUND, default_workspace: '/w/alpha', auto_assign: true });
    $('[data-role="project-workspaces-clear"]').click();
    await el.updateComplete;
    expect($('[data-role="project-no-workspaces"]')).to.not.equal(null);
    $<HTMLInputElement>('[data-role="project-auto-assign"]').click();
    await choose(el, $('[data-role="project-model"]'), '');
    await choose(el, $('[data-role="project-reasoning"]'), '');
    $('[data-role="project-settings-save"]').click();
    await waitFor(() => done.length === 1);
    expect(binds(calls)[0]!.body).to.deep.equal({
      project_id: 'p1',
      workspaces: null,
      default_workspace: null,
      auto_assign: false,
      model: null,
      model_provider: null,
      reasoning_effort: null,
    });
  });

  it('removing the default workspace drops the default', async () => {
    const { el, $, calls, done } = await mount({ ...BOUND, workspaces: ['/w/alpha', '/w/beta'], default_workspace: '/w/beta' }, undefined, { adds: 1 });
    await waitFor(() => $('[data-path="/w/beta"]').textContent!.includes('Beta'));
    expect($<HTMLSelectElement>('[data-role="project-default-workspace"]').value).to.equal('/w/beta');
    el.shadowRoot!.querySelector<HTMLElement>('[data-path="/w/beta"] [data-role="project-workspace-remove"]')!.click();
    await el.updateComplete;
    $('[data-role="project-settings-save"]').click();
    await waitFor(() => done.length === 1);
    expect(binds(calls)[0]!.body).to.include({ default_workspace: null });
    expect(binds(calls)[0]!.body.workspaces).to.deep.equal(['/w/alpha']);
  });

  it('shows the server’s refusal in the dialog and stays open', async () => {
    const refuse = () => new Response(JSON.stringify({ error: 'workspaces[0]: Workspace does not exist: /w/alpha' }), { status: 400 });
    const { $, done } = await mount(BOUND, refuse);
    $('[data-role="project-settings-save"]').click();
    await waitFor(() => !!$('[data-role="project-settings-error"]'));
    expect($('[data-role="project-settings-error"]').textContent).to.contain('workspaces[0]: Workspace does not exist');
    expect(done).to.deep.equal([]);
    expect($<HTMLDialogElement>('[data-role="project-settings"]').open).to.equal(true);
  });

  it('Cancel and Escape close without a request', async () => {
    const first = await mount(BOUND);
    first.$('[data-role="project-settings-cancel"]').click();
    expect(first.done).to.deep.equal([null]);
    cleanup();
    restore();
    const second = await mount(BOUND);
    second.$('[data-role="project-settings"]').dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(second.done).to.deep.equal([null]);
    expect(binds([...first.calls, ...second.calls])).to.deep.equal([]);
  });

  it('keeps a bound model the catalog no longer lists', async () => {
    const { $ } = await mount({ ...BOUND, model: 'gone-model', model_provider: 'custom' }, undefined, { models: 4 });
    const model = $<HTMLSelectElement>('[data-role="project-model"]');
    expect(selectedText(model)).to.equal('gone-model');
  });
});

describe('project chips: the menu and new chats in a project', () => {
  let m: Mounted;
  afterEach(() => {
    m?.restore();
    cleanup();
  });
  const PROJECTS: Project[] = [
    { ...BOUND, default_workspace: '/w/beta', workspaces: ['/w/alpha', '/w/beta'] },
    { project_id: 'p2', name: 'Zephyr', color: null, profile: 'default', created_at: 2 },
  ];
  const created = {
    session_id: 'new1',
    title: 'Untitled',
    workspace: '/w/beta',
    model: 'anthropic/claude-sonnet-4',
    project_id: 'p1',
    message_count: 0,
    created_at: 1,
    updated_at: 1,
  };
  const ROUTES = {
    'POST /api/session/new': { session: created },
    'GET /api/workspaces': { workspaces: SAVED, last: '/w/alpha' },
    'GET /api/models': CATALOG,
  };
  const chip = (id: string) => m.$(`[data-role="project-chip"][data-project-id="${id}"]`)!;
  const newSessionBodies = () => m.calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/session/new')).map((c) => c.body);

  it('right-click opens the chip menu; Project settings… opens the dialog, and a save updates the chip’s project', async () => {
    m = await mountSidebar(
      [row('a1')],
      { ...ROUTES, 'POST /api/projects/bind': (c: FetchCall) => ({ ok: true, project: { ...PROJECTS[1], ...c.body } }) },
      PROJECTS,
    );
    chip('p2').dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, composed: true, cancelable: true, clientX: 40, clientY: 60 }));
    const chips = m.sidebar.shadowRoot!.querySelector('hermes-project-chips')!.shadowRoot!;
    await waitFor(() => !!chips.querySelector('hermes-project-menu')?.shadowRoot?.querySelector('[data-role="project-menu"]'));
    const menu = chips.querySelector('hermes-project-menu')!.shadowRoot!;
    expect([...menu.querySelectorAll('[role="menuitem"]')].map((i) => i.textContent!.trim())).to.deep.equal(['Project settings…']);
    menu.querySelector<HTMLElement>('[data-action="project-settings"]')!.click();
    await waitFor(() => !!chips.querySelector('hermes-project-settings')?.shadowRoot?.querySelector('[data-role="project-settings"]'));
    const dialog = chips.querySelector('hermes-project-settings')!.shadowRoot!;
    expect(dialog.querySelector('h2')!.textContent).to.contain('Zephyr');
    expect(chips.querySelector('hermes-project-menu')).to.equal(null);
    await waitFor(() => dialog.querySelectorAll('[data-role="project-model"] option').length === 3);
    dialog.querySelector<HTMLElement>('[data-role="project-settings-save"]')!.click();
    await waitFor(() => !chips.querySelector('hermes-project-settings'));
    expect(m.host.sessions.projects.find((p) => p.project_id === 'p2')).to.include({ auto_assign: false });
  });

  it('the active chip’s options button opens the same menu; Escape closes it and gives focus back to the chip', async () => {
    m = await mountSidebar([row('a1')], ROUTES, PROJECTS);
    chip('p1').click();
    await waitFor(() => !!m.$('[data-role="project-menu-button"]'));
    m.$('[data-role="project-menu-button"]')!.click();
    const chips = m.sidebar.shadowRoot!.querySelector('hermes-project-chips')!.shadowRoot!;
    await waitFor(() => !!chips.querySelector('hermes-project-menu')?.shadowRoot?.querySelector('[data-action="project-settings"]'));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await waitFor(() => !chips.querySelector('hermes-project-menu'));
    await waitFor(() => chips.activeElement === chip('p1'));
  });

  it('the active chip’s + creates a session with the default workspace and model, in the project, and opens it', async () => {
    m = await mountSidebar([row('a1')], ROUTES, PROJECTS);
    expect(m.$('[data-role="project-new-chat"]')).to.equal(null);
    chip('p1').click();
    await waitFor(() => !!m.$('[data-role="project-new-chat"]'));
    const opened: unknown[] = [];
    m.host.addEventListener('hermes-open-session', (e) => opened.push((e as CustomEvent).detail));
    m.$('[data-role="project-new-chat"]')!.click();
    await waitFor(() => opened.length === 1);
    expect(newSessionBodies()).to.deep.equal([{ project_id: 'p1', workspace: '/w/beta', model: 'anthropic/claude-sonnet-4', model_provider: 'openrouter' }]);
    expect(opened[0]).to.deep.equal({ sessionId: 'new1' });
    expect(m.host.sessions.rows.find((r) => r.session_id === 'new1')).to.include({ project_id: 'p1' });
  });

  it('New chat while a project filter is on starts in the project; with no bindings only the project is sent', async () => {
    m = await mountSidebar([row('a1')], ROUTES, PROJECTS);
    chip('p2').click();
    await waitFor(() => chip('p2').getAttribute('aria-pressed') === 'true');
    const opened: unknown[] = [];
    m.host.addEventListener('hermes-open-session', (e) => opened.push((e as CustomEvent).detail));
    m.$('[data-role="new-chat"]')!.click();
    await waitFor(() => opened.length === 1);
    expect(newSessionBodies()).to.deep.equal([{ project_id: 'p2' }]);
  });
});
