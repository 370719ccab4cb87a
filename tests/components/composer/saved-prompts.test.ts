import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-composer.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import { CATALOG, makeStores, openSession, session, type Stores } from './setup.js';
import { offlineCache } from '../../../components/offline/cache.js';
import { DRAFT_DEBOUNCE_MS } from '../../../components/composer/server-draft.js';

const $ = <T extends Element = HTMLElement>(root: Element, sel: string) => root.shadowRoot!.querySelector(sel) as T | null;
const input = (el: HermesComposer) => $<HTMLTextAreaElement>(el, '[data-role="composer-input"]')!;
const menu = (el: HermesComposer) => $(el, 'hermes-saved-prompts');
const inMenu = <T extends Element = HTMLElement>(el: HermesComposer, sel: string) => menu(el)?.shadowRoot?.querySelector(sel) as T | null;
const rows = (el: HermesComposer) => [...(menu(el)?.shadowRoot?.querySelectorAll('[data-role="saved-prompt"]') ?? [])] as HTMLElement[];

async function type(el: HermesComposer, text: string) {
  const ta = input(el);
  ta.value = text;
  ta.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

const clearDrafts = async () => {
  for (const id of [null, 'p1', 'p2', 'p3']) offlineCache.saveDraft(id, '');
  await offlineCache.flush();
};

describe('hermes-composer: saved prompts', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;
  let stored: Array<{ id: string; label: string; text: string; created_at: number }>;

  beforeEach(async () => {
    localStorage.clear();
    await clearDrafts();
    stored = [
      { id: 'aaaaaaaaaaaa', label: 'Review', text: 'Review this diff for bugs.', created_at: 1 },
      { id: 'bbbbbbbbbbbb', label: 'Summary', text: 'Summarise in three bullets.', created_at: 2 },
    ];
    fetchStub = stubFetch({
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [], last: null },
      'GET /api/prompts': () => ({ prompts: stored }),
      'POST /api/prompts': (c) => {
        const prompt = { id: 'cccccccccccc', label: c.body.label ?? c.body.text.slice(0, 60), text: c.body.text, created_at: 3 };
        stored = [...stored, prompt];
        return { ok: true, prompt };
      },
      'DELETE /api/prompts': (c) => {
        stored = stored.filter((p) => p.id !== c.body.id);
        return { ok: true };
      },
      'POST /api/session/draft': (c) => ({ ok: true, draft: { text: c.body.text } }),
    });
    s = makeStores();
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });

  const mount = async (sid = 'p1', fields = {}) => {
    openSession(s.chat, session(sid, fields));
    return fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
  };

  it('the button opens the menu with the profile’s prompts; a click inserts one into the input', async () => {
    const el = await mount();
    expect(menu(el)).to.equal(null);
    $<HTMLButtonElement>(el, '[data-role="prompts-button"]')!.click();
    await waitFor(() => rows(el).length === 2);
    expect(rows(el).map((r) => r.textContent?.replace(/\s+/g, ' ').trim())).to.deep.equal([
      'Review Review this diff for bugs.',
      'Summary Summarise in three bullets.',
    ]);

    rows(el)[1]!.querySelector<HTMLButtonElement>('[data-role="prompt-insert"]')!.click();
    await el.updateComplete;
    expect(input(el).value).to.equal('Summarise in three bullets.');
    expect(menu(el)).to.equal(null);
  });

  it('search narrows the list; "Save current text" saves the composer text with its label; delete removes a row', async () => {
    const el = await mount();
    await type(el, 'Explain this error like I am new here.');
    $<HTMLButtonElement>(el, '[data-role="prompts-button"]')!.click();
    await waitFor(() => rows(el).length === 2);

    const search = inMenu<HTMLInputElement>(el, '[data-role="prompt-search"]')!;
    search.value = 'bullets';
    search.dispatchEvent(new Event('input'));
    await waitFor(() => rows(el).length === 1);
    search.value = '';
    search.dispatchEvent(new Event('input'));
    await waitFor(() => rows(el).length === 2);

    const label = inMenu<HTMLInputElement>(el, '[data-role="prompt-label"]')!;
    label.value = 'Explain';
    label.dispatchEvent(new Event('input'));
    await menu(el)!.updateComplete;
    inMenu<HTMLButtonElement>(el, '[data-role="prompt-save"]')!.click();
    await waitFor(() => rows(el).length === 3);
    const post = fetchStub.calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/prompts'));
    expect(post?.body).to.deep.equal({ text: 'Explain this error like I am new here.', label: 'Explain' });
    expect(rows(el)[2]!.dataset.id).to.equal('cccccccccccc');

    rows(el)[0]!.querySelector<HTMLButtonElement>('[data-role="prompt-delete"]')!.click();
    await waitFor(() => rows(el).length === 2);
    expect(fetchStub.calls.find((c) => c.method === 'DELETE')?.body).to.deep.equal({ id: 'aaaaaaaaaaaa' });
    expect(rows(el).map((r) => r.dataset.id)).to.deep.equal(['bbbbbbbbbbbb', 'cccccccccccc']);
  });

  it('"Save current text" is off while the composer is empty; a server error shows in the menu', async () => {
    const el = await mount();
    $<HTMLButtonElement>(el, '[data-role="prompts-button"]')!.click();
    await waitFor(() => rows(el).length === 2);
    expect(inMenu<HTMLButtonElement>(el, '[data-role="prompt-save"]')!.disabled).to.equal(true);
    fetchStub.restore();
    fetchStub = stubFetch({ 'POST /api/prompts': () => new Response(JSON.stringify({ error: 'saved prompts limit reached (max 200)' }), { status: 400 }) });
    await type(el, 'one more');
    inMenu<HTMLButtonElement>(el, '[data-role="prompt-save"]')!.click();
    await waitFor(() => inMenu(el, '[data-role="prompts-error"]')?.textContent?.includes('limit reached') === true);
  });

  it('/prompts opens the same menu', async () => {
    const el = await mount();
    await type(el, '/prompts');
    await el.send();
    await waitFor(() => rows(el).length === 2);
    expect(input(el).value).to.equal('');
  });
});

describe('hermes-composer: the draft on the server', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;

  beforeEach(async () => {
    localStorage.clear();
    await clearDrafts();
    fetchStub = stubFetch({
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [], last: null },
      'POST /api/session/draft': (c) => ({ ok: true, draft: { text: c.body.text } }),
    });
    s = makeStores();
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
  });

  const drafts = () => fetchStub.calls.filter((c) => c.url.endsWith('/api/session/draft')).map((c) => c.body);

  it('typing is sent once it pauses (debounced), as {session_id, text}', async () => {
    openSession(s.chat, session('p2'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await type(el, 'h');
    await type(el, 'he');
    await type(el, 'hello');
    expect(drafts()).to.deep.equal([]);
    await new Promise((r) => setTimeout(r, DRAFT_DEBOUNCE_MS + 100));
    await waitFor(() => drafts().length === 1);
    expect(drafts()).to.deep.equal([{ session_id: 'p2', text: 'hello' }]);
  });

  it('a session opened with no draft in this browser takes the one typed on another device', async () => {
    openSession(s.chat, session('p3', { composer_draft: { text: 'from my phone', files: [] } }));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await waitFor(() => input(el).value === 'from my phone');
    // It is kept here too, and not sent back (the server has it).
    expect(await offlineCache.draft('p3')).to.equal('from my phone');
    await new Promise((r) => setTimeout(r, DRAFT_DEBOUNCE_MS + 100));
    expect(drafts()).to.deep.equal([]);
  });

  it("this browser's own draft wins over the server's", async () => {
    offlineCache.saveDraft('p3', 'typed here');
    openSession(s.chat, session('p3', { composer_draft: { text: 'older, elsewhere' } }));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await el.updateComplete;
    expect(input(el).value).to.equal('typed here');
  });
});
