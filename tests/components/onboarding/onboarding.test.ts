import { expect, fixture, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import '../../../components/onboarding/hermes-onboarding.js';
import type { HermesOnboarding } from '../../../components/onboarding/hermes-onboarding.js';
import type { OnboardingStatus, ProbeResult } from '../../../components/api/client.js';
import { status } from './status.js';

const $ = <T extends Element = HTMLElement>(el: HermesOnboarding, sel: string) => el.shadowRoot!.querySelector(sel) as T | null;
const $$ = (el: HermesOnboarding, sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)];
const text = (el: HermesOnboarding, sel: string) => $(el, sel)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

async function mount(s: OnboardingStatus = status()) {
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

/** Enter in a field: the browser submits the step's form (implicit submission). */
async function submit(el: HermesOnboarding) {
  $<HTMLFormElement>(el, 'form')!.requestSubmit();
  await el.updateComplete;
}

async function toConnect(el: HermesOnboarding, provider: string) {
  await click(el, '[data-role="onboarding-next"]');
  await click(el, `[data-role="provider-option"][data-provider="${provider}"]`);
  expect(el.step).to.equal('connect');
}

const OK: ProbeResult = {
  ok: true,
  base_url: 'http://127.0.0.1:8000/v1',
  models: [
    { id: 'qwen3-8b', label: 'qwen3-8b', context_length: 32768 },
    { id: 'llama-3.3-70b', label: 'Llama 3.3 70B' },
  ],
};

describe('hermes-onboarding', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => {
    fetch?.restore();
    cleanup();
  });

  describe('step 1: what the server sees', () => {
    it('shows the config path, the agent, the provider state and the password state', async () => {
      fetch = stubFetch({});
      const { el } = await mount();
      expect($(el, '[data-role="onboarding"]')!.dataset.step).to.equal('check');
      const facts = text(el, '[data-role="onboarding-facts"]');
      expect(facts).to.contain('/home/me/.hermes/config.yaml');
      expect(facts).to.contain('not created yet');
      expect(facts).to.contain('/home/me/.hermes/.env');
      expect(facts).to.contain('Built-in agent');
      expect(text(el, '[data-role="provider-state"]')).to.contain('None configured yet');
      expect(text(el, '[data-role="password-state"]')).to.contain('Not set');
      expect($(el, '[data-role="config-error"]')).to.equal(null);
      expect($(el, '[aria-current="step"]')!.textContent).to.contain('Check');
    });

    it('says which provider works and that a password is set', async () => {
      fetch = stubFetch({});
      const { el } = await mount(
        status({ config_exists: true, provider: { id: 'openai', usable: true, error: null }, default_model: 'gpt-5', password_enabled: true }),
      );
      expect(text(el, '[data-role="provider-state"]')).to.match(/OpenAI · gpt-5 works/);
      expect(text(el, '[data-role="password-state"]')).to.contain('set');
      // A working provider: start chatting (marks the wizard done) or choose another.
      expect($(el, '[data-role="onboarding-start"]')).to.exist;
    });

    it('shows a provider that does not work with its error', async () => {
      fetch = stubFetch({});
      const { el } = await mount(status({ config_exists: true, provider: { id: 'openrouter', usable: false, error: 'OPENROUTER_API_KEY is not set' } }));
      expect(text(el, '[data-role="provider-state"]')).to.contain('OpenRouter OPENROUTER_API_KEY is not set');
    });

    it('shows a malformed config.yaml prominently, says it was not changed, and offers no way to overwrite it', async () => {
      const error = 'config.yaml line 3, column 5: bad indentation of a mapping entry';
      fetch = stubFetch({ 'GET /api/onboarding/status': status({ config_exists: true, config_error: error }) });
      const { el } = await mount(status({ config_exists: true, config_error: error }));
      const box = $(el, '[data-role="config-error"]')!;
      expect(box.getAttribute('role')).to.equal('alert');
      expect(box.textContent).to.contain('line 3, column 5');
      expect(box.textContent).to.contain('/home/me/.hermes/config.yaml');
      expect(box.textContent).to.match(/did not change the file/);
      expect($(el, '[data-role="onboarding-next"]'), 'no way on to the forms').to.equal(null);
      await submit(el);
      expect(el.step).to.equal('check');
      // "Check again" asks the server once more.
      await click(el, '[data-role="onboarding-recheck"]');
      await waitFor(() => fetch.calls.some((c) => c.url === '/api/onboarding/status'));
    });

    it('shows why setup is not possible from here instead of the forms when may_setup is false', async () => {
      fetch = stubFetch({});
      const { el, done } = await mount(status({ may_setup: false }));
      const notice = $(el, '[data-role="onboarding-not-allowed"]')!;
      expect(notice.textContent).to.contain('HERMES_WEBUI_PASSWORD');
      expect(notice.textContent).to.match(/machine it runs on/);
      expect($$(el, 'form, input, [data-role="provider-option"], [data-role="onboarding-skip"]')).to.have.length(0);
      await click(el, '[data-role="onboarding-continue"]');
      expect(done).to.deep.equal([null]);
      expect(fetch.calls, 'nothing is asked of the server').to.have.length(0);
    });

    it('Enter (submitting the step) goes on to the providers', async () => {
      fetch = stubFetch({});
      const { el } = await mount();
      await submit(el);
      expect(el.step).to.equal('provider');
      await waitFor(() => expect(el.shadowRoot!.activeElement?.getAttribute('data-role')).to.equal('provider-option'));
    });
  });

  describe('step 2: the provider', () => {
    it('groups the providers as "Easy start" and "Open / self-hosted"', async () => {
      fetch = stubFetch({});
      const { el } = await mount();
      await click(el, '[data-role="onboarding-next"]');
      const groups = $$(el, '.group').map((g) => ({
        title: g.querySelector('.group-title')!.textContent,
        options: [...g.querySelectorAll<HTMLElement>('[data-role="provider-option"]')].map((o) => o.dataset.provider),
      }));
      expect(groups).to.deep.equal([
        { title: 'Easy start', options: ['openrouter', 'anthropic', 'openai'] },
        { title: 'Open / self-hosted', options: ['ollama', 'lmstudio', 'custom'] },
      ]);
      expect(text(el, '[data-provider="openai"]')).to.contain('key found');
      expect(text(el, '[data-provider="custom"]')).to.contain('Custom OpenAI-compatible');
    });

    it('a hosted provider asks for a key (no base URL); a local one for a base URL, prefilled, with an optional key', async () => {
      fetch = stubFetch({});
      const { el } = await mount();
      await toConnect(el, 'openrouter');
      expect($(el, '[data-role="base-url"]')).to.equal(null);
      expect($(el, 'label[for="api_key"]')!.textContent).to.equal('API key');
      expect($<HTMLInputElement>(el, '[data-role="api-key"]')!.type).to.equal('password');
      expect(text(el, '.lead')).to.contain('/home/me/.hermes/.env');
      await click(el, '[data-role="onboarding-back"]');
      await click(el, '[data-provider="ollama"]');
      expect($<HTMLInputElement>(el, '[data-role="base-url"]')!.value).to.equal('http://127.0.0.1:11434/v1');
      expect($(el, 'label[for="api_key"]')!.textContent).to.equal('API key (optional)');
      await click(el, '[data-role="onboarding-back"]');
      await click(el, '[data-provider="custom"]');
      expect($<HTMLInputElement>(el, '[data-role="base-url"]')!.value).to.equal('');
    });
  });

  describe('step 3: connect', () => {
    it('Test connection sends the key and fills the model dropdown with what the provider lists', async () => {
      fetch = stubFetch({ 'POST /api/onboarding/probe': OK });
      const { el } = await mount();
      await toConnect(el, 'custom');
      await fill(el, '[data-role="base-url"]', 'http://127.0.0.1:8000/v1');
      await fill(el, '[data-role="api-key"]', 'sk-local');
      await click(el, '[data-role="probe"]');
      await waitFor(() => expect($(el, '[data-role="probe-ok"]')).to.exist);
      expect(fetch.calls.find((c) => c.url === '/api/onboarding/probe')!.body).to.deep.equal({
        provider: 'custom',
        base_url: 'http://127.0.0.1:8000/v1',
        api_key: 'sk-local',
      });
      expect(text(el, '[data-role="probe-ok"]')).to.contain('Connected — 2 models');
      const select = $<HTMLSelectElement>(el, '[data-role="model-select"]')!;
      expect([...select.options].map((o) => o.value)).to.deep.equal(['qwen3-8b', 'llama-3.3-70b', '__other__']);
      expect(select.value).to.equal('qwen3-8b');
    });

    it('a hosted provider without a saved key: Continue asks for the key first', async () => {
      fetch = stubFetch({ 'POST /api/onboarding/probe': OK });
      const { el } = await mount();
      await toConnect(el, 'anthropic');
      await submit(el);
      const error = $(el, '#api_key-error')!;
      expect(error.getAttribute('role')).to.equal('alert');
      expect(error.textContent).to.contain('Paste your Anthropic API key');
      expect($(el, '[data-role="api-key"]')!.getAttribute('aria-invalid')).to.equal('true');
      expect(fetch.calls).to.have.length(0);
      expect(el.shadowRoot!.activeElement?.getAttribute('data-role')).to.equal('api-key');
    });

    it('a saved key may be kept: the probe omits api_key and the server uses the saved one', async () => {
      fetch = stubFetch({ 'POST /api/onboarding/probe': { ok: true, base_url: 'https://api.openai.com/v1', models: [{ id: 'gpt-5', label: 'gpt-5' }] } });
      const { el } = await mount();
      await toConnect(el, 'openai');
      expect($<HTMLInputElement>(el, '[data-role="api-key"]')!.placeholder).to.contain('saved key');
      await submit(el);
      await waitFor(() => expect(el.step).to.equal('finish'));
      expect(fetch.calls[0]!.body).to.deep.equal({ provider: 'openai' });
    });

    const failures: Array<[string, ProbeResult, RegExp]> = [
      [
        'connect_refused',
        { ok: false, error: 'connect_refused', detail: 'connect ECONNREFUSED 127.0.0.1:9' },
        /Nothing is listening at http:\/\/127\.0\.0\.1:9\/v1 — is the server running\?.*host\.docker\.internal/,
      ],
      ['timeout', { ok: false, error: 'timeout', detail: 'no answer within 5000 ms' }, /did not answer in time/],
      ['dns', { ok: false, error: 'dns', detail: 'getaddrinfo ENOTFOUND' }, /could not be found \(DNS\)/],
      ['http_4xx 401', { ok: false, error: 'http_4xx', detail: 'Unauthorized', status: 401 }, /the key was refused \(HTTP 401\)/],
      ['http_4xx 403', { ok: false, error: 'http_4xx', detail: 'Forbidden', status: 403 }, /the key was refused \(HTTP 403\)/],
      ['http_4xx 404', { ok: false, error: 'http_4xx', detail: 'Not Found', status: 404 }, /no model list \(HTTP 404\) — is it the API root/],
      ['http_5xx', { ok: false, error: 'http_5xx', detail: 'Bad Gateway', status: 502 }, /had an error of its own \(HTTP 502\)/],
      ['parse', { ok: false, error: 'parse', detail: 'Unexpected token <' }, /answered, but not with a model list — is it the API root \(…\/v1\)\?/],
      ['invalid_url', { ok: false, error: 'invalid_url', detail: 'Invalid URL' }, /is not a URL Hermes can use/],
      ['unreachable', { ok: false, error: 'unreachable', detail: 'socket hang up' }, /could not reach/],
    ];
    for (const [kind, result, message] of failures) {
      it(`says what a failed test means: ${kind}`, async () => {
        fetch = stubFetch({ 'POST /api/onboarding/probe': result });
        const { el } = await mount();
        await toConnect(el, 'custom');
        await fill(el, '[data-role="base-url"]', 'http://127.0.0.1:9/v1');
        await click(el, '[data-role="probe"]');
        await waitFor(() => expect($(el, '[data-role="probe-error"]')).to.exist);
        const box = $(el, '[data-role="probe-error"]')!;
        expect(box.getAttribute('role')).to.equal('alert');
        expect(box.dataset.kind).to.equal((result as { error: string }).error);
        expect(box.querySelector('p')!.textContent).to.match(message);
        expect(box.textContent, 'the server’s detail is shown too').to.contain((result as { detail: string }).detail);
      });
    }

    it('a different message for each failure kind', async () => {
      const { probeMessage } = await import('../../../components/settings/probe-messages.js');
      const kinds = ['invalid_url', 'dns', 'connect_refused', 'timeout', 'http_5xx', 'parse', 'unreachable'] as const;
      const messages = new Set([
        ...kinds.map((k) => probeMessage({ ok: false, error: k, detail: '' }, 'http://x:1/v1')),
        probeMessage({ ok: false, error: 'http_4xx', detail: '', status: 401 }, 'http://x:1/v1'),
      ]);
      expect(messages.size).to.equal(kinds.length + 1);
    });

    it('a failed test on Continue is explained; a second Continue goes on with the typed model', async () => {
      fetch = stubFetch({ 'POST /api/onboarding/probe': { ok: false, error: 'parse', detail: 'not JSON' } });
      const { el } = await mount();
      await toConnect(el, 'custom');
      await fill(el, '[data-role="base-url"]', 'http://127.0.0.1:8000');
      await submit(el);
      await waitFor(() => expect($(el, '[data-role="probe-error"]')).to.exist);
      expect(el.step).to.equal('connect');
      expect(text(el, '[data-role="onboarding-next"]')).to.equal('Continue anyway');
      await submit(el);
      // No model listed and none typed: asked for one.
      expect(text(el, '#model-error')).to.contain('Choose a model');
      await fill(el, '[data-role="model-input"]', 'my-model');
      await submit(el);
      expect(el.step).to.equal('finish');
      expect(text(el, '[data-role="onboarding-summary"]')).to.contain('my-model');
    });

    it('lets the person type a model id that is not in the list', async () => {
      fetch = stubFetch({ 'POST /api/onboarding/probe': OK });
      const { el } = await mount();
      await toConnect(el, 'custom');
      await fill(el, '[data-role="base-url"]', 'http://127.0.0.1:8000/v1');
      await click(el, '[data-role="probe"]');
      await waitFor(() => expect($(el, '[data-role="probe-ok"]')).to.exist);
      const select = $<HTMLSelectElement>(el, '[data-role="model-select"]')!;
      select.value = '__other__';
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
      await waitFor(() => expect(el.shadowRoot!.activeElement?.getAttribute('data-role')).to.equal('model-input'));
      await fill(el, '[data-role="model-input"]', 'qwen3-32b-awq');
      await submit(el);
      expect(el.step).to.equal('finish');
      expect(text(el, '[data-role="onboarding-summary"]')).to.contain('qwen3-32b-awq');
    });

    it('keeps the base URL the server found (the API root)', async () => {
      fetch = stubFetch({ 'POST /api/onboarding/probe': { ...OK, base_url: 'http://127.0.0.1:8000/v1' } });
      const { el } = await mount();
      await toConnect(el, 'custom');
      await fill(el, '[data-role="base-url"]', 'http://127.0.0.1:8000');
      await click(el, '[data-role="probe"]');
      await waitFor(() => expect($(el, '[data-role="probe-ok"]')).to.exist);
      expect($<HTMLInputElement>(el, '[data-role="base-url"]')!.value).to.equal('http://127.0.0.1:8000/v1');
    });
  });

  describe('steps 4–5: workspace, password, Done', () => {
    async function toFinish(s = status(), routes: Record<string, unknown> = {}) {
      const calls: string[] = [];
      fetch = stubFetch({
        'POST /api/onboarding/probe': OK,
        'POST /api/onboarding/setup': (c: FetchCall) => (
          calls.push('setup'),
          status({ needed: false, completed: true, provider: { id: c.body.provider, usable: true, error: null }, default_model: c.body.model })
        ),
        'POST /api/onboarding/complete': () => (calls.push('complete'), { ok: true, completed: true }),
        ...routes,
      });
      const m = await mount(s);
      await toConnect(m.el, 'custom');
      await fill(m.el, '[data-role="base-url"]', 'http://127.0.0.1:8000/v1');
      await submit(m.el);
      await waitFor(() => expect(m.el.step).to.equal('finish'));
      return { ...m, calls };
    }

    it('prefills the default workspace, and Done calls setup then complete, then hands over to the chat', async () => {
      const { el, done, calls } = await toFinish(status({ workspaces: { items: [{ path: '/home/me/src', name: 'src' }], last: null } }));
      expect($<HTMLInputElement>(el, '[data-role="workspace"]')!.value).to.equal('/home/me/.hermes/webui/workspace');
      expect($(el, 'datalist option')!.getAttribute('value')).to.equal('/home/me/src');
      const models = fetch.calls.length;
      await click(el, '[data-role="onboarding-done"]');
      await waitFor(() => expect(done).to.have.length(1));
      expect(calls).to.deep.equal(['setup', 'complete']);
      const setup = fetch.calls.slice(models).find((c) => c.url === '/api/onboarding/setup')!;
      expect(setup.body).to.deep.equal({
        provider: 'custom',
        model: 'qwen3-8b',
        base_url: 'http://127.0.0.1:8000/v1',
        workspace: '/home/me/.hermes/webui/workspace',
      });
      expect(done[0]!.default_model).to.equal('qwen3-8b');
    });

    it('sends an edited workspace, and the password once both fields agree', async () => {
      const { el, done } = await toFinish();
      await fill(el, '[data-role="workspace"]', '/home/me/projects');
      await fill(el, '[data-role="password"]', 'short');
      await submit(el);
      expect(text(el, '#password-error')).to.contain('at least 8 characters');
      expect($(el, '#password-error')!.getAttribute('role')).to.equal('alert');
      await fill(el, '[data-role="password"]', 'correct horse');
      await fill(el, '[data-role="password-confirm"]', 'correct horsE');
      await submit(el);
      expect(text(el, '#confirm-error')).to.contain('do not match');
      expect(fetch.calls.some((c) => c.url === '/api/onboarding/setup')).to.equal(false);
      await fill(el, '[data-role="password-confirm"]', 'correct horse');
      await submit(el);
      await waitFor(() => expect(done).to.have.length(1));
      const setup = fetch.calls.find((c) => c.url === '/api/onboarding/setup')!;
      expect(setup.body.workspace).to.equal('/home/me/projects');
      expect(setup.body.password).to.equal('correct horse');
    });

    it('offers no password fields when one is already set', async () => {
      const { el } = await toFinish(status({ password_enabled: true }));
      expect($(el, '[data-role="password"]')).to.equal(null);
      expect(text(el, '[data-role="password-already"]')).to.contain('already set');
    });

    it('shows a refusal from setup (409: config.yaml malformed) and stays', async () => {
      const { el, done } = await toFinish(status(), {
        'POST /api/onboarding/setup': new Response(JSON.stringify({ error: 'config.yaml does not parse (line 2, column 1); it was not changed' }), {
          status: 409,
        }),
      });
      await click(el, '[data-role="onboarding-done"]');
      await waitFor(() => expect($(el, '[data-role="onboarding-error"]')).to.exist);
      expect(text(el, '[data-role="onboarding-error"]')).to.contain('line 2, column 1');
      expect(done).to.have.length(0);
      expect(fetch.calls.some((c) => c.url === '/api/onboarding/complete')).to.equal(false);
    });

    it('a 400 naming the workspace is shown at the workspace field', async () => {
      const { el } = await toFinish(status(), {
        'POST /api/onboarding/setup': new Response(JSON.stringify({ error: 'workspace: Refusing a system directory as a workspace: /etc' }), { status: 400 }),
      });
      await fill(el, '[data-role="workspace"]', '/etc');
      await click(el, '[data-role="onboarding-done"]');
      await waitFor(() => expect(text(el, '#workspace-error')).to.contain('Refusing a system directory'));
      expect($(el, '[data-role="workspace"]')!.getAttribute('aria-invalid')).to.equal('true');
    });

    it('a 403 refusing a system folder is shown at the workspace field; a refusal of setup itself at the top', async () => {
      const refusals = [
        { error: 'Refusing a system directory as a workspace: /etc' },
        { error: 'Setup can only be done from the machine Hermes runs on (open it at http://127.0.0.1), or after a password is set (HERMES_WEBUI_PASSWORD).' },
      ];
      const { el } = await toFinish(status(), { 'POST /api/onboarding/setup': () => new Response(JSON.stringify(refusals.shift()), { status: 403 }) });
      await click(el, '[data-role="onboarding-done"]');
      await waitFor(() => expect(text(el, '#workspace-error')).to.contain('Refusing a system directory'));
      await click(el, '[data-role="onboarding-done"]');
      await waitFor(() => expect(text(el, '[data-role="onboarding-error"]')).to.contain('Setup can only be done from the machine'));
      expect(text(el, '#password-error')).to.equal('');
    });

    it('a 400 naming the base URL goes back to the connection step', async () => {
      const { el } = await toFinish(status(), {
        'POST /api/onboarding/setup': new Response(JSON.stringify({ error: 'base_url must be http(s)' }), { status: 400 }),
      });
      await click(el, '[data-role="onboarding-done"]');
      await waitFor(() => expect(el.step).to.equal('connect'));
      expect(text(el, '#base_url-error')).to.contain('base_url must be http(s)');
    });
  });

  it('Skip marks the wizard done without setting anything up', async () => {
    fetch = stubFetch({ 'POST /api/onboarding/complete': { ok: true, completed: true } });
    const { el, done } = await mount();
    await click(el, '[data-role="onboarding-skip"]');
    await waitFor(() => expect(done).to.deep.equal([null]));
    expect(fetch.calls.map((c) => `${c.method} ${c.url}`)).to.deep.equal(['POST /api/onboarding/complete']);
  });

  it('labels every field, and Back returns to the previous step', async () => {
    fetch = stubFetch({ 'POST /api/onboarding/probe': OK });
    const { el } = await mount();
    await toConnect(el, 'lmstudio');
    for (const input of $$(el, 'input, select')) {
      const labelled = input.getAttribute('aria-label') || el.shadowRoot!.querySelector(`label[for="${input.id}"]`);
      expect(labelled, `${input.outerHTML} has a label`).to.be.ok;
    }
    await click(el, '[data-role="onboarding-back"]');
    expect(el.step).to.equal('provider');
  });
});
