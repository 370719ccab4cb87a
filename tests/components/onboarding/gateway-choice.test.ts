import { expect, fixture, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import '../../../components/onboarding/hermes-onboarding.js';
import type { HermesOnboarding } from '../../../components/onboarding/hermes-onboarding.js';
import type { OnboardingStatus, ProbeResult } from '../../../components/api/client.js';
import { gatewayChoice, status } from './status.js';

const $ = <T extends Element = HTMLElement>(el: HermesOnboarding, sel: string) => el.shadowRoot!.querySelector(sel) as T | null;
const text = (el: HermesOnboarding, sel: string) => $(el, sel)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

async function mount(s: OnboardingStatus) {
  const el = await fixture<HermesOnboarding>('hermes-onboarding', { status: s });
  const done: Array<OnboardingStatus | null> = [];
  el.addEventListener('hermes-onboarding-done', (e) => done.push(e.detail.status));
  return { el, done };
}

async function click(el: HermesOnboarding, sel: string) {
  const target = $<HTMLElement>(el, sel);
  if (!target) throw new Error(`nothing matches ${sel}`);
  target.click();
  await el.updateComplete;
}

async function fill(el: HermesOnboarding, sel: string, value: string) {
  const input = $<HTMLInputElement>(el, sel)!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

async function toGateway(el: HermesOnboarding) {
  await click(el, '[data-role="onboarding-next"]');
  await click(el, '[data-role="provider-option"][data-provider="gateway"]');
  expect(el.step).to.equal('connect');
}

const CONNECTED: ProbeResult = {
  ok: true,
  base_url: 'http://127.0.0.1:8642',
  models: [{ id: 'hermes-agent', label: 'hermes-agent' }],
  agent: {
    kind: 'gateway',
    label: 'Hermes Agent',
    path: 'runs',
    reachable: true,
    features: { streaming: true, approvals: true, clarify: false },
    limitations: ['Clarifying questions are not available through the API server.'],
  },
};

describe('hermes-onboarding: your Hermes Agent (gateway)', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => {
    fetch?.restore();
    cleanup();
  });

  it('offers a third group, "Your Hermes Agent", only when the status lists the gateway', async () => {
    fetch = stubFetch({});
    const { el } = await mount(gatewayChoice());
    await click(el, '[data-role="onboarding-next"]');
    const groups = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.group')].map((g) => g.querySelector('.group-title')!.textContent);
    expect(groups).to.deep.equal(['Easy start', 'Open / self-hosted', 'Your Hermes Agent']);
    expect(text(el, '[data-provider="gateway"]')).to.contain('Hermes Agent (API server)');
    cleanup();

    const fixed = await mount(status());
    await click(fixed.el, '[data-role="onboarding-next"]');
    expect($(fixed.el, '[data-provider="gateway"]')).to.equal(null);
    expect(fixed.el.shadowRoot!.querySelectorAll('.group')).to.have.length(2);
  });

  it('offers no switch where HERMES_WEBUI_CHAT_BACKEND decides, even if the gateway is listed, and says so', async () => {
    fetch = stubFetch({});
    const { el } = await mount(gatewayChoice({ backend_fixed: true }));
    expect(text(el, '[data-role="backend-fixed"]')).to.equal('set by HERMES_WEBUI_CHAT_BACKEND');
    await click(el, '[data-role="onboarding-next"]');
    expect(el.step).to.equal('provider');
    expect($(el, '[data-provider="gateway"]')).to.equal(null);
    const groups = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.group')].map((g) => g.querySelector('.group-title')!.textContent);
    expect(groups).to.deep.equal(['Easy start', 'Open / self-hosted']);
    cleanup();
    // Where it is a choice, nothing says it is fixed.
    const open = await mount(gatewayChoice());
    expect($(open.el, '[data-role="backend-fixed"]')).to.equal(null);
  });

  it('Connect: a prefilled URL, an optional key, no model to choose; a test names the path and, quietly, its limits', async () => {
    fetch = stubFetch({ 'POST /api/onboarding/probe': CONNECTED });
    const { el } = await mount(gatewayChoice());
    await toGateway(el);
    expect(text(el, 'h2')).to.equal('Connect your Hermes Agent');
    expect($<HTMLInputElement>(el, '[data-role="base-url"]')!.value).to.equal('http://127.0.0.1:8642');
    expect(text(el, 'label[for="api_key"]')).to.equal('API key (optional)');
    expect($(el, '[data-role="model-select"], [data-role="model-input"]'), 'the gateway’s agent picks its model').to.equal(null);

    await fill(el, '[data-role="api-key"]', 'gw-key');
    await click(el, '[data-role="probe"]');
    await waitFor(() => expect($(el, '[data-role="probe-ok"]')).to.exist);
    expect(fetch.calls.find((c) => c.url === '/api/onboarding/probe')!.body).to.deep.equal({
      provider: 'gateway',
      base_url: 'http://127.0.0.1:8642',
      api_key: 'gw-key',
    });
    expect(text(el, '[data-role="probe-ok"]')).to.equal('Connected — Hermes Agent · runs API');
    expect(text(el, '[data-role="probe-agent"]')).to.contain('hermes-agent');
    expect(text(el, '[data-role="probe-limitations"]')).to.contain('Clarifying questions are not available');
  });

  it('chat completions is named as such', async () => {
    fetch = stubFetch({
      'POST /api/onboarding/probe': { ...CONNECTED, agent: { ...(CONNECTED as { agent: object }).agent, path: 'chat_completions', limitations: [] } },
    });
    const { el } = await mount(gatewayChoice());
    await toGateway(el);
    await click(el, '[data-role="probe"]');
    await waitFor(() => expect(text(el, '[data-role="probe-ok"]')).to.equal('Connected — Hermes Agent · chat completions'));
    expect($(el, '[data-role="probe-limitations"]')).to.equal(null);
  });

  const failures: Array<[ProbeResult, RegExp]> = [
    [
      { ok: false, error: 'connect_refused', detail: 'connect ECONNREFUSED 127.0.0.1:8642' },
      /Nothing is listening at http:\/\/127\.0\.0\.1:8642 — is hermes gateway running with API_SERVER_ENABLED=true\?/,
    ],
    [{ ok: false, error: 'http_4xx', detail: 'Hermes refused the key (401).' }, /the API server refused the key \(API_SERVER_KEY\)/],
    [{ ok: false, error: 'timeout', detail: 'timed out' }, /did not answer in time/],
    [{ ok: false, error: 'invalid_url', detail: 'base_url must be an http(s) URL' }, /http:\/\/127\.0\.0\.1:8642 \(http or https and a host; no \/v1\)/],
  ];
  for (const [result, message] of failures) {
    it(`explains a failed test: ${(result as { error: string }).error}`, async () => {
      fetch = stubFetch({ 'POST /api/onboarding/probe': result });
      const { el } = await mount(gatewayChoice());
      await toGateway(el);
      await click(el, '[data-role="probe"]');
      await waitFor(() => expect($(el, '[data-role="probe-error"]')).to.exist);
      const box = $(el, '[data-role="probe-error"]')!;
      expect(box.getAttribute('role')).to.equal('alert');
      expect(box.dataset.kind).to.equal((result as { error: string }).error);
      expect(box.querySelector('p')!.textContent!.replace(/\s+/g, ' ')).to.match(message);
      expect(box.textContent).to.contain((result as { detail: string }).detail);
      expect($(el, '[data-role="probe-ok"]')).to.equal(null);
    });
  }

  it('the commands in a message are set as code', async () => {
    fetch = stubFetch({ 'POST /api/onboarding/probe': { ok: false, error: 'connect_refused', detail: '' } });
    const { el } = await mount(gatewayChoice());
    await toGateway(el);
    await click(el, '[data-role="probe"]');
    await waitFor(() => expect($(el, '[data-role="probe-error"]')).to.exist);
    expect([...el.shadowRoot!.querySelectorAll('[data-role="probe-error"] p .mono')].map((s) => s.textContent)).to.deep.equal([
      'hermes gateway',
      'API_SERVER_ENABLED=true',
    ]);
  });

  it('Done sends setup with provider gateway (URL, key, workspace, password; no model), then complete', async () => {
    const order: string[] = [];
    fetch = stubFetch({
      'POST /api/onboarding/probe': (c: FetchCall) => ({ ...CONNECTED, base_url: c.body.base_url.replace(/\/+$/, '') }),
      'POST /api/onboarding/setup': () => (order.push('setup'), gatewayChoice({ needed: false, completed: true, backend: 'gateway' })),
      'POST /api/onboarding/complete': () => (order.push('complete'), { ok: true, completed: true }),
    });
    const { el, done } = await mount(gatewayChoice());
    await toGateway(el);
    await fill(el, '[data-role="base-url"]', 'http://10.0.0.5:8642/');
    await fill(el, '[data-role="api-key"]', 'gw-secret');
    // Continue tests first (not tested yet), then goes on.
    $<HTMLFormElement>(el, 'form')!.requestSubmit();
    await waitFor(() => expect(el.step).to.equal('finish'));
    expect(text(el, '[data-role="onboarding-summary"]')).to.equal('Hermes Agent (API server) · http://10.0.0.5:8642');
    await fill(el, '[data-role="password"]', 'correct horse');
    await fill(el, '[data-role="password-confirm"]', 'correct horse');
    await click(el, '[data-role="onboarding-done"]');
    await waitFor(() => expect(done).to.have.length(1));
    expect(order).to.deep.equal(['setup', 'complete']);
    const setup = fetch.calls.find((c: FetchCall) => c.url === '/api/onboarding/setup')!;
    // The address as the server normalised it when testing.
    expect(setup.body).to.deep.equal({
      provider: 'gateway',
      base_url: 'http://10.0.0.5:8642',
      api_key: 'gw-secret',
      workspace: '/home/me/.hermes/webui/workspace',
      password: 'correct horse',
    });
    expect(done[0]!.backend).to.equal('gateway');
  });

  it('an untested gateway may still be chosen: Continue anyway, and setup without a key', async () => {
    fetch = stubFetch({
      'POST /api/onboarding/probe': { ok: false, error: 'connect_refused', detail: 'ECONNREFUSED' },
      'POST /api/onboarding/setup': gatewayChoice({ needed: false, backend: 'gateway' }),
      'POST /api/onboarding/complete': { ok: true, completed: true },
    });
    const { el, done } = await mount(gatewayChoice());
    await toGateway(el);
    $<HTMLFormElement>(el, 'form')!.requestSubmit();
    await waitFor(() => expect(text(el, '[data-role="onboarding-next"]')).to.equal('Continue anyway'));
    $<HTMLFormElement>(el, 'form')!.requestSubmit();
    await waitFor(() => expect(el.step).to.equal('finish'));
    await click(el, '[data-role="onboarding-done"]');
    await waitFor(() => expect(done).to.have.length(1));
    expect(fetch.calls.find((c) => c.url === '/api/onboarding/setup')!.body).to.deep.equal({
      provider: 'gateway',
      base_url: 'http://127.0.0.1:8642',
      workspace: '/home/me/.hermes/webui/workspace',
    });
  });
});
