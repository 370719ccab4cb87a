import { expect, cleanup, stubFetch, waitFor } from '../helpers.js';
import { mountWith, session } from '../workspace/providers.js';
import '../../../components/settings/hermes-settings-dialog.js';
import type { HermesSettingsDialog } from '../../../components/settings/hermes-settings-dialog.js';
import { applyLanguage, loadMessages } from '../../../components/i18n/localization.js';

const flat = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

function stub() {
  return stubFetch({
    'GET /api/models': { default_model: 'claude-x', models: [{ id: 'claude-x', label: 'Claude X', provider: 'anthropic' }] },
    'GET /api/workspaces': { workspaces: [{ path: '/home/me', name: 'Home' }], last: '/home/me' },
    'GET /api/providers': {
      active_provider: 'anthropic',
      providers: [
        {
          id: 'anthropic',
          label: 'Anthropic',
          kind: 'hosted',
          key_env: 'ANTHROPIC_API_KEY',
          key_set: true,
          key_masked: 'sk-ant-…beef',
          base_url: null,
          active: true,
          status: 'ok',
          models_count: 1234,
        },
      ],
    },
  });
}

describe('settings in another language', () => {
  // The app loads these screens through loadScreen, which brings their messages ('settings') with them.
  before(() => Promise.all([loadMessages('settings')]));
  let fetch: ReturnType<typeof stub>;
  afterEach(async () => {
    fetch.restore();
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('re-renders its title, sections, rows and counts in German, finds rows by German words, and goes back', async () => {
    fetch = stub();
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { session: session() });
    const $ = (sel: string) => el.shadowRoot!.querySelector(sel);
    const status = () => flat($('[data-setting="provider:anthropic"] [data-role="provider-status"]'));
    await waitFor(() => expect(status()).to.equal('Works · 1,234 models active'));
    expect(flat($('#title'))).to.equal('Settings');
    expect(flat($('[data-setting="theme"] label'))).to.equal('Theme');

    await applyLanguage('de');
    await waitFor(() => flat($('#title')) === 'Einstellungen');
    expect(flat($('section h3'))).to.equal('Darstellung');
    expect(flat($('[data-setting="theme"] label[for="theme"]'))).to.equal('Design');
    expect([...el.shadowRoot!.querySelectorAll('[data-setting="theme"] .segmented span')].map(flat)).to.deep.equal(['Dunkel', 'Hell', 'System']);
    expect(status()).to.equal('Funktioniert · 1.234 Modelle aktiv');
    expect($('[data-action="close"]')?.getAttribute('aria-label')).to.equal('Einstellungen schließen');
    expect($('input[type="search"]')?.getAttribute('placeholder')).to.equal('Einstellungen durchsuchen');

    // The search reads the words on screen, umlauts included.
    const search = $('input[type="search"]') as HTMLInputElement;
    search.value = 'schriftgröße';
    search.dispatchEvent(new Event('input'));
    await waitFor(() => expect([...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-setting]')].map((r) => r.dataset.setting)).to.deep.equal(['font_size']));
    search.value = 'zzz';
    search.dispatchEvent(new Event('input'));
    await waitFor(() => expect(flat($('.empty'))).to.equal('Keine Einstellung passt zu „zzz“.'));

    await applyLanguage('en');
    await waitFor(() => flat($('#title')) === 'Settings');
    expect(flat($('.empty'))).to.equal('No settings match “zzz”.');
  });
});
