import { expect, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import { mountWith } from '../workspace/providers.js';
import '../../../components/settings/hermes-settings-dialog.js';
import type { HermesSettingsDialog } from '../../../components/settings/hermes-settings-dialog.js';
import type { HermesProviderRow } from '../../../components/settings/hermes-provider-row.js';
import type { HermesEndpointForm } from '../../../components/settings/hermes-endpoint-form.js';
import type { ProviderRow } from '../../../components/api/client.js';

const row = (p: Partial<ProviderRow> & Pick<ProviderRow, 'id' | 'label' | 'kind'>): ProviderRow => ({
  key_env: null,
  key_set: false,
  key_masked: null,
  base_url: null,
  active: false,
  status: 'unknown',
  ...p,
});

const PROVIDERS: ProviderRow[] = [
  row({
    id: 'openrouter',
    label: 'OpenRouter',
    kind: 'hosted',
    key_env: 'OPENROUTER_API_KEY',
    key_set: true,
    key_masked: 'sk-or-…f00d',
    base_url: 'https://openrouter.ai/api/v1',
    active: true,
    status: 'ok',
    models_count: 312,
  }),
  row({ id: 'anthropic', label: 'Anthropic', kind: 'hosted', key_env: 'ANTHROPIC_API_KEY', status: 'no_key' }),
  row({
    id: 'openai',
    label: 'OpenAI',
    kind: 'hosted',
    key_env: 'OPENAI_API_KEY',
    key_set: true,
    key_masked: 'sk-…abcd',
    status: 'error',
    error: 'The key was refused (HTTP 401)',
  }),
  row({ id: 'custom:lab', label: 'lab', kind: 'custom', base_url: 'http://10.0.0.5:8000/v1', status: 'ok', models_count: 1 }),
];

const SECRET = 'sk-or-v1-0123456789abcdef0123456789abcdef';

function stub(extra: Record<string, unknown> = {}) {
  let providers = PROVIDERS;
  return stubFetch({
    'GET /api/models': { default_model: 'anthropic/claude-sonnet-4.6', models: [], groups: [], active_provider: 'openrouter', stale: false, fetched_at: 1 },
    'GET /api/providers': () => ({ active_provider: 'openrouter', providers }),
    'POST /api/providers': (c: FetchCall) => {
      const updated = {
        ...providers.find((p) => p.id === c.body.provider)!,
        key_set: true,
        key_masked: `sk-…${c.body.api_key.slice(-4)}`,
        status: 'ok' as const,
      };
      providers = providers.map((p) => (p.id === updated.id ? updated : p));
      return { ok: true, provider: updated.id, action: 'updated', row: updated };
    },
    'POST /api/providers/delete': (c: FetchCall) => {
      providers = providers.filter((p) => p.id !== c.body.provider);
      return { ok: true };
    },
    'POST /api/providers/self-hosted': (c: FetchCall) => {
      const added = row({ id: `custom:${c.body.name}`, label: c.body.name, kind: 'custom', base_url: c.body.base_url, status: 'unknown' });
      providers = [...providers, added];
      return { ok: true, provider: added };
    },
    ...extra,
  });
}

const $ = <T extends Element = HTMLElement>(root: Element | ShadowRoot, sel: string) => root.querySelector(sel) as T | null;
const providerRow = (el: HermesSettingsDialog, id: string) => $(el.shadowRoot!, `[data-setting="provider:${id}"]`)!;
const control = (el: HermesSettingsDialog, id: string) => $<HermesProviderRow>(providerRow(el, id), 'hermes-provider-row')!;

async function mount() {
  const m = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
  await waitFor(() => expect(providerRow(m.el, 'openrouter')).to.exist);
  return m;
}

describe('Settings → Providers', () => {
  let fetch: ReturnType<typeof stub>;
  afterEach(() => {
    fetch.restore();
    cleanup();
  });

  it('lists every provider with its state and masked key, then the endpoint form', async () => {
    fetch = stub();
    const { el } = await mount();
    const ids = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-setting]')]
      .map((r) => r.dataset.setting)
      .filter((id) => id!.startsWith('provider:') || id === 'add_endpoint');
    expect(ids).to.deep.equal(['provider:openrouter', 'provider:anthropic', 'provider:openai', 'provider:custom:lab', 'add_endpoint']);
    expect(el.shadowRoot!.querySelector('[data-setting="add_provider"]')!.textContent).to.contain('Add an API key for Anthropic.');
    const status = (id: string) => $(providerRow(el, id), '[data-role="provider-status"]')!;
    expect(status('openrouter').dataset.status).to.equal('ok');
    expect(status('openrouter').textContent).to.match(/Works · 312 models\s+active/);
    expect(status('anthropic').textContent).to.contain('No key yet');
    expect(status('openai').textContent).to.contain('The key was refused (HTTP 401)');
    expect(providerRow(el, 'openrouter').textContent).to.contain('OPENROUTER_API_KEY');
    expect(providerRow(el, 'custom:lab').textContent).to.contain('http://10.0.0.5:8000/v1');
    await control(el, 'openrouter').updateComplete;
    expect($(control(el, 'openrouter').shadowRoot!, '[data-role="provider-key"]')!.textContent).to.equal('sk-or-…f00d');
    expect($(control(el, 'anthropic').shadowRoot!, '[data-role="provider-key"]')).to.equal(null);
    expect($(control(el, 'anthropic').shadowRoot!, '[data-action="key"]')!.textContent).to.contain('Add key');
    expect($(control(el, 'anthropic').shadowRoot!, '[data-action="remove"]'), 'nothing to remove').to.equal(null);
    expect($(control(el, 'openai').shadowRoot!, '[data-action="key"]')!.textContent).to.contain('Replace key');
    expect($(control(el, 'custom:lab').shadowRoot!, '[data-action="key"]'), 'an endpoint is replaced by adding it again').to.equal(null);
  });

  it('the search finds providers by name, key variable or state', async () => {
    fetch = stub();
    const { el } = await mount();
    const search = $<HTMLInputElement>(el.shadowRoot!, 'input[type="search"]')!;
    const shown = async (text: string) => {
      search.value = text;
      search.dispatchEvent(new Event('input'));
      await el.updateComplete;
      return [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-setting]')].map((r) => r.dataset.setting);
    };
    expect(await shown('anthropic')).to.deep.equal(['provider:anthropic', 'add_provider']);
    expect(await shown('OPENROUTER_API_KEY')).to.deep.equal(['provider:openrouter']);
    expect(await shown('refused')).to.deep.equal(['provider:openai']);
    expect(await shown('self-hosted')).to.deep.equal(['provider:custom:lab', 'add_endpoint']);
    expect(await shown('providers').then((r) => r.length)).to.equal(6);
  });

  it('adds a key: sent once, never shown again — only the masked form the server answers', async () => {
    fetch = stub();
    const { el } = await mount();
    let changed = 0;
    window.addEventListener('hermes-models-changed', () => changed++, { once: true });
    const c = control(el, 'anthropic');
    $<HTMLButtonElement>(c.shadowRoot!, '[data-action="key"]')!.click();
    await c.updateComplete;
    expect(c.open, 'the form takes the row’s width').to.equal(true);
    const input = $<HTMLInputElement>(c.shadowRoot!, 'input[name="api_key"]')!;
    expect(input.type).to.equal('password');
    await waitFor(() => expect(c.shadowRoot!.activeElement).to.equal(input));
    // Empty: refused before asking the server.
    $<HTMLFormElement>(c.shadowRoot!, 'form')!.requestSubmit();
    await c.updateComplete;
    expect($(c.shadowRoot!, '[role="alert"]')!.textContent).to.contain('Paste the Anthropic API key');
    input.value = SECRET;
    $<HTMLFormElement>(c.shadowRoot!, 'form')!.requestSubmit();
    await waitFor(() =>
      expect(fetch.calls.find((x) => x.url === '/api/providers' && x.method === 'POST')?.body).to.deep.equal({ provider: 'anthropic', api_key: SECRET }),
    );
    await waitFor(() => expect($(control(el, 'anthropic').shadowRoot!, '[data-role="provider-key"]')?.textContent).to.equal('sk-…cdef'));
    await waitFor(() => expect(changed).to.equal(1));
    // The list is fetched again; nowhere in the dialog is the key itself.
    await waitFor(() => expect(fetch.calls.filter((x) => x.url === '/api/providers' && x.method === 'GET').length).to.be.at.least(2));
    const everything = (root: Element | ShadowRoot): string =>
      [...root.querySelectorAll('*')]
        .map((n) => `${n.textContent} ${(n as HTMLInputElement).value ?? ''} ${n.shadowRoot ? everything(n.shadowRoot) : ''}`)
        .join(' ');
    expect(everything(el.shadowRoot!)).not.to.contain(SECRET);
    expect($(control(el, 'anthropic').shadowRoot!, '[role="status"]')!.textContent).to.contain('Key saved');
  });

  it('shows the server’s refusal of a key', async () => {
    fetch = stub({ 'POST /api/providers': new Response(JSON.stringify({ error: 'api_key must not contain spaces' }), { status: 400 }) });
    const { el } = await mount();
    const c = control(el, 'openai');
    $<HTMLButtonElement>(c.shadowRoot!, '[data-action="key"]')!.click();
    await c.updateComplete;
    $<HTMLInputElement>(c.shadowRoot!, 'input')!.value = 'sk bad';
    $<HTMLFormElement>(c.shadowRoot!, 'form')!.requestSubmit();
    await waitFor(() => expect($(c.shadowRoot!, '[role="alert"]')!.textContent).to.contain('must not contain spaces'));
  });

  it('removes a provider only after confirming', async () => {
    fetch = stub();
    const { el } = await mount();
    const c = control(el, 'custom:lab');
    $<HTMLButtonElement>(c.shadowRoot!, '[data-action="remove"]')!.click();
    await c.updateComplete;
    expect($(c.shadowRoot!, '.confirm')!.textContent).to.contain('Remove the lab endpoint?');
    // Cancel keeps it.
    $<HTMLButtonElement>(c.shadowRoot!, '[data-action="cancel"]')!.click();
    await c.updateComplete;
    expect(fetch.calls.some((x) => x.url === '/api/providers/delete')).to.equal(false);
    $<HTMLButtonElement>(c.shadowRoot!, '[data-action="remove"]')!.click();
    await c.updateComplete;
    $<HTMLButtonElement>(c.shadowRoot!, '[data-action="confirm-remove"]')!.click();
    await waitFor(() => expect(fetch.calls.find((x) => x.url === '/api/providers/delete')?.body).to.deep.equal({ provider: 'custom:lab' }));
    await waitFor(() => expect($(el.shadowRoot!, '[data-setting="provider:custom:lab"]')).to.equal(null));
  });

  it('warns that removing the active provider leaves new chats without a model', async () => {
    fetch = stub();
    const { el } = await mount();
    const c = control(el, 'openrouter');
    $<HTMLButtonElement>(c.shadowRoot!, '[data-action="remove"]')!.click();
    await c.updateComplete;
    expect($(c.shadowRoot!, '.confirm')!.textContent).to.contain('the OpenRouter key');
    expect($(c.shadowRoot!, '.confirm')!.textContent).to.contain('active provider');
  });

  it('adds a self-hosted endpoint: checks the name, tests it through the probe, then saves', async () => {
    fetch = stub({
      'POST /api/onboarding/probe': (c: FetchCall) =>
        c.body.base_url.includes(':9')
          ? { ok: false, error: 'connect_refused', detail: 'ECONNREFUSED' }
          : {
              ok: true,
              base_url: c.body.base_url,
              models: [
                { id: 'qwen3-8b', label: 'qwen3-8b' },
                { id: 'qwen3-32b', label: 'qwen3-32b' },
              ],
            },
    });
    const { el } = await mount();
    const form = $<HermesEndpointForm>(el.shadowRoot!, 'hermes-endpoint-form')!;
    $<HTMLButtonElement>(form.shadowRoot!, '[data-action="add-endpoint"]')!.click();
    await form.updateComplete;
    const set = (name: string, value: string) => ($<HTMLInputElement>(form.shadowRoot!, `input[name="${name}"]`)!.value = value);
    const labels = [...form.shadowRoot!.querySelectorAll('label')].map((l) => l.htmlFor);
    expect(labels).to.deep.equal(['name', 'base_url', 'api_key', 'models']);
    set('name', 'My Lab');
    set('base_url', 'http://127.0.0.1:9/v1');
    $<HTMLFormElement>(form.shadowRoot!, 'form')!.requestSubmit();
    await form.updateComplete;
    expect($(form.shadowRoot!, '#endpoint-error')!.textContent).to.contain('lowercase');
    expect($(form.shadowRoot!, 'input[name="name"]')!.getAttribute('aria-invalid')).to.equal('true');
    set('name', 'lab2');
    $<HTMLButtonElement>(form.shadowRoot!, '[data-action="test"]')!.click();
    await waitFor(() => expect($(form.shadowRoot!, '[data-role="endpoint-probe"]')?.dataset.ok).to.equal('false'));
    expect($(form.shadowRoot!, '[data-role="endpoint-probe"]')!.textContent).to.contain('Nothing is listening at http://127.0.0.1:9/v1');
    expect($(form.shadowRoot!, '[data-role="endpoint-probe"]')!.getAttribute('role')).to.equal('alert');
    set('base_url', 'http://127.0.0.1:8000/v1');
    set('api_key', 'sk-lab');
    $<HTMLButtonElement>(form.shadowRoot!, '[data-action="test"]')!.click();
    await waitFor(() => expect($(form.shadowRoot!, '[data-role="endpoint-probe"]')?.dataset.ok).to.equal('true'));
    expect($(form.shadowRoot!, '[data-role="endpoint-probe"]')!.textContent).to.contain('Connected — 2 models: qwen3-8b, qwen3-32b');
    expect(fetch.calls.filter((c) => c.url === '/api/onboarding/probe').at(-1)!.body).to.deep.equal({
      provider: 'custom',
      base_url: 'http://127.0.0.1:8000/v1',
      api_key: 'sk-lab',
    });
    set('models', 'extra-a, extra-b');
    $<HTMLFormElement>(form.shadowRoot!, 'form')!.requestSubmit();
    await waitFor(() =>
      expect(fetch.calls.find((c) => c.url === '/api/providers/self-hosted')?.body).to.deep.equal({
        name: 'lab2',
        base_url: 'http://127.0.0.1:8000/v1',
        api_key: 'sk-lab',
        models: ['extra-a', 'extra-b'],
      }),
    );
    await waitFor(() => expect($(el.shadowRoot!, '[data-setting="provider:custom:lab2"]')).to.exist);
    expect(form.open).to.equal(false);
    expect($(form.shadowRoot!, '[role="status"]')!.textContent).to.contain('Added “lab2”');
  });

  it('adds a key for a hosted provider the server does not list yet', async () => {
    fetch = stub({
      'GET /api/providers': { active_provider: 'custom:lab', providers: [PROVIDERS[3]] },
      'POST /api/providers': (c: FetchCall) => ({
        ok: true,
        provider: c.body.provider,
        action: 'updated',
        row: row({ id: c.body.provider, label: 'OpenAI', kind: 'hosted', key_set: true, key_masked: 'sk-…cdef' }),
      }),
    });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    await waitFor(() => expect($(el.shadowRoot!, '[data-setting="add_provider"]')).to.exist);
    expect($(el.shadowRoot!, '[data-setting="add_provider"]')!.textContent).to.contain('OpenRouter, Anthropic, or OpenAI');
    const add = $<HTMLElement & { open: boolean; updateComplete: Promise<boolean> }>(el.shadowRoot!, 'hermes-provider-add')!;
    $<HTMLButtonElement>(add.shadowRoot!, '[data-action="add-provider"]')!.click();
    await add.updateComplete;
    const select = $<HTMLSelectElement>(add.shadowRoot!, 'select')!;
    expect([...select.options].map((o) => o.value)).to.deep.equal(['openrouter', 'anthropic', 'openai']);
    select.value = 'openai';
    $<HTMLInputElement>(add.shadowRoot!, 'input[name="api_key"]')!.value = SECRET;
    $<HTMLFormElement>(add.shadowRoot!, 'form')!.requestSubmit();
    await waitFor(() =>
      expect(fetch.calls.find((c) => c.url === '/api/providers' && c.method === 'POST')?.body).to.deep.equal({ provider: 'openai', api_key: SECRET }),
    );
    await waitFor(() => expect($(add.shadowRoot!, '[role="status"]')!.textContent).to.contain('OpenAI added'));
    expect(add.open).to.equal(false);
    expect($(add.shadowRoot!, 'input')).to.equal(null);
  });

  it('says so when the providers cannot be loaded', async () => {
    fetch = stub({ 'GET /api/providers': new Response(JSON.stringify({ error: 'boom' }), { status: 500 }) });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    await waitFor(() => expect($(el.shadowRoot!, '[data-setting="providers"]')!.textContent).to.contain('Could not load the providers: boom'));
  });
});
