import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/panels/profiles/hermes-profiles-panel.js';
import type { HermesProfilesPanel } from '../../../components/panels/profiles/hermes-profiles-panel.js';

const row = (name: string, fields: Record<string, unknown> = {}) => ({
  name,
  path: `/h/${name}`,
  is_default: name === 'default',
  is_active: false,
  gateway_running: null,
  model: null,
  provider: null,
  has_env: false,
  skill_count: 0,
  enabled_skills: 0,
  total_skills: 0,
  ...fields,
});

describe('hermes-profiles-panel', () => {
  let stub: ReturnType<typeof stubFetch> | undefined;
  afterEach(() => {
    cleanup();
    stub?.restore();
    sessionStorage.clear();
  });

  it('says plainly when the deployment has one profile', async () => {
    stub = stubFetch({ 'GET /api/profiles': { profiles: [row('default')], active: 'default', single_profile_mode: true } });
    const el = await fixture<HermesProfilesPanel>('hermes-profiles-panel');
    await waitFor(() => !!el.shadowRoot!.querySelector('[data-role="single-profile"]'));
    expect(el.shadowRoot!.querySelector('[data-role="single-profile"]')!.textContent).to.contain('one profile');
    expect(el.shadowRoot!.querySelector('[data-role="profile-create"]')).to.equal(null);
  });

  it('shows each profile with its model and skills, and creates one from a provider key and model', async () => {
    const rows = [row('default', { model: 'gpt-5', skill_count: 3 })];
    stub = stubFetch({
      'GET /api/profiles': () => ({ profiles: rows, active: 'default', single_profile_mode: false }),
      'POST /api/profile/create': (c) => {
        const made = row(c.body.name, { model: c.body.default_model, has_env: true });
        rows.push(made);
        return { ok: true, profile: made };
      },
    });
    const el = await fixture<HermesProfilesPanel>('hermes-profiles-panel');
    const root = el.shadowRoot!;
    await waitFor(() => root.querySelectorAll('[data-role="profile-row"]').length === 1);
    const first = root.querySelector<HTMLElement>('[data-role="profile-row"]')!;
    expect(first.hasAttribute('data-active')).to.equal(true);
    expect(first.textContent).to.contain('gpt-5');
    expect(first.textContent).to.contain('3 skills');
    // default is never offered for deletion.
    expect(first.querySelector('[data-role="profile-delete"]')).to.equal(null);

    const form = root.querySelector('hermes-profile-create')!;
    const f = form.shadowRoot!;
    f.querySelector<HTMLInputElement>('[data-role="profile-mode"][value="key"]')!.click();
    await waitFor(() => !!f.querySelector('[data-role="profile-api-key"]'));
    const set = (role: string, value: string) => (f.querySelector<HTMLInputElement>(`[data-role="${role}"]`)!.value = value);
    set('profile-name', 'Bad Name');
    f.querySelector<HTMLElement>('[data-role="profile-create-submit"]')!.click();
    await waitFor(() => !!f.querySelector('[data-role="profile-create-error"]'));
    expect(stub.calls.some((c) => c.method === 'POST')).to.equal(false);

    set('profile-name', 'lab');
    set('profile-provider', 'openrouter');
    set('profile-model', 'openai/gpt-5-mini');
    set('profile-api-key', 'sk-or-1');
    f.querySelector<HTMLElement>('[data-role="profile-create-submit"]')!.click();
    await waitFor(() => root.querySelectorAll('[data-role="profile-row"]').length === 2);
    expect(stub.calls.find((c) => c.method === 'POST')!.body).to.deep.equal({
      name: 'lab',
      model_provider: 'openrouter',
      api_key: 'sk-or-1',
      default_model: 'openai/gpt-5-mini',
    });
    // The chosen way of creating is remembered for the next visit.
    expect(JSON.parse(sessionStorage.getItem('hermes:panel:profiles')!).mode).to.equal('key');
  });
});
