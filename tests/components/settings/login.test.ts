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
