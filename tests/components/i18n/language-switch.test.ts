import { cleanup, expect, fixture, waitFor } from '../helpers.js';
import '../../../components/app/hermes-update-prompt.js';
import type { HermesUpdatePrompt } from '../../../components/app/hermes-update-prompt.js';
import { UpdateStore } from '../../../components/offline/sw-register.js';
import { UiStore } from '../../../components/state/ui-store.js';
import { applyLanguage, currentLocale } from '../../../components/i18n/localization.js';
import { formatNumber, formatRelative } from '../../../components/i18n/format.js';

const text = (el: HermesUpdatePrompt) => el.shadowRoot!.querySelector('[data-role="update-prompt"]')!.textContent!.replace(/\s+/g, ' ').trim();

async function prompt(): Promise<HermesUpdatePrompt> {
  const store = new UpdateStore();
  store.setWaiting({} as ServiceWorker);
  const ui = new UiStore();
  ui.settings = { theme: 'dark', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '', bot_name: 'Hermes' };
  return fixture<HermesUpdatePrompt>('hermes-update-prompt', { store, ui });
}

describe('switching language', () => {
  afterEach(async () => {
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('re-renders a shown component in the chosen language, sets <html lang dir>, and back', async () => {
    const el = await prompt();
    expect(text(el)).to.equal('Update available Reload');
    await applyLanguage('de');
    await waitFor(() => text(el) === 'Update verfügbar Neu laden');
    expect(document.documentElement.lang).to.equal('de');
    expect(document.documentElement.dir).to.equal('ltr');
    expect(currentLocale()).to.equal('de');

    await applyLanguage('ar');
    await waitFor(() => text(el) === 'يتوفر تحديث إعادة التحميل');
    expect(document.documentElement.dir).to.equal('rtl');

    await applyLanguage('en');
    await waitFor(() => text(el) === 'Update available Reload');
    expect(document.documentElement.dir).to.equal('ltr');
  });

  it('the pseudo-locale marks every message, so an untranslated one stands out', async () => {
    const el = await prompt();
    await applyLanguage('en-XA');
    await waitFor(() => text(el) === '⟦Üþďáţé áṽáíļáƀļé⟧ ⟦Ŕéļöáď⟧');
  });

  it('remembers the choice for the next first paint, and formats numbers and times in the language', async () => {
    await applyLanguage('fr');
    expect(JSON.parse(localStorage.getItem('hermes:language')!)).to.deep.equal({ setting: 'fr', code: 'fr', dir: 'ltr' });
    expect(formatNumber(1234.5)).to.equal('1\u202f234,5');
    expect(formatRelative(Date.now() - 3 * 60_000).replace(/\s/g, ' ')).to.equal('il y a 3 min');
  });
});
