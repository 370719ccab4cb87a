import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-model-picker.js';
import '../../../components/composer/hermes-composer.js';
import type { HermesModelPicker, ModelCatalogView } from '../../../components/composer/hermes-model-picker.js';
import type { HermesModelMenu } from '../../../components/composer/hermes-model-menu.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import { makeStores, openSession, session } from './setup.js';

const CATALOG: ModelCatalogView = {
  active_provider: 'openrouter',
  default_model: 'anthropic/claude-sonnet-4.6',
  models: [
    { id: 'anthropic/claude-sonnet-4.6', label: 'Claude Sonnet 4.6', provider: 'openrouter' },
    { id: 'openai/gpt-5', label: 'GPT-5', provider: 'openrouter' },
    { id: 'custom:lab:qwen3-8b', label: 'qwen3-8b', provider: 'custom:lab' },
  ],
  groups: [
    {
      provider: 'openrouter',
      label: 'OpenRouter',
      source: 'live',
      models: [
        { id: 'anthropic/claude-sonnet-4.6', label: 'Claude Sonnet 4.6', context_length: 1_000_000 },
        { id: 'openai/gpt-5', label: 'GPT-5', context_length: 400_000 },
      ],
    },
    { provider: 'custom:lab', label: 'lab', source: 'live', models: [{ id: 'custom:lab:qwen3-8b', label: 'qwen3-8b', context_length: 32768 }] },
    { provider: 'ollama', label: 'Ollama', source: 'cache', models: [], error: 'Nothing is listening at http://127.0.0.1:11434/v1' },
  ],
  stale: false,
  fetched_at: 1,
};

/** The open menu, a lazily loaded element inside the chip's shadow root. */
const menuOf = (el: HermesModelPicker) => el.shadowRoot!.querySelector<HermesModelMenu>('hermes-model-menu');
const roots = (el: HermesModelPicker) => [el.shadowRoot!, menuOf(el)?.shadowRoot].filter((r): r is ShadowRoot => !!r);
const $ = <T extends Element = HTMLElement>(el: HermesModelPicker, sel: string) =>
  (roots(el)
    .map((r) => r.querySelector(sel))
    .find(Boolean) ?? null) as T | null;
const $$ = (el: HermesModelPicker, sel: string) => roots(el).flatMap((r) => [...r.querySelectorAll<HTMLElement>(sel)]);
const options = (el: HermesModelPicker) => $$(el, '[role="option"]').map((o) => o.dataset.model ?? `typed:${o.dataset.typed}`);
/** The chip's render, then the menu's. */
async function settle(el: HermesModelPicker) {
  await el.updateComplete;
  await menuOf(el)?.updateComplete;
}

async function mount(catalog: ModelCatalogView | null = CATALOG, value: string | null = null) {
  const el = await fixture<HermesModelPicker>('hermes-model-picker', { catalog, value });
  const picked: string[] = [];
  let refreshes = 0;
  el.addEventListener('hermes-model-change', (e) => picked.push(e.detail.model));
  el.addEventListener('hermes-models-refresh', () => refreshes++);
  return { el, picked, refreshes: () => refreshes };
}

/** Opens the menu: its chunk loads on the first open, then the focus is in the search box. */
async function open(el: HermesModelPicker) {
  $<HTMLButtonElement>(el, '[data-role="model-picker"]')!.click();
  await el.updateComplete;
  await waitFor(() => expect(menuOf(el)?.shadowRoot?.activeElement?.getAttribute('data-role')).to.equal('model-search'));
}

async function search(el: HermesModelPicker, text: string) {
  const input = $<HTMLInputElement>(el, '[data-role="model-search"]')!;
  input.value = text;
  input.dispatchEvent(new Event('input'));
  await settle(el);
}

async function key(el: HermesModelPicker, k: string, on = $<HTMLElement>(el, '[data-role="model-search"]')!) {
  on.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true, cancelable: true }));
  await settle(el);
}

describe('hermes-model-picker', () => {
  afterEach(cleanup);

  // First in the file: nothing here has opened a menu yet, so its chunk is not loaded.
  it('paints the chip without the menu’s code; a hover fetches it before the first click', async () => {
    const { el } = await mount();
    // Booleans: chai would try to print a DOM node or a class.
    expect(!!customElements.get('hermes-model-menu')).to.equal(false);
    $<HTMLButtonElement>(el, '[data-role="model-picker"]')!.dispatchEvent(new PointerEvent('pointerenter'));
    await waitFor(() => customElements.get('hermes-model-menu') !== undefined);
    expect(el.open).to.equal(false);
    expect(!!menuOf(el)).to.equal(false);
  });

  it('shows the default model on the chip when the session has none', async () => {
    const { el } = await mount();
    expect($(el, '[data-role="model-picker"]')!.textContent).to.contain('anthropic/claude-sonnet-4.6');
  });

  it('groups the models under their provider’s label, marks the default and the active provider', async () => {
    const { el } = await mount();
    await open(el);
    const groups = $$(el, '[role="group"]').map((g) => ({
      label: g.getAttribute('aria-label'),
      models: [...g.querySelectorAll<HTMLElement>('[role="option"]')].map((o) => o.dataset.model),
    }));
    expect(groups).to.deep.equal([
      { label: 'OpenRouter', models: ['anthropic/claude-sonnet-4.6', 'openai/gpt-5'] },
      { label: 'lab', models: ['custom:lab:qwen3-8b'] },
      { label: 'Ollama', models: [] },
    ]);
    expect($(el, '[data-provider="openrouter"] [data-role="model-group"]')!.textContent).to.contain('active');
    expect($(el, '[data-model="anthropic/claude-sonnet-4.6"]')!.textContent).to.contain('default');
    expect($(el, '[data-model="anthropic/claude-sonnet-4.6"]')!.textContent).to.contain('1M');
    expect($(el, '[data-model="custom:lab:qwen3-8b"]')!.textContent).to.contain('32k');
    expect($(el, '[data-role="model-group-error"]')!.textContent).to.contain('Nothing is listening');
    expect($(el, '[data-model="anthropic/claude-sonnet-4.6"]')!.getAttribute('aria-current')).to.equal('true');
  });

  it('the search filters by id, label or provider; every word must match', async () => {
    const { el } = await mount();
    await open(el);
    await search(el, 'gpt');
    expect(options(el)).to.deep.equal(['openai/gpt-5', 'typed:gpt']);
    await search(el, 'lab qwen');
    expect(options(el)).to.deep.equal(['custom:lab:qwen3-8b', 'typed:lab qwen']);
    await search(el, 'openrouter');
    expect(options(el).slice(0, 2)).to.deep.equal(['anthropic/claude-sonnet-4.6', 'openai/gpt-5']);
    // The group of an error with no match is left out while searching.
    expect($(el, '[data-role="model-group-error"]')).to.equal(null);
  });

  it('Enter picks the first match; arrows move through the matches', async () => {
    const { el, picked } = await mount();
    await open(el);
    await search(el, 'o');
    await key(el, 'ArrowDown');
    expect($(el, '[data-active]')!.dataset.model).to.equal('openai/gpt-5');
    expect($(el, '[data-role="model-search"]')!.getAttribute('aria-activedescendant')).to.equal($(el, '[data-active]')!.id);
    await key(el, 'Enter');
    expect(picked).to.deep.equal(['openai/gpt-5']);
    expect(el.open).to.equal(false);
  });

  it('accepts a model id that is not listed: typed, then Enter', async () => {
    const { el, picked } = await mount();
    await open(el);
    await search(el, 'mistralai/devstral-2');
    expect(options(el)).to.deep.equal(['typed:mistralai/devstral-2']);
    await key(el, 'Enter');
    expect(picked).to.deep.equal(['mistralai/devstral-2']);
  });

  it('a click on a model picks it; Escape closes without picking', async () => {
    const { el, picked } = await mount();
    await open(el);
    await key(el, 'Escape');
    expect(el.open).to.equal(false);
    expect(el.shadowRoot!.activeElement?.getAttribute('data-role')).to.equal('model-picker');
    // With the focus back on the chip of an open menu, the arrows and Escape still work.
    await open(el);
    const chip = $<HTMLButtonElement>(el, '[data-role="model-picker"]')!;
    chip.focus();
    const before = $(el, '[data-active]')!.dataset.model;
    await key(el, 'ArrowDown', chip);
    expect($(el, '[data-active]')!.dataset.model).to.not.equal(before);
    await key(el, 'Escape', chip);
    expect(el.open).to.equal(false);
    await open(el);
    $<HTMLElement>(el, '[data-model="custom:lab:qwen3-8b"]')!.click();
    expect(picked).to.deep.equal(['custom:lab:qwen3-8b']);
  });

  it('keeps showing a current model that no provider lists', async () => {
    const { el } = await mount(CATALOG, 'custom:old:gone-model');
    expect($(el, '[data-role="model-picker"]')!.textContent).to.contain('gone-model');
    await open(el);
    expect(options(el)[0]).to.equal('custom:old:gone-model');
  });

  it('reads an older server’s flat list (no groups)', async () => {
    const { el } = await mount({ default_model: 'm', models: [{ id: 'm', label: 'M', provider: 'custom' }] });
    await open(el);
    expect(options(el)).to.deep.equal(['m']);
  });

  it('a stale list says so quietly and offers a refresh; the refresh button asks too', async () => {
    const { el, refreshes } = await mount({ ...CATALOG, stale: true });
    await open(el);
    expect($(el, '[data-role="models-stale"]')!.textContent).to.contain('out of date');
    $<HTMLButtonElement>(el, '[data-role="models-stale"] button')!.click();
    $<HTMLButtonElement>(el, '[data-role="model-refresh"]')!.click();
    expect(refreshes()).to.equal(2);
    el.refreshing = true;
    await settle(el);
    expect($<HTMLButtonElement>(el, '[data-role="model-refresh"]')!.disabled).to.equal(true);
  });

  it('formats context windows', async () => {
    // The menu's module (a lazy chunk in the app): imported here after the tests that load it lazily.
    const { contextHint } = await import('../../../components/composer/hermes-model-menu.js');
    expect([
      contextHint(undefined),
      contextHint(8192),
      contextHint(131072),
      contextHint(200_000),
      contextHint(1_000_000),
      contextHint(2_097_152),
    ]).to.deep.equal(['', '8k', '128k', '200k', '1M', '2.1M']);
  });
});

describe('hermes-composer with the model picker', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => {
    cleanup();
    fetch.restore();
  });

  it('refreshes the catalog through POST /api/models/refresh and sets a typed model on the session', async () => {
    fetch = stubFetch({
      'GET /api/models': { ...CATALOG, stale: true },
      'POST /api/models/refresh': {
        ...CATALOG,
        stale: false,
        groups: [...CATALOG.groups!, { provider: 'openai', label: 'OpenAI', source: 'live', models: [{ id: 'gpt-5-mini', label: 'gpt-5-mini' }] }],
      },
      'GET /api/workspaces': { workspaces: [], last: '' },
      'POST /api/session/update': (c) => ({ session: session(c.body.session_id, { model: c.body.model }) }),
    });
    const s = makeStores();
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    const picker = el.shadowRoot!.querySelector<HermesModelPicker>('hermes-model-picker')!;
    await waitFor(() => expect(picker.catalog?.stale).to.equal(true));
    await open(picker);
    $<HTMLButtonElement>(picker, '[data-role="model-refresh"]')!.click();
    await waitFor(() => expect(picker.catalog?.stale).to.equal(false));
    await settle(picker);
    expect(options(picker)).to.include('gpt-5-mini');
    await search(picker, 'my-org/private-model');
    await key(picker, 'Enter');
    await waitFor(() =>
      expect(fetch.calls.find((c) => c.url === '/api/session/update')?.body).to.deep.equal({ session_id: 's1', model: 'my-org/private-model' }),
    );
  });

  it('fetches the list again when providers change elsewhere', async () => {
    let n = 0;
    fetch = stubFetch({ 'GET /api/models': () => (n++, CATALOG), 'GET /api/workspaces': { workspaces: [], last: '' } });
    const s = makeStores();
    await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await waitFor(() => n === 1);
    window.dispatchEvent(new Event('hermes-models-changed'));
    await waitFor(() => n === 2);
  });
});
