import { expect, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import { mountWith, SETTINGS } from '../workspace/providers.js';
import '../../../components/settings/hermes-settings-dialog.js';
import type { HermesSettingsDialog } from '../../../components/settings/hermes-settings-dialog.js';
import type { HermesGatewaySettings } from '../../../components/settings/hermes-gateway-settings.js';
import '../../../components/composer/hermes-agent-badge.js';
import type { HermesAgentBadge } from '../../../components/composer/hermes-agent-badge.js';
import type { ProbeResult, Settings } from '../../../components/api/client.js';
import { fixture } from '../helpers.js';

const BUILTIN: Settings = { ...SETTINGS, chat_backend: 'builtin', gateway_base_url: 'http://127.0.0.1:8642', chat_backend_fixed: false };
const GATEWAY: Settings = { ...BUILTIN, chat_backend: 'gateway' };

const row = (el: HermesSettingsDialog) => el.shadowRoot!.querySelector<HTMLElement>('[data-setting="chat_backend"]');
const gateway = (el: HermesSettingsDialog) => el.shadowRoot!.querySelector<HermesGatewaySettings>('hermes-gateway-settings');
const inGateway = <T extends Element = HTMLElement>(el: HermesSettingsDialog, sel: string) => (gateway(el)?.shadowRoot?.querySelector(sel) ?? null) as T | null;
const squash = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

function stub(extra: Record<string, unknown> = {}) {
  let stored: Settings = { ...BUILTIN };
  return stubFetch({
    'GET /api/models': { default_model: 'claude-x', models: [{ id: 'claude-x', label: 'Claude X', provider: 'anthropic' }] },
    'GET /api/providers': { active_provider: null, providers: [] },
    'POST /api/settings': (c: FetchCall) => (stored = { ...stored, ...c.body }),
    ...extra,
  });
}

const RUNS: ProbeResult = {
  ok: true,
  base_url: 'http://127.0.0.1:8642',
  models: [{ id: 'hermes-agent', label: 'hermes-agent' }],
  agent: {
    kind: 'gateway',
    label: 'Hermes Agent',
    path: 'runs',
    reachable: true,
    features: {},
    limitations: ['Clarifying questions are not available through the API server.'],
  },
};

describe('settings: Agent (who answers)', () => {
  let fetch: ReturnType<typeof stub>;
  let events = 0;
  const count = () => events++;
  beforeEach(() => {
    events = 0;
    window.addEventListener('hermes-models-changed', count);
  });
  afterEach(() => {
    window.removeEventListener('hermes-models-changed', count);
    fetch.restore();
    cleanup();
  });

  it('has a searchable "Answers come from" row, and switches to Hermes Agent and back for the next turn', async () => {
    fetch = stub();
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: { ...BUILTIN } });
    expect(row(el)).to.exist;
    expect(row(el)!.closest('section')!.querySelector('h3')!.textContent).to.equal('Agent');
    expect(squash(row(el)!.querySelector('label')!.textContent)).to.equal('Answers come from');
    expect(gateway(el), 'no gateway fields for the built-in agent').to.equal(null);

    const search = el.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    search.value = 'gateway';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-setting]')].map((r) => r.dataset.setting)).to.deep.equal(['chat_backend']);

    el.shadowRoot!.querySelector<HTMLInputElement>('input[name="chat_backend"][value="gateway"]')!.click();
    await waitFor(() => expect(fetch.calls.find((c) => c.method === 'POST' && c.url === '/api/settings')?.body).to.deep.equal({ chat_backend: 'gateway' }));
    await waitFor(() => expect(ui.settings?.chat_backend).to.equal('gateway'));
    await waitFor(() => expect(events, 'the composer refetches models (and the badge asks again)').to.equal(1));
    await el.updateComplete;
    await waitFor(() => expect(gateway(el)).to.exist);
    await gateway(el)!.updateComplete;
    expect(inGateway<HTMLInputElement>(el, '#gateway_base_url')!.value).to.equal('http://127.0.0.1:8642');
    expect(squash(inGateway(el, '[data-role="gateway-key-note"]')?.textContent)).to.match(
      /HERMES_WEBUI_GATEWAY_API_KEY from \$HERMES_HOME\/\.env, else Hermes’ API_SERVER_KEY/,
    );

    el.shadowRoot!.querySelector<HTMLInputElement>('input[name="chat_backend"][value="builtin"]')!.click();
    await waitFor(() =>
      expect(fetch.calls.filter((c) => c.method === 'POST' && c.url === '/api/settings').at(-1)?.body).to.deep.equal({ chat_backend: 'builtin' }),
    );
    await waitFor(() => expect(events).to.equal(2));
    await waitFor(() => expect(gateway(el)).to.equal(null));
  });

  it('saves the API server URL on change; shows a refusal beside it', async () => {
    fetch = stub({
      'POST /api/settings': (c: FetchCall) =>
        /^https?:/.test(c.body.gateway_base_url)
          ? { ...GATEWAY, ...c.body }
          : new Response(JSON.stringify({ error: 'gateway_base_url must be an http(s) URL like http://127.0.0.1:8642' }), { status: 400 }),
    });
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: { ...GATEWAY } });
    await waitFor(() => expect(inGateway(el, '#gateway_base_url')).to.exist);
    const input = inGateway<HTMLInputElement>(el, '#gateway_base_url')!;
    input.value = 'ftp://nope';
    input.dispatchEvent(new Event('change'));
    await waitFor(() => expect(squash(inGateway(el, '.field-error')?.textContent)).to.contain('must be an http(s) URL'));
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.value, 'kept, to be corrected').to.equal('ftp://nope');
    expect(events).to.equal(0);

    input.value = 'http://10.0.0.5:8642/';
    input.dispatchEvent(new Event('change'));
    await waitFor(() => expect(ui.settings?.gateway_base_url).to.equal('http://10.0.0.5:8642'));
    expect(fetch.calls.filter((c) => c.url === '/api/settings').at(-1)!.body).to.deep.equal({ gateway_base_url: 'http://10.0.0.5:8642' });
    await waitFor(() => expect(squash(inGateway(el, '.field-error')?.textContent)).to.equal(''));
    expect(events).to.equal(1);
    await waitFor(() => expect(el.shadowRoot!.querySelector('.saved')?.textContent).to.contain('Saved'));
  });

  it('Test probes the gateway (with a typed key, not kept) and shows the path and its limits', async () => {
    fetch = stub({ 'POST /api/onboarding/probe': RUNS });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: { ...GATEWAY } });
    await waitFor(() => expect(inGateway(el, '[data-action="test-gateway"]')).to.exist);
    const key = inGateway<HTMLInputElement>(el, '#gateway_key')!;
    key.value = 'gw-try';
    key.dispatchEvent(new Event('input'));
    inGateway<HTMLButtonElement>(el, '[data-action="test-gateway"]')!.click();
    await waitFor(() => expect(inGateway(el, '[data-role="gateway-probe"]')).to.exist);
    expect(fetch.calls.find((c) => c.url === '/api/onboarding/probe')!.body).to.deep.equal({
      provider: 'gateway',
      base_url: 'http://127.0.0.1:8642',
      api_key: 'gw-try',
    });
    expect(squash(inGateway(el, '[data-role="gateway-probe"] .probe')?.textContent)).to.equal('Connected — Hermes Agent · runs API');
    expect(squash(inGateway(el, '[data-role="gateway-limitations"]')?.textContent)).to.contain('Clarifying questions');
    expect(
      fetch.calls.some((c) => c.url === '/api/settings' && JSON.stringify(c.body).includes('gw-try')),
      'the key is not saved',
    ).to.equal(false);
  });

  it('Test shows why the gateway cannot be used', async () => {
    fetch = stub({ 'POST /api/onboarding/probe': { ok: false, error: 'http_4xx', detail: 'Hermes refused the key (401).' } });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: { ...GATEWAY } });
    await waitFor(() => expect(inGateway(el, '[data-action="test-gateway"]')).to.exist);
    inGateway<HTMLButtonElement>(el, '[data-action="test-gateway"]')!.click();
    await waitFor(() => expect(inGateway(el, '[data-role="gateway-probe"][data-ok="false"]')).to.exist);
    const box = inGateway(el, '[data-role="gateway-probe"]')!;
    expect(box.getAttribute('role')).to.equal('alert');
    expect(squash(box.textContent)).to.contain('the API server refused the key (API_SERVER_KEY)');
    expect(squash(box.textContent)).to.contain('Hermes refused the key (401).');
    expect(fetch.calls.find((c) => c.url === '/api/onboarding/probe')!.body).to.deep.equal({ provider: 'gateway', base_url: 'http://127.0.0.1:8642' });
  });

  it('shows the backend read-only when HERMES_WEBUI_CHAT_BACKEND decides', async () => {
    fetch = stub();
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: { ...GATEWAY, chat_backend_fixed: true } });
    const r = row(el)!;
    expect(squash(r.querySelector('[data-role="backend-fixed"]')?.textContent)).to.equal('Hermes Agent · http://127.0.0.1:8642');
    expect(squash(r.textContent)).to.match(/set by HERMES_WEBUI_CHAT_BACKEND/i);
    expect(r.querySelector('input[name="chat_backend"]'), 'no switch').to.equal(null);
    expect(r.querySelectorAll('input, button, select').length, 'nothing in the row changes it').to.equal(0);
    expect(gateway(el)).to.equal(null);
    expect(
      fetch.calls.filter((c) => c.url === '/api/settings' && c.method === 'POST'),
      'nothing was posted',
    ).to.have.length(0);
    cleanup();
    const builtin = (await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: { ...BUILTIN, chat_backend_fixed: true } })).el;
    expect(squash(row(builtin)!.querySelector('[data-role="backend-fixed"]')?.textContent)).to.equal('Built-in agent');
  });

  it('no row for a server that does not offer the choice', async () => {
    fetch = stub();
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    expect(row(el)).to.equal(null);
  });

  it('the composer badge asks /api/agent again on hermes-models-changed', async () => {
    let kind = 'builtin';
    fetch = stub({
      'GET /api/agent': () => ({
        kind,
        label: kind === 'builtin' ? 'Built-in agent' : 'Hermes Agent',
        path: kind === 'builtin' ? 'builtin' : 'runs',
        reachable: true,
        features: {},
        limitations: [],
      }),
    });
    const badge = await fixture<HermesAgentBadge>('hermes-agent-badge');
    await waitFor(() => expect(fetch.calls.filter((c) => c.url === '/api/agent')).to.have.length(1));
    await badge.updateComplete;
    expect(badge.shadowRoot!.querySelector('[data-role="agent-badge"]')).to.equal(null);
    kind = 'gateway';
    window.dispatchEvent(new Event('hermes-models-changed'));
    await waitFor(() => expect(squash(badge.shadowRoot!.querySelector('[data-role="agent-badge"]')?.textContent)).to.equal('Hermes Agent · runs API'));
  });
});
