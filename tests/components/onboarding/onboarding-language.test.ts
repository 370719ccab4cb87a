import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/onboarding/hermes-onboarding.js';
import '../../../components/settings/hermes-login.js';
import type { HermesOnboarding } from '../../../components/onboarding/hermes-onboarding.js';
import type { HermesLogin } from '../../../components/settings/hermes-login.js';
import type { ProbeResult } from '../../../components/api/client.js';
import { applyLanguage, loadMessages } from '../../../components/i18n/localization.js';
import { status } from './status.js';

const one = (el: Element, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel);
const words = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

async function click(el: HermesOnboarding, sel: string) {
  const target = one(el, sel);
  if (!target) throw new Error(`nothing matches ${sel}`);
  target.click();
  await el.updateComplete;
}

/** A local server that lists 1500 models: enough for a thousands separator. */
const MANY: ProbeResult = {
  ok: true,
  base_url: 'http://127.0.0.1:11434/v1',
  models: Array.from({ length: 1500 }, (_, i) => ({ id: `m-${i}`, label: `m-${i}` })),
};

describe('the first-run wizard and sign-in in another language', () => {
  // The app loads these screens through loadScreen, which brings their messages ('onboarding', 'settings') with them.
  before(() => Promise.all([loadMessages('onboarding'), loadMessages('settings')]));
  let stub: ReturnType<typeof stubFetch>;
  afterEach(async () => {
    cleanup();
    stub.restore();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('German: the steps, a count with the German thousands separator, a refused connection and the password hint; back to English', async () => {
    stub = stubFetch({ 'POST /api/onboarding/probe': MANY });
    const el = await fixture<HermesOnboarding>('hermes-onboarding', { status: status() });
    expect(words(one(el, 'h2'))).to.equal('Let’s get you to a first chat');

    await applyLanguage('de');
    await waitFor(() => words(one(el, 'h2')) === 'Auf zum ersten Chat');
    expect(words(one(el, '.eyebrow'))).to.equal('Willkommen bei Hermes');
    expect([...el.shadowRoot!.querySelectorAll('.step-label')].map(words)).to.deep.equal(['Prüfen', 'Anbieter', 'Verbinden', 'Abschluss']);
    expect(one(el, '.steps')!.getAttribute('aria-label')).to.equal('Einrichtungsschritte');
    // The config path stays as it is, in its code span.
    expect(words(one(el, '[data-role="onboarding-facts"] dt'))).to.equal('Konfiguration');

    await click(el, '[data-role="onboarding-next"]');
    expect(words(one(el, '[data-provider="ollama"] .option-blurb'))).to.equal('Offene Modelle, die auf diesem Rechner laufen.');
    await click(el, '[data-provider="ollama"]');
    expect(words(one(el, 'h2'))).to.equal('Ollama verbinden');
    expect(words(one(el, 'label[for="base_url"]'))).to.equal('Basis-URL');
    await click(el, '[data-role="probe"]');
    await waitFor(() => !!one(el, '[data-role="probe-ok"]'));
    expect(words(one(el, '[data-role="probe-ok"]'))).to.equal('Verbunden – 1.500 Modelle');

    await click(el, '[data-role="onboarding-next"]');
    expect(el.step).to.equal('finish');
    expect(words(one(el, '#password-hint'))).to.equal('Mindestens 8 Zeichen.');
    expect(words(one(el, '[data-role="onboarding-done"]'))).to.equal('Fertig – Chat starten');

    await applyLanguage('en');
    await waitFor(() => words(one(el, 'h2')) === 'A folder, and a lock if you want one');
    expect(words(one(el, '#password-hint'))).to.equal('At least 8 characters.');
  });

  it('German: a failed connection test is explained in German, with Hermes’ names kept as code', async () => {
    stub = stubFetch({ 'POST /api/onboarding/probe': { ok: false, error: 'connect_refused', detail: 'ECONNREFUSED' } });
    await applyLanguage('de');
    const el = await fixture<HermesOnboarding>('hermes-onboarding', { status: status() });
    await click(el, '[data-role="onboarding-next"]');
    await click(el, '[data-provider="ollama"]');
    await click(el, '[data-role="probe"]');
    await waitFor(() => !!one(el, '[data-role="probe-error"]'));
    expect(words(one(el, '[data-role="probe-error"] p'))).to.equal(
      'Unter http://127.0.0.1:11434/v1 lauscht nichts – läuft der Server? Aus Docker heraus verwende host.docker.internal statt localhost (unter Linux extra_hosts: "api.local:host-gateway" ergänzen).',
    );
    expect(words(one(el, '[data-role="probe-error"]'))).to.contain('ECONNREFUSED');
    expect([...el.shadowRoot!.querySelectorAll('.hint .mono')].map(words)).to.deep.equal([
      'localhost',
      'host.docker.internal',
      'api.local',
      'extra_hosts: "api.local:host-gateway"',
    ]);
  });

  it('Arabic: the page turns right-to-left and code spans stay left-to-right inside the sentence', async () => {
    stub = stubFetch({});
    await applyLanguage('ar');
    const el = await fixture<HermesOnboarding>('hermes-onboarding', { status: status({ may_setup: false }) });
    expect(document.documentElement.dir).to.equal('rtl');
    expect(words(one(el, 'h2'))).to.equal('أكمل الإعداد على جهاز الخادم');
    const code = one(el, '.options-list li:last-child .mono')!;
    expect(words(code)).to.equal('HERMES_WEBUI_PASSWORD');
    expect(code.getAttribute('dir')).to.equal('ltr');
    expect(words(code.parentElement)).to.contain('سجّل الدخول هنا');
  });

  it('the sign-in page: its words and its own error texts in German', async () => {
    stub = stubFetch({ 'POST /api/auth/login': new Response('{}', { status: 401 }) });
    await applyLanguage('de');
    const el = await fixture<HermesLogin>('hermes-login');
    expect(words(one(el, 'label'))).to.equal('Passwort');
    expect(words(one(el, '.meta'))).to.equal('Melde dich an, um fortzufahren.');
    expect(words(one(el, 'button[type="submit"]'))).to.equal('Anmelden');
    (one(el, 'input') as HTMLInputElement).value = 'nope';
    one(el, 'button[type="submit"]')!.click();
    await waitFor(() => words(one(el, '[role="alert"]')) === 'Falsches Passwort');
  });
});
