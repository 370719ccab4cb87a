import { expect, cleanup, fixture, stubFetch, waitFor } from '../helpers.js';
import { ContextProvider } from '@lit/context';
import { ChatStore } from '../../../components/state/chat-store.js';
import { chatContext } from '../../../components/state/contexts.js';
import type { AssistantTurn } from '../../../components/state/turns.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import type { RunEventPayloads } from '../../../src/shared/run-events.js';
import '../../../components/chat/hermes-transcript.js';
import '../../../components/chat/hermes-assistant-turn.js';
import { PlayedEventSource } from './played-event-source.js';

const SID = 's1';
type Prefill = RunEventPayloads['context_status']['prefill'];
const line = (el: Element) => el.shadowRoot!.querySelector<HTMLElement>('[data-role="context-status"]');

/** The `context_status` event (the incumbent's composer status): a quiet line in the live turn. */
describe('the prefill context line', () => {
  afterEach(cleanup);

  it('draws where the context came from, why it did not come, or that it was left out', async () => {
    const base: AssistantTurn = { kind: 'assistant', index: 1, end: 2, text: '', reasoning: '', tools: [], warnings: [] };
    const cases: Array<[AssistantTurn['context'], string]> = [
      [{ status: 'loaded', label: 'recall.sh' }, 'Context added from recall.sh'],
      [{ status: 'error', label: 'recall.sh', error: 'prefill script timed out' }, 'Context unavailable: recall.sh (prefill script timed out)'],
      [{ status: 'loaded', label: 'recall.sh', leftOut: true }, 'Context from recall.sh left out: over the size budget'],
    ];
    for (const [context, text] of cases) {
      const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn: { ...base, context }, live: true });
      expect(line(el)!.textContent).to.equal(text);
      expect(line(el)!.getAttribute('role')).to.equal('note');
      // Quiet metadata, never an alert.
      expect(el.shadowRoot!.querySelector('[role="alert"]')).to.equal(null);
      el.remove();
    }
    const plain = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn: base, live: true });
    expect(line(plain)).to.equal(null);
  });

  describe('live (RunStream → chat store → transcript)', () => {
    const original = window.EventSource;
    let wrapper: HTMLElement | null = null;
    beforeEach(() => {
      (window as unknown as { EventSource: unknown }).EventSource = PlayedEventSource;
    });
    afterEach(() => {
      window.EventSource = original;
      wrapper?.remove();
      wrapper = null;
    });

    async function liveTranscript() {
      const user = { role: 'user', content: 'hi', timestamp: 100 };
      const running = {
        session_id: SID,
        title: 't',
        created_at: 1,
        updated_at: 1,
        message_count: 1,
        active_stream_id: 'st',
        pending_started_at: 100,
        messages: [user],
      };
      const fetches = stubFetch({ 'GET /api/session': { session: running } });
      const chat = new ChatStore();
      wrapper = document.createElement('div');
      new ContextProvider(wrapper, { context: chatContext, initialValue: chat });
      const el = document.createElement('hermes-transcript');
      wrapper.append(el);
      document.body.append(wrapper);
      await chat.open(SID);
      const liveTurn = () => el.shadowRoot!.querySelector('hermes-assistant-turn[data-live="true"]');
      return { chat, source: PlayedEventSource.last!, liveTurn, restore: () => fetches.restore() };
    }

    it('a loaded context shows its source above the answer as it streams', async () => {
      const t = await liveTranscript();
      try {
        const prefill: Prefill = { status: 'loaded', source: 'script', label: 'notes.sh', message_count: 2 };
        t.source.play('context_status', { session_id: SID, prefill });
        t.source.play('token', { text: 'Ada is on call.' });
        t.chat.dispatchEvent(new Event('change'));
        await waitFor(() => !!t.liveTurn() && !!line(t.liveTurn()!));
        expect(line(t.liveTurn()!)!.textContent).to.equal('Context added from notes.sh');
      } finally {
        t.restore();
      }
    });

    it('nothing configured shows nothing; a failed source says why', async () => {
      const t = await liveTranscript();
      try {
        t.source.play('context_status', { session_id: SID, prefill: { status: 'not_configured', source: 'none', label: '', message_count: 0 } });
        t.source.play('token', { text: 'Hello.' });
        t.chat.dispatchEvent(new Event('change'));
        await waitFor(() => !!t.liveTurn());
        await (t.liveTurn() as HermesAssistantTurn).updateComplete;
        expect(line(t.liveTurn()!)).to.equal(null);
        t.source.play('context_status', {
          session_id: SID,
          prefill: { status: 'error', source: 'script', label: 'slow.sh', message_count: 0, error: 'prefill script timed out' },
        });
        await waitFor(() => !!line(t.liveTurn()!));
        expect(line(t.liveTurn()!)!.textContent).to.equal('Context unavailable: slow.sh (prefill script timed out)');
      } finally {
        t.restore();
      }
    });
  });
});
