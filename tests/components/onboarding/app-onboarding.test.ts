import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/app/hermes-app.js';
import type { HermesApp } from '../../../components/app/hermes-app.js';
import { status } from './status.js';

const COMMON = {
  'GET /api/settings': { theme: 'dark', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '/w', bot_name: 'Hermes' },
  'GET /api/sessions': { sessions: [], total: 0, archived_count: 0 },
  'GET /api/projects': { projects: [] },
  'GET /api/models': {
    default_model: 'qwen3-8b',
    models: [{ id: 'qwen3-8b', label: 'qwen3-8b', provider: 'custom' }],
    groups: [],
    active_provider: 'custom',
    stale: false,
    fetched_at: 1,
  },
  'GET /api/workspaces': { workspaces: [], last: '' },
};

describe('hermes-app and the onboarding wizard', () => {
  let fetch: ReturnType<typeof stubFetch>;
  const path = location.pathname + location.search;
  beforeEach(() => history.replaceState(null, '', '/'));
  afterEach(() => {
    cleanup();
    fetch.restore();
    history.replaceState(null, '', path);
  });

  it('shows the wizard at / when the server says it is needed, and only the wizard', async () => {
    fetch = stubFetch({ ...COMMON, 'GET /api/onboarding/status': status() });
    const el = await fixture<HermesApp>('hermes-app');
    await waitFor(() => expect(el.shadowRoot!.querySelector('hermes-onboarding')).to.exist);
    const wizard = el.shadowRoot!.querySelector('hermes-onboarding')!;
    await wizard.updateComplete;
    expect(wizard.shadowRoot!.querySelector('[data-role="onboarding"]')).to.exist;
    expect(el.shadowRoot!.querySelector('.layout')).to.equal(null);
    expect(fetch.calls.filter((c) => c.url === '/api/onboarding/status')).to.have.length(1);
  });

  it('shows the normal app when onboarding is not needed', async () => {
    fetch = stubFetch({ ...COMMON, 'GET /api/onboarding/status': status({ needed: false, completed: true }) });
    const el = await fixture<HermesApp>('hermes-app');
    await waitFor(() => expect(el.shadowRoot!.querySelector('.layout')).to.exist);
    expect(el.shadowRoot!.querySelector('hermes-onboarding')).to.equal(null);
  });

  it('shows the normal app when the status call fails', async () => {
    fetch = stubFetch({ ...COMMON, 'GET /api/onboarding/status': new Response('{"error":"boom"}', { status: 500 }) });
    const el = await fixture<HermesApp>('hermes-app');
    await waitFor(() => expect(el.shadowRoot!.querySelector('.layout')).to.exist);
  });

  it('does not ask on a session URL', async () => {
    history.replaceState(null, '', '/session/abc');
    fetch = stubFetch({ ...COMMON, 'GET /api/onboarding/status': status(), 'GET /api/session': new Response('{"error":"not found"}', { status: 404 }) });
    const el = await fixture<HermesApp>('hermes-app');
    expect(el.shadowRoot!.querySelector('.layout')).to.exist;
    expect(fetch.calls.some((c) => c.url === '/api/onboarding/status')).to.equal(false);
  });

  it('after the wizard is done: the chat view, its composer focused, settings loaded again', async () => {
    fetch = stubFetch({ ...COMMON, 'GET /api/onboarding/status': status() });
    const el = await fixture<HermesApp>('hermes-app');
    await waitFor(() => expect(el.shadowRoot!.querySelector('hermes-onboarding')).to.exist);
    const settingsLoads = fetch.calls.filter((c) => c.url === '/api/settings').length;
    el.shadowRoot!.querySelector('hermes-onboarding')!.dispatchEvent(
      new CustomEvent('hermes-onboarding-done', { detail: { status: null }, bubbles: true, composed: true }),
    );
    await waitFor(() => expect(el.shadowRoot!.querySelector('hermes-chat-view')).to.exist);
    await waitFor(() => expect(fetch.calls.filter((c) => c.url === '/api/settings').length).to.be.greaterThan(settingsLoads));
    const deepActive = () => {
      let a: Element | null = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a;
    };
    await waitFor(() => expect(deepActive()?.getAttribute('data-role')).to.equal('composer-input'));
  });
});
