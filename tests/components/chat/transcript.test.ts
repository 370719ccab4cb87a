import { expect, cleanup, stubFetch, waitFor } from '../helpers.js';
import { ContextProvider } from '@lit/context';
import { ChatStore } from '../../../components/state/chat-store.js';
import { chatContext } from '../../../components/state/contexts.js';
import { emptyAssistantTurn } from '../../../components/state/turns.js';
import type { ApiSession, Message } from '../../../components/api/client.js';
import { TURN_PAGE, type HermesTranscript } from '../../../components/chat/hermes-transcript.js';
import '../../../components/chat/hermes-transcript.js';

const session = (id: string, messages: Message[]): ApiSession =>
  ({ session_id: id, title: 't', created_at: 1, updated_at: 1, message_count: messages.length, messages }) as ApiSession;

function exchange(n: number): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < n; i++) out.push({ role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer **${i}**` });
  return out;
}

let wrapper: HTMLElement | null = null;

/** A transcript under a chatContext provider, in a fixed-height box so it scrolls. */
async function mount(messages: Message[], setup: (chat: ChatStore) => void = () => {}): Promise<{ el: HermesTranscript; chat: ChatStore }> {
  const chat = new ChatStore();
  chat.session = session('s1', messages);
  chat.messages = messages;
  setup(chat);
  wrapper = document.createElement('div');
  wrapper.style.cssText = 'display:flex;flex-direction:column;height:600px;width:900px';
  new ContextProvider(wrapper, { context: chatContext, initialValue: chat });
  const el = document.createElement('hermes-transcript');
  el.style.cssText = 'flex:1;min-height:0';
  wrapper.append(el);
  document.body.append(wrapper);
  await el.updateComplete;
  // A timer, not a frame: pages running in the background get no animation frames.
  await new Promise((r) => setTimeout(r, 30));
  return { el, chat };
}

const messagesOf = (el: HermesTranscript) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="message"]')];
const scroller = (el: HermesTranscript) => el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;
const deepCount = (root: ParentNode): number => [...root.querySelectorAll('*')].reduce((n, e) => n + 1 + (e.shadowRoot ? deepCount(e.shadowRoot) : 0), 0);
const notify = (chat: ChatStore) => chat.dispatchEvent(new Event('change'));

describe('hermes-transcript', () => {
  afterEach(() => {
    wrapper?.remove();
    wrapper = null;
    cleanup();
  });

  it('renders user and assistant turns with their roles, the live turn last', async () => {
    const { el } = await mount(exchange(2), (chat) => {
      chat.messages = [...chat.messages, { role: 'user', content: 'and now?' }];
      chat.live = { ...emptyAssistantTurn(5), text: 'Streaming…' };
      chat.status = 'running';
    });
    const roles = messagesOf(el).map((m) => m.dataset.messageRole);
    expect(roles).to.deep.equal(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(messagesOf(el)[0]!.tagName.toLowerCase()).to.equal('hermes-user-message');
    expect(messagesOf(el).at(-1)!.dataset.live).to.equal('true');
  });

  it('marks a message sent with a skill (/use, /<skill>) with the skill’s name', async () => {
    const { el } = await mount([
      { role: 'user', content: 'ship 1.4', skill: 'release' },
      { role: 'assistant', content: 'Tagged.' },
    ]);
    const user = el.shadowRoot!.querySelector('hermes-user-message')!;
    await (user as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    const mark = user.shadowRoot!.querySelector('[data-role="message-skill"]');
    expect(mark?.textContent).to.equal('/release');
    expect(user.shadowRoot!.querySelector('.bubble')!.textContent).to.equal('/release ship 1.4');
  });

  it('renders only the latest turns of a long session and reveals more on request', async () => {
    const { el } = await mount(exchange(500));
    expect(messagesOf(el).length).to.equal(TURN_PAGE);
    expect(messagesOf(el).at(-1)!.dataset.index).to.equal('999');
    expect(deepCount(el.shadowRoot!)).to.be.at.most(1500);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="show-earlier"]')!.click();
    await el.updateComplete;
    expect(messagesOf(el).length).to.equal(TURN_PAGE * 2);
  });

  it('starts at the bottom and offers "Jump to latest" after scrolling up', async () => {
    const { el } = await mount(exchange(30));
    const s = scroller(el);
    await waitFor(() => s.scrollHeight - s.scrollTop - s.clientHeight < 50);
    expect(el.shadowRoot!.querySelector('[data-role="jump-latest"]')).to.equal(null);
    s.scrollTop = 0;
    s.dispatchEvent(new Event('scroll'));
    await el.updateComplete;
    const jump = el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="jump-latest"]');
    expect(jump).to.exist;
    jump!.click();
    await el.updateComplete;
    await waitFor(() => s.scrollHeight - s.scrollTop - s.clientHeight < 50);
    expect(el.shadowRoot!.querySelector('[data-role="jump-latest"]')).to.equal(null);
  });

  it('offers edit on every user message and retry on the last assistant turn, disabled while busy', async () => {
    const { el, chat } = await mount(exchange(3));
    const users = el.shadowRoot!.querySelectorAll('hermes-user-message');
    const assistants = el.shadowRoot!.querySelectorAll('hermes-assistant-turn');
    await Promise.all([...users, ...assistants].map((e) => e.updateComplete));
    expect([...users].map((u) => !!u.shadowRoot!.querySelector('[data-role="edit-message"]'))).to.deep.equal([true, true, true]);
    expect([...assistants].map((a) => !!a.shadowRoot!.querySelector('[data-role="retry"]'))).to.deep.equal([false, false, true]);
    expect([...assistants].every((a) => a.shadowRoot!.querySelector('[data-role="fork"]'))).to.equal(true);
    chat.status = 'running';
    notify(chat);
    await el.updateComplete;
    await assistants[2]!.updateComplete;
    expect(assistants[2]!.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="retry"]')!.disabled).to.equal(true);
  });

  it('forks from an assistant turn and opens the new session', async () => {
    const fetches = stubFetch({
      'POST /api/session/branch': { session_id: 'forked', title: 'f' },
      'GET /api/sessions': { sessions: [], total: 0, archived_count: 0 },
    });
    try {
      const { el } = await mount(exchange(2));
      let opened: string | null = null;
      wrapper!.addEventListener('hermes-open-session', (e) => (opened = e.detail.sessionId));
      const first = el.shadowRoot!.querySelectorAll('hermes-assistant-turn')[0]!;
      first.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="fork"]')!.click();
      await waitFor(() => opened === 'forked');
      const call = fetches.calls.find((c) => c.url.includes('/api/session/branch'))!;
      expect(call.body).to.deep.equal({ session_id: 's1', keep_count: 2 });
    } finally {
      fetches.restore();
    }
  });

  it('retries by having the server cut the last exchange and sending its message again', async () => {
    const messages = exchange(2);
    const fetches = stubFetch({
      'POST /api/session/retry': { ok: true, last_user_text: 'question 1', last_user_attachments: [], removed_count: 2 },
      'GET /api/session': { session: session('s1', messages.slice(0, 2)) },
      'POST /api/chat/start': { stream_id: 'st', session_id: 's1', title: 't', pending_started_at: 1 },
    });
    try {
      const { el } = await mount(messages);
      const last = el.shadowRoot!.querySelectorAll('hermes-assistant-turn')[1]!;
      last.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="retry"]')!.click();
      await waitFor(() => fetches.calls.some((c) => c.url.includes('/api/chat/start')));
      const paths = fetches.calls.map((c) => `${c.method} ${new URL(c.url, location.href).pathname}`);
      expect(paths.slice(0, 3)).to.deep.equal(['POST /api/session/retry', 'GET /api/session', 'POST /api/chat/start']);
      expect(fetches.calls[0]!.body).to.deep.equal({ session_id: 's1' });
      expect(fetches.calls[2]!.body.message).to.equal('question 1');
    } finally {
      fetches.restore();
    }
  });

  it('edits the last user message: truncates at it, reloads, sends the new text', async () => {
    const messages = exchange(2);
    const fetches = stubFetch({
      'POST /api/session/truncate': { session: session('s1', messages.slice(0, 2)) },
      'GET /api/session': { session: session('s1', messages.slice(0, 2)) },
      'POST /api/chat/start': { stream_id: 'st', session_id: 's1', title: 't', pending_started_at: 1 },
    });
    try {
      const { el } = await mount(messages);
      const last = el.shadowRoot!.querySelectorAll('hermes-user-message')[1]!;
      last.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="edit-message"]')!.click();
      await last.updateComplete;
      last.shadowRoot!.querySelector('textarea')!.value = 'a better question';
      last.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="save-edit"]')!.click();
      await waitFor(() => fetches.calls.some((c) => c.url.includes('/api/chat/start')));
      // (A previous test's stream may still be settling, so find the calls rather than index them.)
      expect(fetches.calls.find((c) => c.url.includes('/api/session/truncate'))!.body).to.deep.equal({ session_id: 's1', keep_count: 2 });
      expect(fetches.calls.find((c) => c.url.includes('/api/chat/start'))!.body.message).to.equal('a better question');
    } finally {
      fetches.restore();
    }
  });

  it('editing an earlier message asks first, then cuts the transcript there and re-runs it', async () => {
    const messages = exchange(3);
    const fetches = stubFetch({
      'POST /api/session/truncate': { session: session('s1', messages.slice(0, 2)) },
      'GET /api/session': { session: session('s1', messages.slice(0, 2)) },
      'POST /api/chat/start': { stream_id: 'st', session_id: 's1', title: 't', pending_started_at: 1 },
    });
    try {
      const { el } = await mount(messages);
      const second = el.shadowRoot!.querySelectorAll('hermes-user-message')[1]!;
      second.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="edit-message"]')!.click();
      await second.updateComplete;
      second.shadowRoot!.querySelector('textarea')!.value = 'the second, better';
      second.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="save-edit"]')!.click();
      await second.updateComplete;
      // Nothing is cut until the person confirms.
      expect(second.shadowRoot!.querySelector('[data-role="edit-confirm"]')).to.not.equal(null);
      expect(fetches.calls.some((c) => c.url.includes('/api/session/truncate'))).to.equal(false);
      second.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="confirm-edit"]')!.click();
      await waitFor(() => fetches.calls.some((c) => c.url.includes('/api/chat/start')));
      expect(fetches.calls.find((c) => c.url.includes('/api/session/truncate'))!.body).to.deep.equal({ session_id: 's1', keep_count: 2 });
      expect(fetches.calls.find((c) => c.url.includes('/api/chat/start'))!.body.message).to.equal('the second, better');
    } finally {
      fetches.restore();
    }
  });
});
