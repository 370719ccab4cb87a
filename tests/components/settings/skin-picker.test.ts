import { expect, cleanup, fixture, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import { mountWith, SETTINGS } from '../workspace/providers.js';
import '../../../components/settings/hermes-settings-dialog.js';
import '../../../components/settings/hermes-skin-picker.js';
import type { HermesSettingsDialog } from '../../../components/settings/hermes-settings-dialog.js';
import type { HermesSkinPicker } from '../../../components/settings/hermes-skin-picker.js';
import { SKINS } from '../../../src/shared/skins.js';

/** The page's stylesheets as the app links them: the tokens, then the skins. */
async function loadSheets(): Promise<void> {
  for (const file of ['tokens.css', 'skins.css']) {
    if (document.querySelector(`link[data-sheet="${file}"]`)) continue;
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: `/components/styles/${file}` });
    link.dataset.sheet = file;
    const loaded = new Promise((resolve) => link.addEventListener('load', resolve, { once: true }));
    document.head.append(link);
    await loaded;
  }
}

const options = (el: HermesSkinPicker) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-skin-option]')];
const checked = (el: HermesSkinPicker) => el.shadowRoot!.querySelector<HTMLInputElement>('input[name="skin"]:checked')?.value;
const swatchBg = (el: HermesSkinPicker, id: string) => getComputedStyle(el.shadowRoot!.querySelector(`[data-skin-option="${id}"] .swatch`)!).backgroundColor;
const pageBg = () => getComputedStyle(document.documentElement).getPropertyValue('--hermes-color-neutral').trim();

describe('hermes-skin-picker', () => {
  const root = document.documentElement;
  const before = { theme: root.dataset.theme, skin: root.dataset.skin };
  let fetch: ReturnType<typeof stubFetch> | null = null;
  beforeEach(loadSheets);
  afterEach(() => {
    fetch?.restore();
    fetch = null;
    cleanup();
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete root.dataset[k];
      else root.dataset[k] = v;
    }
    localStorage.removeItem('hermes:theme');
    localStorage.removeItem('hermes:skin');
    localStorage.removeItem('hermes:font-size');
  });

  it('offers every skin with a swatch in its own colours, for the variant the theme shows', async () => {
    const el = await fixture<HermesSkinPicker>('hermes-skin-picker', { value: 'paper', theme: 'dark' });
    expect(options(el).map((o) => o.dataset.skinOption)).to.deep.equal(SKINS.map((s) => s.id));
    expect(options(el).map((o) => o.querySelector('.name')?.textContent)).to.include.members(['Calm Console', 'High contrast', 'Paper', 'Colour-blind safe']);
    expect(checked(el)).to.equal('paper');
    // Paper's dark and light backgrounds (skins.css).
    expect(swatchBg(el, 'paper')).to.equal('rgb(27, 25, 20)');
    el.theme = 'light';
    await el.updateComplete;
    expect(swatchBg(el, 'paper')).to.equal('rgb(246, 241, 231)');
    expect(swatchBg(el, 'default')).to.equal('rgb(234, 224, 213)');
  });

  it('each swatch is its skin’s own colours: what the page shows with that skin and variant (read from the stylesheets, not a copy)', async () => {
    for (const variant of ['dark', 'light'] as const) {
      const el = await fixture<HermesSkinPicker>('hermes-skin-picker', { value: 'default', theme: variant });
      for (const s of SKINS) {
        const swatch = el.shadowRoot!.querySelector<HTMLElement>(`[data-skin-option="${s.id}"] .swatch`)!;
        const shown = ['--sw-bg', '--sw-panel', '--sw-fg', '--sw-accent'].map((v) => swatch.style.getPropertyValue(v).trim());
        root.dataset.skin = s.id;
        root.dataset.theme = variant;
        const page = getComputedStyle(root);
        const tokens = ['--hermes-color-neutral', '--hermes-color-surface', '--hermes-color-primary', '--hermes-color-secondary'].map((t) =>
          page.getPropertyValue(t).trim(),
        );
        expect(shown, `${s.id} ${variant}`).to.deep.equal(tokens);
        expect(
          shown.every((c) => /^#[0-9a-f]{6}$/i.test(c)),
          `${s.id} ${variant}: ${shown}`,
        ).to.equal(true);
      }
      cleanup();
    }
  });

  it('shows a skin only the incumbent draws as Calm Console, which is what the app shows', async () => {
    const el = await fixture<HermesSkinPicker>('hermes-skin-picker', { value: 'hepburn' });
    expect(checked(el)).to.equal('default');
    expect(el.value, 'the stored name is not rewritten until the user picks').to.equal('hepburn');
  });

  it('fires change with the picked skin, from its card or its radio', async () => {
    const el = await fixture<HermesSkinPicker>('hermes-skin-picker', { value: 'default' });
    const picked: string[] = [];
    el.addEventListener('change', () => picked.push(el.value));
    el.shadowRoot!.querySelector<HTMLElement>('[data-skin-option="okabe-ito"]')!.click();
    await el.updateComplete;
    expect(picked).to.deep.equal(['okabe-ito']);
    expect(checked(el)).to.equal('okabe-ito');
    const radio = el.shadowRoot!.querySelector<HTMLInputElement>('input[value="mono"]')!;
    radio.click();
    expect(picked).to.deep.equal(['okabe-ito', 'mono']);
  });

  it('in Settings → Appearance, picking a skin saves it and recolours the page at once', async () => {
    fetch = stubFetch({
      'GET /api/models': { default_model: null, models: [] },
      'GET /api/workspaces': { workspaces: [], last: null },
      'GET /api/providers': { active_provider: null, providers: [] },
      'POST /api/settings': (c: FetchCall) => ({ ...SETTINGS, ...c.body }),
    });
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    ui.applyAppearance();
    const calm = pageBg();
    expect(calm).to.equal('#0a0908');
    const picker = el.shadowRoot!.querySelector<HermesSkinPicker>('[data-setting="skin"] hermes-skin-picker')!;
    await picker.updateComplete;
    picker.shadowRoot!.querySelector<HTMLElement>('[data-skin-option="solarized"]')!.click();
    await waitFor(() => expect(fetch!.calls.find((c) => c.method === 'POST' && c.url === '/api/settings')?.body).to.deep.equal({ skin: 'solarized' }));
    expect(root.dataset.skin).to.equal('solarized');
    expect(localStorage.getItem('hermes:skin'), 'what the pre-paint script reads next load').to.equal('solarized');
    expect(pageBg()).to.equal('#002b36');
    await waitFor(() => expect(ui.settings?.skin).to.equal('solarized'));
    // The search finds it by what people call it.
    const search = el.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    search.value = 'high contrast';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-setting]')].map((r) => r.dataset.setting)).to.deep.equal(['skin']);
  });

  it('puts the saved skin back when the server refuses it', async () => {
    fetch = stubFetch({
      'GET /api/models': { default_model: null, models: [] },
      'GET /api/workspaces': { workspaces: [], last: null },
      'GET /api/providers': { active_provider: null, providers: [] },
      'POST /api/settings': new Response(JSON.stringify({ error: 'skin: Invalid input' }), { status: 400 }),
    });
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: { ...SETTINGS, skin: 'mono' } });
    ui.applyAppearance();
    const picker = el.shadowRoot!.querySelector<HermesSkinPicker>('hermes-skin-picker')!;
    await picker.updateComplete;
    picker.shadowRoot!.querySelector<HTMLElement>('[data-skin-option="paper"]')!.click();
    await waitFor(() => expect(ui.toast?.message).to.contain('skin'));
    expect(root.dataset.skin).to.equal('mono');
    await el.updateComplete;
    await picker.updateComplete;
    expect(checked(picker)).to.equal('mono');
  });
});
