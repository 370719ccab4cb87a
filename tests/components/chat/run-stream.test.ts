import { expect, cleanup, stubFetch, waitFor } from '../helpers.js';
import { ContextProvider } from '@lit/context';
import { ChatStore } from '../../../components/state/chat-store.js';
import { chatContext } from '../../../components/state/contexts.js';
import type { ApiSession } from '../../../components/api/client.js';
import '../../../components/chat/hermes-transcript.js';
import { PlayedEventSource } from './played-event-source.js';

const SID = 's1';
const started = 100;
const running = (): ApiSession =>
  ({
    session_id: SID,
    title: 't',
    created_at: 1,
    updated_at: 1,
    message_count: 1,
    active_stream_id: 'st',
    pending_started_at: started,
    messages: [{ role: 'user', content: 'hi', timestamp: started }],
  }) as ApiSession;

describe('the live run (RunStream → chat store → transcript)', () => {
  const original = window.EventSource;
  let wrapper: HTMLElement | null = null;
  beforeEach(() => {
    (window as unknown as { EventSource: unknown }).EventSource = PlayedEventSource;
  });
  afterEach(() => {
    window.EventSource = original;
    wrapper?.remove();
    wrapper = null;
    cleanup();
  });

  async function mount(): Promise<{ chat: ChatStore; source: PlayedEventSource; el: HTMLElement; restore: () => void }> {
    const fetches = stubFetch({ 'GET /api/session': { session: running() } });
    const chat = new ChatStore();
    wrapper = document.createElement('div');
    new ContextProvider(wrapper, { context: chatContext, initialValue: chat });
    const el = document.createElement('hermes-transcript');
    wrapper.append(el);
    document.body.append(wrapper);
    await chat.open(SID);
    const source = PlayedEventSource.last!;
    expect(source.url).to.contain('/api/chat/stream?stream_id=st');
    return { chat, source, el, restore: fetches.restore };
  }

  // Streaming renders wait for an animation frame, which a background test page never gets.
  const frame = (chat: ChatStore) => chat.dispatchEvent(new Event('change'));
  const liveTurn = (el: HTMLElement) =>
    el.shadowRoot!.querySelector('hermes-assistant-turn[data-live="true"]') ?? [...el.shadowRoot!.querySelectorAll('hermes-assistant-turn')].at(-1)!;
  const retryingText = (el: HTMLElement) => liveTurn(el)?.shadowRoot?.querySelector('[data-role="retrying"]')?.textContent?.trim() ?? null;

  it('shows "Retrying (2/3)…" quietly until the next token arrives', async () => {
    const { chat, source, el, restore } = await mount();
    try {
      source.play('retrying', { attempt: 2, max: 3, reason: 'rate_limit', delay_ms: 1000 });
      await waitFor(() => retryingText(el) === 'Retrying (2/3)…');
      expect(chat.live?.retrying).to.deep.equal({ attempt: 2, max: 3, reason: 'rate_limit' });
      // Not a closing event: the stream stays open, and "Thinking…" gives way to the notice.
      expect(chat.status).to.equal('running');
      expect(liveTurn(el).shadowRoot!.querySelector('[data-role="waiting"]')).to.equal(null);
      source.play('token', { text: 'Here it is.' });
      frame(chat);
      await waitFor(() => retryingText(el) === null);
      expect(chat.live?.text).to.equal('Here it is.');
    } finally {
      restore();
    }
  });

  it('a tool or a closing event also ends the notice; the closing event closes the stream', async () => {
    const { chat, source, el, restore } = await mount();
    try {
      source.play('retrying', { attempt: 1, max: 3, reason: 'server_error', delay_ms: 500 });
      await waitFor(() => retryingText(el) === 'Retrying (1/3)…');
      source.play('tool', { event_type: 'tool.started', name: 'terminal', preview: 'terminal ls -la', args: { command: 'ls -la' }, tool_call_id: 'c1' });
      frame(chat);
      await waitFor(() => retryingText(el) === null);
      expect(chat.live!.tools[0]).to.include({ name: 'terminal', preview: 'ls -la', status: 'running' });
      // A failed call is an error by its flag or by its result (the contract's one rule).
      source.play('tool_complete', {
        event_type: 'tool.completed',
        name: 'terminal',
        preview: 'terminal ls -la',
        args: { command: 'ls -la' },
        tool_call_id: 'c1',
        is_error: false,
        result: 'BLOCKED: denied',
        duration: 0.1,
      });
      expect(chat.live!.tools[0]!.status).to.equal('error');
      source.play('retrying', { attempt: 3, max: 3, reason: 'timeout', delay_ms: 2000 });
      await waitFor(() => retryingText(el) === 'Retrying (3/3)…');
      source.play('apperror', { message: 'The model provider is not answering', type: 'no_response', hint: 'Try again later.', session_id: SID });
      await waitFor(() => chat.status === 'idle');
      expect(chat.live?.retrying).to.equal(undefined);
      expect(chat.live?.error).to.deep.equal({ message: 'The model provider is not answering', type: 'no_response', hint: 'Try again later.' });
      expect(source.readyState).to.equal(PlayedEventSource.CLOSED);
    } finally {
      restore();
    }
  });
});
