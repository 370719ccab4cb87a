import { expect, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import { mountWith, SETTINGS } from '../workspace/providers.js';
import '../../../components/settings/hermes-settings-dialog.js';
import type { HermesSettingsDialog } from '../../../components/settings/hermes-settings-dialog.js';
import type { HermesPasswordSettings } from '../../../components/settings/hermes-password-settings.js';
import { signOutSteps } from '../../../components/settings/sign-out.js';
import { resetCsrfToken, type Settings } from '../../../components/api/client.js';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const OPEN: Settings = { ...SETTINGS, auth_enabled: false, password_auth_enabled: false, password_env_var: false };
const LOCKED: Settings = { ...SETTINGS, auth_enabled: true, password_auth_enabled: true, password_env_var: false };
const FROM_ENV: Settings = { ...LOCKED, password_env_var: true };

const rows = (el: HermesSettingsDialog) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-setting]')].map((r) => r.dataset.setting);
const row = (el: HermesSettingsDialog, id: string) => el.shadowRoot!.querySelector<HTMLElement>(`[data-setting="${id}"]`);
const pw = (el: HermesSettingsDialog) => el.shadowRoot!.querySelector<HermesPasswordSettings>('hermes-password-settings')!;
const $ = <T extends Element = HTMLElement>(el: HermesSettingsDialog, selector: string) => pw(el).shadowRoot!.querySelector<T>(selector);
const alertText = (el: HermesSettingsDialog) => $(el, '[role="alert"]')?.textContent?.trim() ?? '';
const settingsPosts = (calls: FetchCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/settings');

async function click(el: HermesSettingsDialog, action: string) {
  $<HTMLButtonElement>(el, `[data-action="${action}"]`)!.click();
  await pw(el).updateComplete;
}

async function fill(el: HermesSettingsDialog, values: Partial<Record<'current' | 'new' | 'confirm', string>>) {
  for (const [name, value] of Object.entries(values)) $<HTMLInputElement>(el, `input[name="${name}"]`)!.value = value;
  $<HTMLButtonElement>(el, '[data-action="submit"]')!.click();
  await pw(el).updateComplete;
}

describe('settings: Security', () => {
  let fetch: ReturnType<typeof stubFetch>;
  const steps = { ...signOutSteps };
  beforeEach(() => resetCsrfToken());
  afterEach(() => {
    fetch.restore();
    Object.assign(signOutSteps, steps);
    cleanup();
  });

  it('without a password: says so, validates the new one, sets it, and then offers Sign out', async () => {
    fetch = stubFetch({ 'GET /api/models': { default_model: null, models: [] }, 'POST /api/settings': { ...LOCKED } });
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: OPEN });
    expect(el.shadowRoot!.querySelector('section:last-of-type h3')?.textContent).to.equal('Security');
    expect(row(el, 'password')!.textContent).to.contain('Not set');
    expect(rows(el)).not.to.include('sign_out');

    await click(el, 'set');
    expect(pw(el).hasAttribute('open')).to.equal(true);
    expect([...pw(el).shadowRoot!.querySelectorAll('input')].map((i) => i.name)).to.deep.equal(['new', 'confirm']);
    await waitFor(() => expect(pw(el).shadowRoot!.activeElement?.getAttribute('name')).to.equal('new'));

    await fill(el, { new: 'short', confirm: 'short' });
    expect(alertText(el)).to.equal('Use at least 8 characters.');
    expect($(el, 'input[name="new"]')!.getAttribute('aria-invalid')).to.equal('true');
    await fill(el, { new: 'long enough', confirm: 'long enuff' });
    expect(alertText(el)).to.equal('The two new passwords do not match.');
    expect($(el, 'input[name="confirm"]')!.getAttribute('aria-invalid')).to.equal('true');
    expect(settingsPosts(fetch.calls), 'nothing is sent until the form is right').to.have.length(0);
    $(el, 'input[name="confirm"]')!.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await pw(el).updateComplete;
    expect(alertText(el), 'typing again clears the complaint').to.equal('');
    expect($(el, 'input[name="confirm"]')!.getAttribute('aria-invalid')).to.equal('false');

    await fill(el, { new: 'long enough', confirm: 'long enough' });
    await waitFor(() => expect($(el, '[role="status"]')?.textContent).to.contain('Password set.'));
    expect(settingsPosts(fetch.calls).map((c) => c.body)).to.deep.equal([{ _set_password: 'long enough' }]);
    expect(pw(el).hasAttribute('open')).to.equal(false);
    expect(ui.settings?.auth_enabled).to.equal(true);
    await el.updateComplete;
    expect(row(el, 'password')!.textContent).to.contain('Required to open Hermes');
    expect(rows(el)).to.include('sign_out');
    expect($(el, '[data-action="change"]')).to.exist;
  });

  it('changing the password needs the current one and shows the server’s refusals inline', async () => {
    let answer: Response | Settings = json(403, { error: 'Current password is incorrect' });
    fetch = stubFetch({ 'GET /api/models': { default_model: null, models: [] }, 'POST /api/settings': () => answer });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: LOCKED });
    expect(row(el, 'password')!.textContent).to.contain('Required');
    await click(el, 'change');
    expect([...pw(el).shadowRoot!.querySelectorAll('input')].map((i) => i.name)).to.deep.equal(['current', 'new', 'confirm']);

    await fill(el, { new: 'new password', confirm: 'new password' });
    expect(alertText(el)).to.equal('Enter your current password.');
    expect(settingsPosts(fetch.calls)).to.have.length(0);

    await fill(el, { current: 'wrong one', new: 'new password', confirm: 'new password' });
    await waitFor(() => expect(alertText(el)).to.equal('Current password is incorrect'));
    expect($(el, 'input[name="current"]')!.getAttribute('aria-invalid')).to.equal('true');
    expect(settingsPosts(fetch.calls).at(-1)!.body).to.deep.equal({ _set_password: 'new password', _current_password: 'wrong one' });
    expect(pw(el).hasAttribute('open'), 'the form stays open to be corrected').to.equal(true);

    answer = json(429, { error: 'Too many attempts. Try again in 42 seconds.', retry_after: 42 });
    await fill(el, { current: 'again', new: 'new password', confirm: 'new password' });
    await waitFor(() => expect(alertText(el)).to.equal('Too many attempts. Try again in 42 seconds.'));

    answer = { ...LOCKED };
    await fill(el, { current: 'right one', new: 'new password', confirm: 'new password' });
    await waitFor(() => expect($(el, '[role="status"]')?.textContent).to.contain('Password changed.'));
    expect(alertText(el)).to.equal('');
  });

  it('removes the password with the current one; Cancel and Escape close the form', async () => {
    fetch = stubFetch({ 'GET /api/models': { default_model: null, models: [] }, 'POST /api/settings': { ...OPEN } });
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: LOCKED });
    await click(el, 'remove');
    await click(el, 'cancel');
    expect(pw(el).hasAttribute('open')).to.equal(false);
    await click(el, 'remove');
    const input = $<HTMLInputElement>(el, 'input[name="current"]')!;
    const esc = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true, cancelable: true });
    let reachedWindow = false;
    const onKey = () => (reachedWindow = true);
    window.addEventListener('keydown', onKey);
    input.dispatchEvent(esc);
    window.removeEventListener('keydown', onKey);
    await pw(el).updateComplete;
    expect(esc.defaultPrevented, 'the dialog does not cancel').to.equal(true);
    expect(reachedWindow, 'the app’s Escape (close settings) does not see it').to.equal(false);
    expect(pw(el).hasAttribute('open')).to.equal(false);

    await click(el, 'remove');
    expect([...pw(el).shadowRoot!.querySelectorAll('input')].map((i) => i.name)).to.deep.equal(['current']);
    await fill(el, { current: 'the password' });
    await waitFor(() => expect($(el, '[role="status"]')?.textContent).to.contain('Password removed.'));
    expect(settingsPosts(fetch.calls).map((c) => c.body)).to.deep.equal([{ _clear_password: true, _current_password: 'the password' }]);
    await el.updateComplete;
    expect(ui.settings?.auth_enabled).to.equal(false);
    expect(rows(el)).not.to.include('sign_out');
    expect($(el, '[data-action="set"]')).to.exist;
  });

  it('a password from HERMES_WEBUI_PASSWORD is shown, not editable', async () => {
    fetch = stubFetch({ 'GET /api/models': { default_model: null, models: [] } });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: FROM_ENV });
    expect(row(el, 'password')!.textContent).to.contain('HERMES_WEBUI_PASSWORD');
    expect(row(el, 'password')!.textContent).to.contain('can only be changed there');
    expect(pw(el).shadowRoot!.querySelectorAll('button, input')).to.have.length(0);
    expect(rows(el)).to.include('sign_out');
  });

  it('finds the Security rows by search', async () => {
    fetch = stubFetch({ 'GET /api/models': { default_model: null, models: [] } });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: LOCKED });
    const search = el.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    for (const [text, expected] of [
      ['password', ['password', 'api_redact_enabled']],
      ['logout', ['sign_out']],
      ['security', ['password', 'api_redact_enabled', 'sign_out']],
      ['redact', ['api_redact_enabled']],
    ] as const) {
      search.value = text;
      search.dispatchEvent(new Event('input'));
      await el.updateComplete;
      expect(rows(el), text).to.deep.equal(expected);
    }
  });

  it('Sign out: logs out, then wipes the offline cache, then goes to /login', async () => {
    const order: string[] = [];
    fetch = stubFetch({
      'GET /api/models': { default_model: null, models: [] },
      'GET /api/auth/status': { auth_enabled: true, logged_in: true, csrf_token: 'tok' },
      'POST /api/auth/logout': (c: FetchCall) => {
        order.push(`logout ${c.headers['x-hermes-csrf-token']}`);
        return { ok: true };
      },
    });
    signOutSteps.wipe = async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push('wipe');
    };
    signOutSteps.navigate = (url) => order.push(`navigate ${url}`);
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: LOCKED });
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="sign-out"]')!.click();
    await waitFor(() => expect(order).to.deep.equal(['logout tok', 'wipe', 'navigate /login']));
  });

  it('Sign out with the server unreachable says so and keeps the cache', async () => {
    const order: string[] = [];
    fetch = stubFetch({ 'GET /api/models': { default_model: null, models: [] } });
    const original = window.fetch;
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      String(input).includes('/api/auth/') ? Promise.reject(new TypeError('Failed to fetch')) : original(input, init)) as typeof window.fetch;
    signOutSteps.wipe = async () => void order.push('wipe');
    signOutSteps.navigate = (url) => order.push(`navigate ${url}`);
    try {
      const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: LOCKED });
      el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="sign-out"]')!.click();
      await waitFor(() => expect(row(el, 'sign_out')!.querySelector('[role="alert"]')?.textContent).to.contain('cannot be reached'));
      expect(order).to.deep.equal([]);
      expect(el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="sign-out"]')!.disabled).to.equal(false);
    } finally {
      window.fetch = original;
    }
  });

  it('an expired sign-in (401) during Sign out still wipes and leaves', async () => {
    const order: string[] = [];
    fetch = stubFetch({ 'GET /api/models': { default_model: null, models: [] }, 'POST /api/auth/logout': json(401, { error: 'Authentication required' }) });
    signOutSteps.wipe = async () => void order.push('wipe');
    signOutSteps.navigate = (url) => order.push(`navigate ${url}`);
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { settings: LOCKED });
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="sign-out"]')!.click();
    await waitFor(() => expect(order).to.deep.equal(['wipe', 'navigate /login']));
  });
});
