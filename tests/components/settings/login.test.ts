import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/settings/hermes-login.js';
import { nextUrl, type HermesLogin } from '../../../components/settings/hermes-login.js';

async function signIn(el: HermesLogin, password = 'secret') {
  const input = el.shadowRoot!.querySelector('input')!;
  input.value = password;
  el.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
}
const errorText = (el: HermesLogin) => el.shadowRoot!.querySelector('[role="alert"]')?.textContent?.trim();

describe('hermes-login', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => {
    fetch.restore();
    cleanup();
  });

  it('shows the bot name and says when password login is not enabled (404)', async () => {
    fetch = stubFetch({ 'GET /api/settings': { bot_name: 'Athena' } });
    const el = await fixture<HermesLogin>('hermes-login');
    await waitFor(() => expect(el.shadowRoot!.querySelector('h1')?.textContent).to.equal('Athena'));
    await signIn(el);
    await waitFor(() => expect(errorText(el)).to.equal('Password login is not enabled on this server'));
    expect(fetch.calls.find((c) => c.url === '/api/auth/login')?.body).to.deep.equal({ password: 'secret' });
    expect(el.shadowRoot!.querySelector('input')!.getAttribute('aria-invalid')).to.equal('false');
  });

  it('shows the server’s error for a wrong password (401)', async () => {
    fetch = stubFetch({ 'POST /api/auth/login': new Response(JSON.stringify({ error: 'Invalid password' }), { status: 401 }) });
    const el = await fixture<HermesLogin>('hermes-login');
    await signIn(el, 'nope');
    await waitFor(() => expect(errorText(el)).to.equal('Invalid password'));
    expect(el.shadowRoot!.querySelector('input')!.getAttribute('aria-invalid')).to.equal('true');
  });

  it('goes to ?next= after signing in', async () => {
    fetch = stubFetch({ 'POST /api/auth/login': { ok: true } });
    const el = await fixture<HermesLogin>('hermes-login');
    const went: string[] = [];
    el.navigate = (url) => went.push(url);
    history.replaceState(null, '', `${location.pathname}?next=/session/abc`);
    await signIn(el);
    await waitFor(() => expect(went).to.deep.equal(['/session/abc']));
    history.replaceState(null, '', location.pathname);
  });

  it('only follows ?next= to a path on this site', () => {
    fetch = stubFetch({});
    expect(nextUrl('?next=/session/x?y=1')).to.equal('/session/x?y=1');
    expect(nextUrl('?next=//evil.example')).to.equal('/');
    expect(nextUrl('?next=/\\evil.example')).to.equal('/');
    expect(nextUrl('?next=https://evil.example')).to.equal('/');
    expect(nextUrl('')).to.equal('/');
  });
});

describe('hermes-login: arriving', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => {
    fetch.restore();
    cleanup();
    history.replaceState(null, '', location.pathname);
  });

  for (const [what, status] of [
    ['already signed in', { auth_enabled: true, logged_in: true, csrf_token: 't' }],
    ['no password on this server', { auth_enabled: false, logged_in: true }],
  ] as const) {
    it(`goes straight to ?next= when ${what}`, async () => {
      fetch = stubFetch({ 'GET /api/auth/status': status });
      history.replaceState(null, '', `${location.pathname}?next=${encodeURIComponent('/session/abc?x=1')}`);
      const went: string[] = [];
      await fixture<HermesLogin>('hermes-login', { navigate: (url: string) => went.push(url) });
      await waitFor(() => expect(went).to.deep.equal(['/session/abc?x=1']));
    });
  }

  it('stays when a password is needed, and shows the server’s rate limit', async () => {
    fetch = stubFetch({
      'GET /api/auth/status': { auth_enabled: true, logged_in: false },
      'POST /api/auth/login': new Response(JSON.stringify({ error: 'Too many attempts. Try again in 37 seconds.', retry_after: 37 }), { status: 429 }),
    });
    const went: string[] = [];
    const el = await fixture<HermesLogin>('hermes-login', { navigate: (url: string) => went.push(url) });
    await waitFor(() => expect(fetch.calls.some((c) => c.url === '/api/auth/status')).to.equal(true));
    await signIn(el);
    await waitFor(() => expect(errorText(el)).to.equal('Too many attempts. Try again in 37 seconds.'));
    expect(el.shadowRoot!.querySelector('input')!.getAttribute('aria-invalid'), 'not the password’s fault').to.equal('false');
    expect(went).to.deep.equal([]);
  });
});

describe('nextUrl: hostile values', () => {
  const origin = 'http://127.0.0.1:8787';
  const next = (value: string) => nextUrl(`?next=${encodeURIComponent(value)}`, origin);

  it('keeps paths of this site, query and all', () => {
    expect(next('/session/abc?x=1&y=2')).to.equal('/session/abc?x=1&y=2');
    expect(next('/')).to.equal('/');
    expect(next('/%2F%2Fevil.com'), 'an encoded slash stays part of the path').to.equal('/%2F%2Fevil.com');
    expect(next('/session/a#frag')).to.equal('/session/a#frag');
  });

  it('sends everything else to /', () => {
    for (const value of [
      '//evil.com',
      '///evil.com',
      '/\\evil.com',
      '\\\\evil.com',
      'https://evil.com',
      'http://127.0.0.1:8787.evil.com/',
      'javascript:alert(1)',
      'data:text/html,hi',
      'evil.com',
      ' /session/x',
      '/\t/evil.com',
      '/\n/evil.com',
      '/../\\evil.com',
      '/..//evil.com',
      '/./\\/evil.com',
      '',
    ]) {
      expect(next(value), JSON.stringify(value)).to.equal('/');
    }
    expect(nextUrl('?next=//evil.com&next=/fine', origin), 'the first value counts').to.equal('/');
  });

  it('does not send a signed-in person back to /login', () => {
    expect(next('/login?next=/x')).to.equal('/');
  });
});
