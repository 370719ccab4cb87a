import { expect, fixture, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import '../../../components/app/hermes-app.js';
import type { HermesApp } from '../../../components/app/hermes-app.js';
import { ChatStore } from '../../../components/state/chat-store.js';
import { LAST_ACTIVE_KEY } from '../../../src/shared/canonical-session.js';

/** root (a compression snapshot) continues in tip; gone does not exist. */
const message = (id: string) => ({ role: 'user', content: `in ${id}`, timestamp: 1 });
const SESSIONS: Record<string, Record<string, unknown>> = {
  root: { pre_compression_snapshot: true, canonical_visible_session_id: 'tip', continuation_session_id: 'tip' },
  tip: { parent_session_id: 'root', canonical_visible_session_id: 'tip' },
  // An older server: only the incumbent's hint.
  old: { pre_compression_snapshot: true, continuation_session_id: 'tip' },
};
const answer = (call: FetchCall) => {
  const id = new URL(call.url, location.href).searchParams.get('session_id')!;
  const fields = SESSIONS[id];
  if (!fields) return new Response('{"error":"Session not found"}', { status: 404 });
  return {
    session: {
      session_id: id,
      title: `Title ${id}`,
      created_at: 1,
      updated_at: 1,
      message_count: 1,
      active_stream_id: null,
      messages: [message(id)],
      ...fields,
    },
  };
};
const opened = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.calls.filter((c) => c.url.startsWith('/api/session?')).map((c) => new URL(c.url, location.href).searchParams.get('session_id'));

const ROW = { session_id: 'tip', title: 'Title tip', message_count: 1, created_at: 1, updated_at: 1, pinned: false, archived: false, project_id: null };
const COMMON = {
  'GET /api/settings': { theme: 'dark', send_key: 'enter', font_size: 'default', default_workspace: '/w', bot_name: 'Hermes' },
  'GET /api/sessions': { sessions: [ROW], total: 1, archived_count: 0 },
  'GET /api/projects': { projects: [] },
  'GET /api/onboarding/status': new Response('{"error":"not asked"}', { status: 500 }),
  'GET /api/session': answer,
};

/** Elements matching `selector` anywhere below `root`, through open shadow roots. */
function deepAll(root: ParentNode, selector: string): Element[] {
  const out = [...root.querySelectorAll(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) out.push(...deepAll(el.shadowRoot, selector));
  return out;
}

describe('canonical session resolution in the browser: ChatStore.open', () => {
  let fetch: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    localStorage.removeItem(LAST_ACTIVE_KEY);
    fetch = stubFetch({ 'GET /api/session': answer });
  });
  afterEach(() => {
    fetch.restore();
    localStorage.removeItem(LAST_ACTIVE_KEY);
  });

  it('direct open of a snapshot parent shows its live tip, says so, and remembers the tip', async () => {
    const chat = new ChatStore();
    const redirects: Array<string | null> = [];
    chat.onRedirected = (id) => redirects.push(id);
    await chat.open('root');
    expect(chat.sessionId).to.equal('tip');
    expect(chat.messages.map((m) => m.content)).to.deep.equal(['in tip']);
    expect(redirects).to.deep.equal(['tip']);
    expect(opened(fetch)).to.deep.equal(['root', 'tip']);
    expect(localStorage.getItem(LAST_ACTIVE_KEY)).to.equal('tip');
    expect(chat.inspecting).to.equal(false);
  });

  it('an older server: its continuation_session_id leads the same way', async () => {
    const chat = new ChatStore();
    await chat.open('old');
    expect(chat.sessionId).to.equal('tip');
  });

  it('explicit history inspection opens the snapshot itself', async () => {
    const chat = new ChatStore();
    const redirects: Array<string | null> = [];
    chat.onRedirected = (id) => redirects.push(id);
    await chat.open('root', { inspect: true });
    expect(chat.sessionId).to.equal('root');
    expect(chat.inspecting).to.equal(true);
    expect(redirects).to.deep.equal([]);
    expect(opened(fetch)).to.deep.equal(['root']);
  });

  it('a missing id takes the not-found path; a remembered one that is gone is forgotten quietly', async () => {
    const chat = new ChatStore();
    const redirects: Array<string | null> = [];
    chat.onRedirected = (id) => redirects.push(id);
    await chat.open('gone');
    expect(chat.missing).to.equal(true);
    expect(chat.error).to.equal('This session no longer exists.');
    localStorage.setItem(LAST_ACTIVE_KEY, 'gone');
    await chat.open('gone', { advisory: true });
    expect([chat.missing, chat.error, chat.openedId]).to.deep.equal([false, null, null]);
    expect(redirects).to.deep.equal([null]);
    expect(localStorage.getItem(LAST_ACTIVE_KEY)).to.equal(null);
  });
});

describe('canonical session resolution in the browser: the app’s entry points', () => {
  let fetch: ReturnType<typeof stubFetch>;
  const page = location.pathname + location.search;
  beforeEach(() => localStorage.removeItem(LAST_ACTIVE_KEY));
  afterEach(() => {
    cleanup();
    fetch.restore();
    history.replaceState(null, '', page);
    localStorage.removeItem(LAST_ACTIVE_KEY);
  });

  async function boot(url: string) {
    history.replaceState(null, '', url);
    fetch = stubFetch(COMMON);
    const el = await fixture<HermesApp>('hermes-app');
    return el;
  }
  const shown = async (el: HermesApp, id: string) => {
    await waitFor(() => el.chat.sessionId === id && !el.chat.loading);
    await el.updateComplete;
  };

  it('URL route: /session/<snapshot> shows the tip and the URL names it', async () => {
    const el = await boot('/session/root');
    await shown(el, 'tip');
    expect(location.pathname).to.equal('/session/tip');
  });

  for (const param of ['session', 'session_id']) {
    it(`query parameter: /?${param}=<snapshot> resolves as the route does`, async () => {
      const el = await boot(`/?${param}=root`);
      await shown(el, 'tip');
      expect(location.pathname + location.search).to.equal('/session/tip');
    });
  }

  it('localStorage: at / the remembered snapshot id is canonicalised before it is shown', async () => {
    localStorage.setItem(LAST_ACTIVE_KEY, 'root');
    const el = await boot('/');
    await shown(el, 'tip');
    expect(location.pathname).to.equal('/session/tip');
    expect(localStorage.getItem(LAST_ACTIVE_KEY)).to.equal('tip');
  });

  it('browser boot restore: the URL wins over the remembered id', async () => {
    localStorage.setItem(LAST_ACTIVE_KEY, 'root');
    const el = await boot('/session/tip');
    await shown(el, 'tip');
    expect(opened(fetch)).to.deep.equal(['tip']);
  });

  it('a remembered id that is gone: the empty new chat at /, not an error', async () => {
    localStorage.setItem(LAST_ACTIVE_KEY, 'gone');
    const el = await boot('/');
    await waitFor(() => opened(fetch).includes('gone') && !el.chat.loading);
    await el.updateComplete;
    expect(location.pathname).to.equal('/');
    expect(el.chat.error).to.equal(null);
    expect(localStorage.getItem(LAST_ACTIVE_KEY)).to.equal(null);
  });

  it('sidebar click: the lineage’s row opens the session loading resolves to', async () => {
    const el = await boot('/');
    const link = () => deepAll(el.shadowRoot!, 'hermes-session-row[data-session-id="tip"]')[0]?.shadowRoot?.querySelector<HTMLElement>('a.link');
    await waitFor(() => !!link());
    link()!.click();
    await shown(el, 'tip');
    expect(location.pathname).to.equal('/session/tip');
  });

  it('direct open: a snapshot leads to the tip; with inspect it opens the record, noted, with a way back', async () => {
    const el = await boot('/');
    el.dispatchEvent(new CustomEvent('hermes-open-session', { detail: { sessionId: 'root' }, bubbles: true, composed: true }));
    await shown(el, 'tip');
    expect(location.pathname).to.equal('/session/tip');
    el.dispatchEvent(new CustomEvent('hermes-open-session', { detail: { sessionId: 'root', inspect: true }, bubbles: true, composed: true }));
    await shown(el, 'root');
    expect(location.pathname + location.search).to.equal('/session/root?inspect=1');
    await waitFor(() => deepAll(el.shadowRoot!, '[data-role="snapshot-note"]').length === 1);
    // The record is read-only: nothing can be typed or sent until the live conversation is open.
    const input = () => deepAll(el.shadowRoot!, '[data-role="composer-input"]')[0] as HTMLTextAreaElement;
    const send = () => deepAll(el.shadowRoot!, '[data-role="send"]')[0] as HTMLButtonElement;
    await waitFor(() => input()?.disabled === true);
    expect(input().placeholder).to.contain('read-only');
    expect(send().disabled).to.equal(true);
    expect(deepAll(el.shadowRoot!, '[data-role="snapshot-note"]')[0]!.textContent).to.contain('snapshot from before compression');
    (deepAll(el.shadowRoot!, '[data-role="open-continuation"]')[0] as HTMLElement).click();
    await shown(el, 'tip');
    expect(location.pathname + location.search).to.equal('/session/tip');
    await waitFor(() => input()?.disabled === false);
    expect(deepAll(el.shadowRoot!, '[data-role="snapshot-note"]')).to.have.length(0);
  });

  it('a missing session from the URL shows the not-found view', async () => {
    const el = await boot('/session/gone');
    await waitFor(() => deepAll(el.shadowRoot!, '[data-role="session-missing"]').length === 1);
    expect(location.pathname).to.equal('/session/gone');
  });
});
