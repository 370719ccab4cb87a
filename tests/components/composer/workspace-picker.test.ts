import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-workspace-picker.js';
import '../../../components/composer/hermes-composer.js';
import type { HermesWorkspacePicker } from '../../../components/composer/hermes-workspace-picker.js';
import type { HermesWorkspaceMenu } from '../../../components/composer/hermes-workspace-menu.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import { busySwitchText, findWorkspace, rememberWorkspaces } from '../../../components/composer/workspace-switch.js';
import { suggestions } from '../../../components/composer/slash-commands.js';
import { CATALOG, makeStores, openSession, session, setStatus, type Stores } from './setup.js';

const ATLAS = { path: '/home/me/projects/atlas', name: 'Atlas' };
const BETA = { path: '/home/me/projects/beta', name: 'beta' };
const NOTES = { path: '/srv/notes', name: 'Notes' };

/** The element's shadow root and, when its menu (a lazily loaded element inside it) is open, the menu's. */
const roots = (root: Element) => {
  const menu = root.shadowRoot!.querySelector('hermes-workspace-menu');
  return [root.shadowRoot!, menu?.shadowRoot].filter((r): r is ShadowRoot => !!r);
};
const $ = <T extends Element = HTMLElement>(root: Element, sel: string) =>
  (roots(root)
    .map((r) => r.querySelector(sel))
    .find(Boolean) ?? null) as T | null;
const $$ = (root: Element, sel: string) => roots(root).flatMap((r) => [...r.querySelectorAll<HTMLElement>(sel)]);
/** The chip's render, then the menu's. */
async function settle(el: Element & { updateComplete: Promise<unknown> }) {
  await el.updateComplete;
  await el.shadowRoot!.querySelector<HermesWorkspaceMenu>('hermes-workspace-menu')?.updateComplete;
}
const key = (target: Element, k: string, init: KeyboardEventInit = {}) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true, cancelable: true, ...init }));
async function typeInto(el: HermesWorkspacePicker, sel: string, text: string) {
  const input = $<HTMLInputElement>(el, sel)!;
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await settle(el);
}

describe('hermes-workspace-picker', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  let saved: Array<{ path: string; name: string }>;

  beforeEach(() => {
    saved = [ATLAS, BETA, NOTES];
    fetchStub = stubFetch({
      'GET /api/workspaces': () => ({ workspaces: saved, last: ATLAS.path }),
      'GET /api/workspaces/suggest': (c) => {
        const prefix = new URL(c.url, location.href).searchParams.get('prefix') ?? '';
        const all = ['/home/me/code', '/home/me/code/gamma', '/home/me/docs'];
        return { suggestions: all.filter((p) => p.startsWith(prefix.replace(/\/$/, '')) && p !== prefix.replace(/\/$/, '')), prefix };
      },
      'POST /api/workspaces/add': (c) => {
        if (c.body.path === '/nope') return new Response(JSON.stringify({ error: 'Workspace does not exist: /nope' }), { status: 400 });
        saved = [...saved, { path: c.body.path, name: c.body.path.split('/').pop() }];
        return { ok: true, workspaces: saved };
      },
    });
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });

  async function mount(value = ATLAS.path) {
    const el = await fixture<HermesWorkspacePicker>('hermes-workspace-picker', { value });
    const events: Array<[string, unknown]> = [];
    for (const name of ['hermes-workspace-pick', 'hermes-workspace-new-chat', 'hermes-workspace-files'] as const) {
      el.addEventListener(name, (e) => events.push([name, (e as CustomEvent).detail]));
    }
    return { el, events };
  }
  async function open(el: HermesWorkspacePicker) {
    $<HTMLButtonElement>(el, '[data-role="workspace-chip"]')!.click();
    await waitFor(() => $$(el, '[data-role="workspace-option"]').length === 3);
  }

  // First in the file: nothing here has opened the menu yet, so its chunk is not loaded.
  it('paints the chip without the menu’s code; focusing the chip fetches it before the first open', async () => {
    const { el } = await mount();
    // Booleans: chai would try to print a DOM node or a class.
    expect(!!customElements.get('hermes-workspace-menu')).to.equal(false);
    $<HTMLButtonElement>(el, '[data-role="workspace-chip"]')!.focus();
    await waitFor(() => customElements.get('hermes-workspace-menu') !== undefined);
    expect(!!$(el, 'hermes-workspace-menu')).to.equal(false);
  });

  it('lists the saved workspaces with name and path, marks the current one, and starts on it', async () => {
    const { el } = await mount(BETA.path);
    expect($(el, '[data-role="workspace-chip"]')!.textContent!.trim()).to.equal('beta');
    await open(el);
    const rows = $$(el, '[data-role="workspace-option"]');
    expect(rows.map((r) => r.dataset.path)).to.deep.equal([ATLAS.path, BETA.path, NOTES.path]);
    expect(rows[0]!.textContent).to.contain('Atlas').and.contain(ATLAS.path);
    expect(rows.filter((r) => r.getAttribute('aria-current') === 'true').map((r) => r.dataset.path)).to.deep.equal([BETA.path]);
    expect(rows[1]!.hasAttribute('data-active')).to.equal(true);
    const menu = el.shadowRoot!.querySelector('hermes-workspace-menu')!;
    await waitFor(() => menu.shadowRoot!.activeElement?.getAttribute('data-role') === 'workspace-search');
  });

  it('filters by name or path as typed; Enter picks the highlighted one, Escape closes', async () => {
    const { el, events } = await mount();
    await open(el);
    await typeInto(el, '[data-role="workspace-search"]', 'srv');
    expect($$(el, '[data-role="workspace-option"]').map((r) => r.dataset.path)).to.deep.equal([NOTES.path]);
    key($(el, '[data-role="workspace-search"]')!, 'Enter');
    await settle(el);
    expect(events).to.deep.equal([['hermes-workspace-pick', { path: NOTES.path, name: 'Notes' }]]);
    // Booleans: chai would try to print a DOM node.
    expect(!!$(el, '[data-role="workspace-menu"]')).to.equal(false);
    await open(el);
    key($(el, '[data-role="workspace-search"]')!, 'Escape');
    await settle(el);
    expect(!!$(el, '[data-role="workspace-menu"]')).to.equal(false);
    expect(el.shadowRoot!.activeElement?.getAttribute('data-role')).to.equal('workspace-chip');
    // Escape with the focus on the chip of an open menu closes it too.
    await open(el);
    key($(el, '[data-role="workspace-chip"]')!, 'Escape');
    await settle(el);
    expect(el.open).to.equal(false);
  });

  it('picking the current workspace changes nothing; "New chat here" and the files toggle say so', async () => {
    const { el, events } = await mount();
    await open(el);
    $$(el, '[data-role="workspace-option"]')[0]!.click();
    expect(events).to.deep.equal([]);
    await open(el);
    $$(el, '[data-role="workspace-new-chat"]')[1]!.click();
    $<HTMLButtonElement>(el, '[data-role="workspace-files"]')!.click();
    expect(events).to.deep.equal([
      ['hermes-workspace-new-chat', { path: BETA.path, name: 'beta' }],
      ['hermes-workspace-files', null],
    ]);
  });

  it('Add folder… completes paths from /api/workspaces/suggest (Tab takes one), then adds and picks the folder', async () => {
    const { el, events } = await mount();
    await open(el);
    $<HTMLButtonElement>(el, '[data-role="workspace-add"]')!.click();
    await settle(el);
    await typeInto(el, '[data-role="workspace-add-input"]', '/home/me/co');
    await waitFor(() => $$(el, '[data-role="workspace-suggestion"]').length === 2);
    const asked = fetchStub.calls.filter((c) => c.url.includes('/api/workspaces/suggest')).map((c) => new URL(c.url, location.href).searchParams.get('prefix'));
    expect(asked.at(-1)).to.equal('/home/me/co');
    key($(el, '[data-role="workspace-add-input"]')!, 'Tab');
    await settle(el);
    expect($<HTMLInputElement>(el, '[data-role="workspace-add-input"]')!.value).to.equal('/home/me/code/');
    await waitFor(
      () =>
        $$(el, '[data-role="workspace-suggestion"]')
          .map((s) => s.dataset.path)
          .join() === '/home/me/code/gamma',
    );
    key($(el, '[data-role="workspace-add-input"]')!, 'ArrowDown');
    key($(el, '[data-role="workspace-add-input"]')!, 'Enter');
    await waitFor(() => events.length === 1);
    expect(fetchStub.calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ path: '/home/me/code/gamma' });
    expect(events).to.deep.equal([['hermes-workspace-pick', { path: '/home/me/code/gamma', name: 'gamma' }]]);
  });

  it('a refused folder keeps the form open with the server’s reason', async () => {
    const { el, events } = await mount();
    await open(el);
    $<HTMLButtonElement>(el, '[data-role="workspace-add"]')!.click();
    await settle(el);
    await typeInto(el, '[data-role="workspace-add-input"]', '/nope');
    $<HTMLButtonElement>(el, '[data-role="workspace-add-confirm"]')!.click();
    await waitFor(() => !!$(el, '[data-role="workspace-add-error"]'));
    expect($(el, '[data-role="workspace-add-error"]')!.textContent).to.contain('Workspace does not exist');
    expect(events).to.deep.equal([]);
  });
});

describe('workspace switching from the composer', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;

  beforeEach(() => {
    localStorage.clear();
    fetchStub = stubFetch({
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [ATLAS, BETA, NOTES], last: ATLAS.path },
      'POST /api/session/update': (c) => ({ session: session(c.body.session_id, { workspace: c.body.workspace }) }),
    });
    s = makeStores();
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });

  const mount = async (sid: string | null) => {
    if (sid) openSession(s.chat, session(sid));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    return { el, picker: $<HermesWorkspacePicker>(el, 'hermes-workspace-picker')! };
  };
  const pick = (picker: HermesWorkspacePicker, w: { path: string; name: string }) =>
    picker.dispatchEvent(new CustomEvent('hermes-workspace-pick', { detail: w, bubbles: true, composed: true }));

  it('moves the open session (POST /api/session/update) and the chip follows', async () => {
    const { el, picker } = await mount('s1');
    pick(picker, BETA);
    await waitFor(() => s.chat.session?.workspace === BETA.path);
    expect(fetchStub.calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ session_id: 's1', workspace: BETA.path });
    await el.updateComplete;
    expect(picker.value).to.equal(BETA.path);
    expect(s.toasts.at(-1)).to.deep.equal({ message: 'Switched to beta', kind: 'info' });
  });

  it('refuses while a turn runs, with the incumbent’s words', async () => {
    const { picker } = await mount('s1');
    setStatus(s.chat, 'running');
    pick(picker, BETA);
    await waitFor(() => s.toasts.length > 0);
    expect(s.toasts).to.deep.equal([{ message: busySwitchText(), kind: 'info' }]);
    expect(fetchStub.calls.some((c) => c.method === 'POST')).to.equal(false);
    expect(s.chat.session?.workspace).to.equal(ATLAS.path);
  });

  it('in the empty view the choice is the new session’s workspace', async () => {
    const { el, picker } = await mount(null);
    pick(picker, NOTES);
    await el.updateComplete;
    expect(picker.value).to.equal(NOTES.path);
    let options: any;
    s.chat.startNew = async (_text, o) => ((options = o), 'n1');
    const ta = $<HTMLTextAreaElement>(el, '[data-role="composer-input"]')!;
    ta.value = 'hello';
    ta.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    await el.send();
    expect(options.workspace).to.equal(NOTES.path);
    expect(fetchStub.calls.some((c) => c.method === 'POST')).to.equal(false);
  });

  it('"New chat here" opens the empty view with that workspace chosen', async () => {
    const { el, picker } = await mount('s1');
    const opened: unknown[] = [];
    el.addEventListener('hermes-open-session', (e) => opened.push(e.detail));
    picker.dispatchEvent(new CustomEvent('hermes-workspace-new-chat', { detail: BETA, bubbles: true, composed: true }));
    expect(opened).to.deep.equal([{ sessionId: null }]);
    openSession(s.chat, null);
    await el.updateComplete;
    expect(picker.value).to.equal(BETA.path);
  });

  it('/workspace lists without an argument and switches with one; the menu completes names', async () => {
    const { el } = await mount('s1');
    await waitFor(() => suggestions('/workspace ', []).length === 3);
    expect(suggestions('/workspace no', []).map((i) => i.complete)).to.deep.equal(['/workspace Notes']);
    const ta = $<HTMLTextAreaElement>(el, '[data-role="composer-input"]')!;
    ta.value = '/workspace';
    ta.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await el.send();
    await waitFor(() => s.toasts.length === 1);
    expect(s.toasts[0]!.message).to.equal(`Workspaces: ✓ Atlas (${ATLAS.path}) · beta (${BETA.path}) · Notes (${NOTES.path})`);
    ta.value = '/workspace notes';
    ta.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await el.send();
    await waitFor(() => s.chat.session?.workspace === NOTES.path);
    expect(s.toasts.at(-1)!.message).to.equal('Switched to Notes');
  });

  it('findWorkspace prefers an exact name, then an exact path, then a part of either', () => {
    const list = [
      { path: '/a/notes-old', name: 'old notes' },
      { path: '/b/x', name: 'notes' },
      { path: '/c/y', name: 'Y' },
    ];
    rememberWorkspaces(list);
    expect(findWorkspace(list, 'Notes')?.path).to.equal('/b/x');
    expect(findWorkspace(list, '/c/y/')?.name).to.equal('Y');
    expect(findWorkspace(list, 'old')?.path).to.equal('/a/notes-old');
    expect(findWorkspace(list, 'zzz')).to.equal(undefined);
  });
});
