import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import { mountSidebar, row } from '../sidebar/setup.js';
import '../../../components/composer/hermes-profile-chip.js';
import type { HermesProfileChip } from '../../../components/composer/hermes-profile-chip.js';
import { profileStore } from '../../../components/state/profile-store.js';

const profile = (name: string, model: string | null = null) => ({
  name,
  path: `/h/${name}`,
  is_default: name === 'default',
  is_active: false,
  gateway_running: null,
  model,
  provider: null,
  has_env: true,
  skill_count: 0,
  enabled_skills: 0,
  total_skills: 0,
});
const list = (active: string, ...names: string[]) => ({ profiles: names.map((n) => profile(n, `${n}-model`)), active, single_profile_mode: false });
const part = (el: HTMLElement, role: string) => el.shadowRoot!.querySelector<HTMLElement>(`[data-role="${role}"]`);

describe('hermes-profile-chip', () => {
  let stub: ReturnType<typeof stubFetch> | undefined;
  afterEach(() => {
    cleanup();
    stub?.restore();
  });

  it('is hidden while default is the only profile', async () => {
    stub = stubFetch({ 'GET /api/profiles': list('default', 'default') });
    await profileStore.load();
    const el = await fixture<HermesProfileChip>('hermes-profile-chip');
    await el.updateComplete;
    expect(part(el, 'profile-chip')).to.equal(null);
  });

  it('shows the active profile and switches from its menu, telling the page', async () => {
    let active = 'default';
    stub = stubFetch({
      'GET /api/profiles': () => list(active, 'default', 'work'),
      'POST /api/profile/switch': (c) => ((active = c.body.name), { ...list(active, 'default', 'work'), default_workspace: '/w' }),
    });
    await profileStore.load();
    const el = await fixture<HermesProfileChip>('hermes-profile-chip');
    await waitFor(() => !!part(el, 'profile-chip'));
    expect(part(el, 'profile-chip')!.textContent).to.contain('default');
    const changed: string[] = [];
    const onChange = (e: Event) => changed.push((e as CustomEvent<{ name: string }>).detail.name);
    window.addEventListener('hermes-profile-changed', onChange);
    let modelsChanged = 0;
    const onModels = () => modelsChanged++;
    window.addEventListener('hermes-models-changed', onModels);
    try {
      part(el, 'profile-chip')!.click();
      await el.updateComplete;
      const options = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="profile-option"]')];
      expect(options.map((o) => o.dataset.profile)).to.deep.equal(['default', 'work']);
      expect(options[0]!.getAttribute('aria-checked')).to.equal('true');
      expect(options[1]!.textContent).to.contain('work-model');
      options[1]!.click();
      await waitFor(() => part(el, 'profile-chip')?.dataset.profile === 'work');
      expect(stub.calls.find((c) => c.method === 'POST')).to.deep.include({ body: { name: 'work' } });
      expect(changed).to.deep.equal(['work']);
      expect(modelsChanged).to.equal(1);
      expect(part(el, 'profile-menu')).to.equal(null);
    } finally {
      window.removeEventListener('hermes-profile-changed', onChange);
      window.removeEventListener('hermes-models-changed', onModels);
    }
  });
});

describe('sidebar "All profiles" toggle', () => {
  afterEach(() => cleanup());

  it('appears with several profiles, lists every profile and names the other rows, and reloads on a switch', async () => {
    const mine = row('a1', { profile: 'work' });
    const theirs = row('b1', { profile: null, updated_at: mine.updated_at - 10 });
    let switched = false;
    const m = await mountSidebar([mine], {
      'GET /api/profiles': () => list(switched ? 'default' : 'work', 'default', 'work'),
      'GET /api/sessions': (c: { url: string }) =>
        c.url.includes('all_profiles=1')
          ? { sessions: [mine, theirs], total: 2, archived_count: 0, all_profiles: true, active_profile: 'work', other_profile_count: 0 }
          : switched
            ? { sessions: [theirs], total: 1, archived_count: 0, all_profiles: false, active_profile: 'default', other_profile_count: 1 }
            : { sessions: [mine], total: 1, archived_count: 0, all_profiles: false, active_profile: 'work', other_profile_count: 1 },
    });
    try {
      await profileStore.load();
      const toggleHost = m.sidebar.shadowRoot!.querySelector('hermes-all-profiles-toggle')!;
      await waitFor(() => !!toggleHost.shadowRoot?.querySelector('[data-role="all-profiles"]'));
      const toggle = toggleHost.shadowRoot!.querySelector<HTMLElement>('[data-role="all-profiles"]')!;
      expect(toggle.getAttribute('aria-pressed')).to.equal('false');
      expect(m.rowEl('a1').shadowRoot.querySelector('[data-role="row-profile"]')).to.equal(null);

      toggle.click();
      await waitFor(() => m.$$('[data-role="session-row"]').length === 2);
      expect(m.calls.some((c) => c.url.includes('/api/projects?all_profiles=1'))).to.equal(true);
      await waitFor(() => toggle.getAttribute('aria-pressed') === 'true');
      expect(m.rowEl('a1').shadowRoot.querySelector('[data-role="row-profile"]')).to.equal(null);
      expect(m.rowEl('b1').shadowRoot.querySelector('[data-role="row-profile"]')!.textContent).to.equal('default');

      toggle.click();
      await waitFor(() => m.$$('[data-role="session-row"]').length === 1);
      // Another profile chosen elsewhere (the chip): the list loads that profile's rows.
      switched = true;
      window.dispatchEvent(new CustomEvent('hermes-profile-changed', { detail: { name: 'default' } }));
      await waitFor(() => !!m.rowEl('b1'));
      expect(m.$$('[data-role="session-row"]')).to.have.length(1);
    } finally {
      m.restore();
    }
  });

  it('is absent while default is the only profile', async () => {
    const m = await mountSidebar([row('a1')], { 'GET /api/profiles': list('default', 'default') });
    try {
      await profileStore.load();
      const toggleHost = m.sidebar.shadowRoot!.querySelector('hermes-all-profiles-toggle')!;
      await (toggleHost as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(toggleHost.shadowRoot!.querySelector('[data-role="all-profiles"]')).to.equal(null);
    } finally {
      m.restore();
    }
  });
});
