import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-composer.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import { CATALOG, makeStores, openSession, session, setStatus, type Stores } from './setup.js';
import { offlineCache } from '../../../components/offline/cache.js';

const clearDrafts = async () => {
  for (const id of [null, 's1', 's2', 'n1', 'old1', 'fresh']) offlineCache.saveDraft(id, '');
  await offlineCache.flush();
};

const $ = <T extends Element = HTMLElement>(el: HermesComposer, sel: string) => el.shadowRoot!.querySelector(sel) as T | null;
const input = (el: HermesComposer) => $<HTMLTextAreaElement>(el, '[data-role="composer-input"]')!;

async function type(el: HermesComposer, text: string) {
  const ta = input(el);
  ta.value = text;
  ta.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

async function press(el: HermesComposer, key: string, mods: KeyboardEventInit = {}) {
  const e = new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true, ...mods });
  input(el).dispatchEvent(e);
  await el.updateComplete;
  await new Promise((r) => setTimeout(r, 0));
  return e;
}

const menuItems = (el: HermesComposer) => [...($(el, 'hermes-slash-menu')?.shadowRoot?.querySelectorAll('[data-role="slash-item"]') ?? [])] as HTMLElement[];

describe('hermes-composer', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;

  beforeEach(async () => {
    localStorage.clear();
    // Drafts are kept in IndexedDB too: each test starts without any (only drafts are cleared:
    // other test files share the database).
    await clearDrafts();
    fetchStub = stubFetch({
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [], last: '/home/me/last-ws' },
      'POST /api/session/update': (c) => ({ session: session(c.body.session_id, { model: c.body.model }) }),
    });
    s = makeStores();
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });

  const mount = async (sid: string | null = 's1') => {
    if (sid) openSession(s.chat, session(sid));
    return fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
  };

  describe('send key', () => {
    it('"enter": Enter sends and clears; Shift+Enter does not send', async () => {
      const el = await mount();
      await type(el, 'hello');
      const shift = await press(el, 'Enter', { shiftKey: true });
      expect(shift.defaultPrevented).to.equal(false);
      expect(s.sent).to.have.length(0);
      const enter = await press(el, 'Enter');
      expect(enter.defaultPrevented).to.equal(true);
      expect(s.sent.map((x) => x.text)).to.deep.equal(['hello']);
      expect(input(el).value).to.equal('');
    });

    it('"ctrl+enter": Enter is a newline, Ctrl+Enter and Cmd+Enter send', async () => {
      s = makeStores({ send_key: 'ctrl+enter' });
      const el = await mount();
      await type(el, 'one');
      expect((await press(el, 'Enter')).defaultPrevented).to.equal(false);
      expect(s.sent).to.have.length(0);
      await press(el, 'Enter', { ctrlKey: true });
      await type(el, 'two');
      await press(el, 'Enter', { metaKey: true });
      expect(s.sent.map((x) => x.text)).to.deep.equal(['one', 'two']);
    });

    it('ignores Enter while an IME composition is open', async () => {
      const el = await mount();
      await type(el, 'かな');
      await press(el, 'Enter', { isComposing: true });
      expect(s.sent).to.have.length(0);
    });

    it('the Send button is disabled until there is text, then sends', async () => {
      const el = await mount();
      expect($<HTMLButtonElement>(el, '[data-role="send"]')!.disabled).to.equal(true);
      await type(el, 'via button');
      $<HTMLButtonElement>(el, '[data-role="send"]')!.click();
      await waitFor(() => s.sent.length === 1);
      expect(s.sent[0]!.text).to.equal('via button');
    });
  });

  it('shows Stop beside the busy Send while a turn runs, and Stop cancels', async () => {
    const el = await mount();
    setStatus(s.chat, 'running');
    await el.updateComplete;
    // `send` is the idle button (tests wait on it for a turn's end); busy, it is `send-busy`.
    expect($(el, '[data-role="send"]')).to.equal(null);
    expect($(el, '[data-role="send-busy"]')).to.exist;
    $<HTMLButtonElement>(el, '[data-role="stop"]')!.click();
    expect(s.cancelled).to.equal(1);
    setStatus(s.chat, 'idle');
    await el.updateComplete;
    expect($(el, '[data-role="stop"]')).to.equal(null);
    expect($(el, '[data-role="send"]')).to.exist;
  });

  describe('slash commands', () => {
    it('opens on "/", filters as you type, and Escape closes it', async () => {
      const el = await mount();
      await type(el, '/');
      // The commands and their menu load with the first `/` (out of the shell).
      await waitFor(() => menuItems(el).length > 10);
      await type(el, '/th');
      expect(menuItems(el).map((i) => i.dataset.value)).to.deep.equal(['/theme']);
      await press(el, 'Escape');
      expect($(el, 'hermes-slash-menu')).to.equal(null);
      await type(el, '/t');
      expect(menuItems(el).map((i) => i.dataset.value)).to.deep.equal([
        '/title',
        '/theme',
        '/terminal',
        '/retry',
        '/stop',
        '/interrupt',
        '/steer',
        '/compact',
        '/status',
        '/personality',
        '/prompts',
      ]);
    });

    it('arrows move the selection, Tab completes, Enter on an argument runs it', async () => {
      const saved: unknown[] = [];
      s.ui.save = async (patch) => void saved.push(patch);
      const el = await mount();
      await type(el, '/th');
      await waitFor(() => menuItems(el).length > 0);
      await press(el, 'ArrowDown');
      await press(el, 'ArrowUp');
      await type(el, '/t');
      await press(el, 'ArrowDown');
      expect(menuItems(el)[1]!.getAttribute('aria-selected')).to.equal('true');
      await press(el, 'Tab');
      expect(input(el).value).to.equal('/theme ');
      expect(
        menuItems(el)
          .map((i) => i.dataset.value)
          .slice(0, 4),
      ).to.deep.equal(['dark', 'light', 'system', 'default']);
      await press(el, 'ArrowDown');
      await press(el, 'Enter');
      await waitFor(() => saved.length === 1);
      expect(saved).to.deep.equal([{ theme: 'light' }]);
      expect(input(el).value).to.equal('');
      expect(s.sent).to.have.length(0);
    });

    it('a /word that names no command goes to the agent as text', async () => {
      const el = await mount();
      await type(el, '/frobnicate now');
      await press(el, 'Enter');
      await waitFor(() => s.sent.length === 1);
      expect(s.sent[0]!.text).to.equal('/frobnicate now');
      expect(s.toasts).to.have.length(0);
      expect(input(el).value).to.equal('');
    });

    it('/stop cancels the running turn', async () => {
      const el = await mount();
      setStatus(s.chat, 'running');
      await type(el, '/stop');
      await press(el, 'Enter');
      await waitFor(() => s.cancelled === 1);
    });

    it("/model <id> sets the open session's model", async () => {
      const el = await mount();
      await type(el, '/model custom:lab:other');
      await press(el, 'Escape');
      await press(el, 'Enter');
      await waitFor(() => fetchStub.calls.some((c) => c.url.endsWith('/api/session/update')));
      const call = fetchStub.calls.find((c) => c.url.endsWith('/api/session/update'))!;
      expect(call.body).to.deep.equal({ session_id: 's1', model: 'custom:lab:other' });
      await waitFor(() => s.chat.session?.model === 'custom:lab:other');
    });
  });

  describe('drafts', () => {
    it('keeps one draft per session and restores it on switching back', async () => {
      const el = await mount('s1');
      await type(el, 'draft for one');
      expect(localStorage.getItem('hermes:draft:s1')).to.equal('draft for one');
      openSession(s.chat, session('s2'));
      await el.updateComplete;
      expect(input(el).value).to.equal('');
      await type(el, 'draft for two');
      openSession(s.chat, null);
      await el.updateComplete;
      expect(input(el).value).to.equal('');
      await type(el, 'new chat draft');
      expect(localStorage.getItem('hermes:draft:new')).to.equal('new chat draft');
      openSession(s.chat, session('s1'));
      await el.updateComplete;
      expect(input(el).value).to.equal('draft for one');
      openSession(s.chat, session('s2'));
      await el.updateComplete;
      expect(input(el).value).to.equal('draft for two');
    });

    it('text typed while a session is still loading is that session’s draft, and stays when it arrives', async () => {
      // The view names the session at once (openedId); its answer comes later.
      s.chat.openedId = 's1';
      const el = await mount(null);
      await type(el, 'typed before it loaded');
      expect(localStorage.getItem('hermes:draft:s1')).to.equal('typed before it loaded');
      expect(localStorage.getItem('hermes:draft:new')).to.equal(null);
      openSession(s.chat, session('s1'));
      await el.updateComplete;
      expect(input(el).value).to.equal('typed before it loaded');
    });

    it('keeps a draft in IndexedDB once written, and restores it from there', async () => {
      const el = await mount('s1');
      await type(el, 'kept for later');
      // The write-ahead copy is synchronous; once IndexedDB has the text it is removed.
      expect(localStorage.getItem('hermes:draft:s1')).to.equal('kept for later');
      await offlineCache.flush();
      await waitFor(() => localStorage.getItem('hermes:draft:s1') === null);
      expect(await offlineCache.draft('s1')).to.equal('kept for later');
      openSession(s.chat, session('s2'));
      await el.updateComplete;
      openSession(s.chat, session('s1'));
      await waitFor(() => input(el).value === 'kept for later');
    });

    it('drops the draft once it is sent', async () => {
      const el = await mount('s1');
      await type(el, 'send me');
      await press(el, 'Enter');
      expect(localStorage.getItem('hermes:draft:s1')).to.equal(null);
    });
  });

  it('sending from the empty view starts the session, opens it and adds its row', async () => {
    const el = await mount(null);
    const opened: unknown[] = [];
    document.addEventListener('hermes-open-session', (e) => opened.push(e.detail), { once: true });
    const started: unknown[] = [];
    s.chat.startNew = async (text, options) => {
      started.push({ text, options });
      openSession(s.chat, session('n1', { title: text }));
      return 'n1';
    };
    await type(el, 'first message');
    await press(el, 'Enter');
    await waitFor(() => opened.length === 1);
    expect(started).to.deep.equal([{ text: 'first message', options: { model: null } }]);
    expect(opened[0]).to.deep.equal({ sessionId: 'n1', replace: false });
    expect(s.sessions.rows.map((r) => r.session_id)).to.deep.equal(['n1']);
    expect(localStorage.getItem('hermes:draft:new')).to.equal(null);
  });

  it('a model picked in the empty view goes to startNew', async () => {
    const el = await mount(null);
    const picker = $(el, 'hermes-model-picker')!;
    await waitFor(() => (picker as any).catalog !== null);
    picker.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="model-picker"]')!.click();
    // The menu is a lazy element inside the chip: wait for its chunk and its rows.
    const row = () => picker.shadowRoot!.querySelector('hermes-model-menu')?.shadowRoot?.querySelector<HTMLElement>('[data-model="custom:lab:qwen3-8b"]');
    await waitFor(() => !!row());
    row()!.click();
    await el.updateComplete;
    expect(picker.shadowRoot!.querySelector('[data-role="model-picker"]')!.textContent).to.contain('qwen3-8b');
    let options: any;
    s.chat.startNew = async (_text, o) => {
      options = o;
      return 'n2';
    };
    await type(el, 'hi');
    await press(el, 'Enter');
    await waitFor(() => options !== undefined);
    expect(options.model).to.equal('custom:lab:qwen3-8b');
  });

  it('the workspace chip shows the basename and the full path as title; the button beside it toggles the panel', async () => {
    const el = await mount();
    const picker = $(el, 'hermes-workspace-picker')!;
    const chip = picker.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="workspace-chip"]')!;
    expect(chip.textContent!.trim()).to.equal('atlas');
    expect(chip.title).to.equal('Workspace: /home/me/projects/atlas');
    const before = s.ui.panelOpen;
    picker.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="workspace-files"]')!.click();
    expect(s.ui.panelOpen).to.equal(!before);
    s.ui.togglePanel(before);
  });

  it('the textarea grows with its content up to a cap', async () => {
    const el = await mount();
    const h0 = input(el).getBoundingClientRect().height;
    await type(el, 'a\nb\nc\nd');
    expect(input(el).getBoundingClientRect().height).to.be.greaterThan(h0 * 2);
    await type(el, Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n'));
    expect(input(el).getBoundingClientRect().height).to.be.at.most(window.innerHeight * 0.4 + 1);
  });

  it('focus() focuses the textarea', async () => {
    const el = await mount();
    el.focus();
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement).to.equal(input(el));
  });
});
