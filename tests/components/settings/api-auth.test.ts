import { expect, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import { api, authEvents, configureApi, resetCsrfToken, ApiError } from '../../../components/api/client.js';
import { upload } from '../../../components/api/uploads.js';

const CSRF = 'x-hermes-csrf-token';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const signedIn = (token = 'tok-1') => ({
  auth_enabled: true,
  logged_in: true,
  password_auth_enabled: true,
  password_env_var: false,
  session_ttl: 60,
  csrf_token: token,
});
const pathOf = (c: FetchCall) => `${c.method} ${new URL(c.url, location.href).pathname}`;

describe('api client: sign-in and CSRF', () => {
  let fetch: ReturnType<typeof stubFetch>;
  beforeEach(() => resetCsrfToken());
  afterEach(() => {
    fetch.restore();
    configureApi({ base: '', token: null });
    resetCsrfToken();
  });

  it('sends the CSRF token on POST (asked for once) and never on GET', async () => {
    fetch = stubFetch({
      'GET /api/auth/status': signedIn('tok-1'),
      'GET /api/sessions': { sessions: [], total: 0, archived_count: 0 },
      'POST /api/session/rename': (c: FetchCall) => ({ session: { session_id: c.body.session_id, title: c.body.title } }),
    });
    await api.sessionPage({ limit: 100 });
    expect(fetch.calls.map(pathOf), 'a GET needs no token').to.deep.equal(['GET /api/sessions']);
    expect(fetch.calls[0]!.headers[CSRF]).to.equal(undefined);
    // Two POSTs at once share one status request.
    await Promise.all([api.rename('s1', 'One'), api.rename('s2', 'Two')]);
    await api.pin('s1', true).catch(() => {});
    expect(fetch.calls.filter((c) => pathOf(c) === 'GET /api/auth/status')).to.have.length(1);
    const posts = fetch.calls.filter((c) => c.method === 'POST');
    expect(posts).to.have.length(3);
    for (const p of posts) expect(p.headers[CSRF]).to.equal('tok-1');
  });

  it('sends no token header when the server has no password (and asks only once)', async () => {
    fetch = stubFetch({
      'GET /api/auth/status': { auth_enabled: false, logged_in: true, password_auth_enabled: false, password_env_var: false, session_ttl: 60 },
      'POST /api/session/pin': { session: {} },
    });
    await api.pin('s1', true);
    await api.pin('s1', false);
    expect(fetch.calls.map(pathOf)).to.deep.equal(['GET /api/auth/status', 'POST /api/session/pin', 'POST /api/session/pin']);
    expect(fetch.calls[1]!.headers[CSRF]).to.equal(undefined);
  });

  it('on "Session expired" refreshes the token and retries exactly once', async () => {
    let token = 'old';
    fetch = stubFetch({
      'GET /api/auth/status': () => signedIn(token),
      'POST /api/session/pin': (c: FetchCall) =>
        c.headers[CSRF] === 'new' ? { session: { session_id: 's1', pinned: true } } : json(403, { error: 'Session expired - reload the page' }),
    });
    await api.authStatus();
    token = 'new';
    const res = await api.pin('s1', true);
    expect(res.session).to.deep.equal({ session_id: 's1', pinned: true });
    expect(fetch.calls.map(pathOf)).to.deep.equal(['GET /api/auth/status', 'POST /api/session/pin', 'GET /api/auth/status', 'POST /api/session/pin']);
    expect(fetch.calls.map((c) => c.headers[CSRF] ?? null)).to.deep.equal([null, 'old', null, 'new']);

    // Still refused after the retry: the error reaches the caller, with no third attempt.
    token = 'stale';
    fetch.restore();
    fetch = stubFetch({
      'GET /api/auth/status': () => signedIn(token),
      'POST /api/session/pin': () => json(403, { error: 'Session expired - reload the page' }),
    });
    resetCsrfToken();
    const err = await api.pin('s1', true).catch((e) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect(err.status).to.equal(403);
    expect(err.message).to.equal('Session expired - reload the page');
    expect(fetch.calls.filter((c) => c.method === 'POST')).to.have.length(2);
  });

  it('does not retry other 403s (a wrong current password)', async () => {
    fetch = stubFetch({ 'GET /api/auth/status': signedIn(), 'POST /api/settings': json(403, { error: 'Current password is incorrect' }) });
    const err = await api.setPassword('new-password', 'wrong').catch((e) => e);
    expect(err.message).to.equal('Current password is incorrect');
    expect(fetch.calls.filter((c) => c.method === 'POST')).to.have.length(1);
    expect(fetch.calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ _set_password: 'new-password', _current_password: 'wrong' });
  });

  it('a 401 "Authentication required" announces signed-out; logout’s own 401 does not', async () => {
    fetch = stubFetch({
      'GET /api/sessions': json(401, { error: 'Authentication required' }),
      'POST /api/auth/logout': json(401, { error: 'Authentication required' }),
      'GET /api/file': json(401, { error: 'Something else' }),
    });
    let events = 0;
    const count = () => events++;
    authEvents.addEventListener('signed-out', count);
    try {
      const err = await api.sessionPage({ limit: 100 }).catch((e) => e);
      expect(err.status).to.equal(401);
      expect(events).to.equal(1);
      await api.logout().catch(() => {});
      expect(events, 'signing out handles its own 401').to.equal(1);
      await api.file('s1', 'x').catch(() => {});
      expect(events, 'only the sign-in message counts').to.equal(1);
    } finally {
      authEvents.removeEventListener('signed-out', count);
    }
  });

  it('an unreachable server is still status 0, not a sign-out', async () => {
    const original = window.fetch;
    let events = 0;
    const count = () => events++;
    authEvents.addEventListener('signed-out', count);
    window.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof window.fetch;
    fetch = { calls: [], restore: () => (window.fetch = original) };
    try {
      const err = await api.pin('s1', true).catch((e) => e);
      expect(err.status).to.equal(0);
      expect(events).to.equal(0);
    } finally {
      authEvents.removeEventListener('signed-out', count);
    }
  });

  it('with an embed token: no status lookup, no CSRF header, no sign-out event', async () => {
    configureApi({ base: 'https://hermes.example', token: 'hemb_x' });
    fetch = stubFetch({ 'POST /api/session/pin': json(401, { error: 'Authentication required' }) });
    let events = 0;
    const count = () => events++;
    authEvents.addEventListener('signed-out', count);
    try {
      await api.pin('s1', true).catch(() => {});
      expect(fetch.calls.map((c) => c.url)).to.deep.equal(['https://hermes.example/api/session/pin']);
      expect(fetch.calls[0]!.headers[CSRF]).to.equal(undefined);
      expect(fetch.calls[0]!.headers.authorization).to.equal('Bearer hemb_x');
      expect(events).to.equal(0);
    } finally {
      authEvents.removeEventListener('signed-out', count);
    }
  });

  it('uploads carry the CSRF token and retry once when it is stale', async () => {
    let token = 'old';
    fetch = stubFetch({ 'GET /api/auth/status': () => signedIn(token) });
    const sent: Array<string | null> = [];
    const RealXhr = window.XMLHttpRequest;
    class FakeXhr {
      headers: Record<string, string> = {};
      status = 0;
      responseText = '';
      upload = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      open() {}
      setRequestHeader(name: string, value: string) {
        this.headers[name.toLowerCase()] = value;
      }
      send() {
        sent.push(this.headers[CSRF] ?? null);
        const ok = this.headers[CSRF] === 'new';
        this.status = ok ? 200 : 403;
        this.responseText = JSON.stringify(
          ok ? { filename: 'a.txt', path: '/p/a.txt', size: 1, mime: 'text/plain', is_image: false } : { error: 'Session expired - reload the page' },
        );
        setTimeout(() => this.onload?.(), 0);
      }
    }
    (window as any).XMLHttpRequest = FakeXhr;
    try {
      await api.authStatus();
      token = 'new';
      const stored = await upload('s1', new File(['a'], 'a.txt'));
      expect(stored.path).to.equal('/p/a.txt');
      expect(sent).to.deep.equal(['old', 'new']);
    } finally {
      window.XMLHttpRequest = RealXhr;
    }
  });

  it('setting or removing the password forgets the cached token', async () => {
    let token: string | undefined;
    fetch = stubFetch({
      'GET /api/auth/status': () => (token ? signedIn(token) : { auth_enabled: false, logged_in: true }),
      'POST /api/settings': { auth_enabled: true },
      'POST /api/session/pin': { session: {} },
    });
    await api.setPassword('first-password');
    expect(fetch.calls.find((c) => c.method === 'POST')!.body, 'no current password for the first one').to.deep.equal({ _set_password: 'first-password' });
    // The server signed this browser in with the first password: the next POST asks again.
    token = 'fresh';
    await api.pin('s1', true);
    await waitFor(() => expect(fetch.calls.at(-1)!.headers[CSRF]).to.equal('fresh'));
    await api.clearPassword('first-password');
    expect(fetch.calls.at(-1)!.body).to.deep.equal({ _clear_password: true, _current_password: 'first-password' });
    token = undefined;
    await api.pin('s1', false);
    expect(fetch.calls.at(-1)!.headers[CSRF]).to.equal(undefined);
  });
});
