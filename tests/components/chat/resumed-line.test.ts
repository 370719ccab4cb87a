import { expect, cleanup, fixture, stubFetch, waitFor } from '../helpers.js';
import { ContextProvider } from '@lit/context';
import { ChatStore } from '../../../components/state/chat-store.js';
import { chatContext } from '../../../components/state/contexts.js';
import { groupTurns, resumedLine, type AssistantTurn } from '../../../components/state/turns.js';
import type { Message } from '../../../components/api/client.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import type { RunEventPayloads } from '../../../src/shared/run-events.js';
import '../../../components/chat/hermes-transcript.js';
import '../../../components/chat/hermes-assistant-turn.js';
import { PlayedEventSource } from './played-event-source.js';

/** The turn's prose pieces and lines in document order: markdown text, or `resumed` / `steer:<text>`. */
function order(turnEl: Element): string[] {
  const root = turnEl.shadowRoot!;
  return [...root.querySelectorAll('hermes-markdown, hermes-steer-line, [data-role="resumed"]')].map((n) => {
    if (n.localName === 'hermes-markdown') return (n as HTMLElement & { text: string }).text;
    if (n.localName === 'hermes-steer-line') return `steer:${(n as HTMLElement & { text: string }).text}`;
    return 'resumed';
  });
}

const SID = 's1';
const started = 100;
const user: Message = { role: 'user', content: 'tell me', timestamp: started };
const cut: Message = { role: 'assistant', content: 'The first half', _partial: true, timestamp: 101 };
const rest: Message = { role: 'assistant', content: 'and the rest.', _resume_attempt: 1, timestamp: 102 };

describe('the "resumed after a restart" line', () => {
  afterEach(cleanup);

  it('stored: drawn before the first message of each later attempt; the cut-short answer is not "partial" any more', async () => {
    const messages: Message[] = [
      user,
      { ...cut, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"make"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'The server restarted while this ran.', _resume_attempt: 1 },
      { role: 'assistant', content: 'Trying again.', _resume_attempt: 1 },
      { role: 'assistant', content: 'Done.', _resume_attempt: 2 },
    ];
    const turn = groupTurns(messages)[1] as AssistantTurn;
    expect(turn.resumes).to.deep.equal([
      { at: 'The first half'.length, message: resumedLine() },
      { at: 'The first half\n\nTrying again.'.length, message: resumedLine() },
    ]);
    expect(turn.partial).to.equal(false);
    const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn });
    expect(order(el)).to.deep.equal(['The first half', 'resumed', '\n\nTrying again.', 'resumed', '\n\nDone.']);
    const line = el.shadowRoot!.querySelector<HTMLElement>('[data-role="resumed"]')!;
    expect(line.textContent).to.equal('Resumed after a restart');
    expect(line.getAttribute('role')).to.equal('note');
    // The quiet divider (faint, metadata-sized), not the partial or error notes.
    expect(line.classList.contains('divider')).to.equal(true);
    expect(el.shadowRoot!.querySelector('[data-role="partial"]')).to.equal(null);
    expect(el.shadowRoot!.querySelector('[role="alert"]')).to.equal(null);
  });

  it('stored: a turn never resumed has no line, and a resumed attempt that was itself cut short is partial', () => {
    const plain = groupTurns([user, { role: 'assistant', content: 'All at once.' }])[1] as AssistantTurn;
    expect(plain.resumes).to.equal(undefined);
    const again = groupTurns([user, cut, { ...rest, _partial: true }])[1] as AssistantTurn;
    expect(again.resumes).to.have.length(1);
    expect(again.partial).to.equal(true);
    // Each user message starts over: a later turn's first attempt-1 message gets its own line.
    const turns = groupTurns([user, cut, rest, { role: 'user', content: 'more' }, { ...rest, content: 'Next.' }]);
    expect((turns[3] as AssistantTurn).resumes).to.deep.equal([{ at: 0, message: resumedLine() }]);
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

    it('a reload mid-stream replays the run: the text before once, the line, then the rest; done keeps it in place', async () => {
      // Stored so far: the user message and the answer the restart cut short (the stream rebuilds it).
      const running = {
        session_id: SID,
        title: 't',
        created_at: 1,
        updated_at: 1,
        message_count: 2,
        active_stream_id: 'st',
        pending_started_at: started,
        messages: [user, cut],
      };
      const fetches = stubFetch({ 'GET /api/session': { session: running } });
      try {
        const chat = new ChatStore();
        wrapper = document.createElement('div');
        new ContextProvider(wrapper, { context: chatContext, initialValue: chat });
        const el = document.createElement('hermes-transcript');
        wrapper.append(el);
        document.body.append(wrapper);
        await chat.open(SID);
        const source = PlayedEventSource.last!;
        source.play('token', { text: 'The first half' });
        source.play('resumed', { session_id: SID, attempt: 1, message: 'The server restarted; the reply carries on.', partial: true, interrupted_tools: [] });
        source.play('token', { text: ' and the rest.' });
        chat.dispatchEvent(new Event('change'));
        const liveTurn = () => el.shadowRoot!.querySelector('hermes-assistant-turn[data-live="true"]');
        await waitFor(() => order(liveTurn()!).length === 3);
        expect(order(liveTurn()!)).to.deep.equal(['The first half', 'resumed', ' and the rest.']);
        const line = liveTurn()!.shadowRoot!.querySelector<HTMLElement>('[data-role="resumed"]')!;
        expect(line.textContent).to.equal(resumedLine());
        expect(line.title).to.equal('The server restarted; the reply carries on.');
        // The stored partial is not shown beside the replayed text.
        expect(el.shadowRoot!.querySelectorAll('hermes-assistant-turn')).to.have.length(1);

        const done = { ...running, active_stream_id: null, message_count: 3, messages: [user, cut, rest] };
        source.play('done', {
          session: done as unknown as RunEventPayloads['done']['session'],
          usage: { input_tokens: 1, output_tokens: 1, estimated_cost: null },
        });
        await waitFor(() => chat.status === 'idle' && !liveTurn());
        const turns = el.shadowRoot!.querySelectorAll('hermes-assistant-turn');
        expect(turns).to.have.length(1);
        await (turns[0] as HermesAssistantTurn).updateComplete;
        expect(order(turns[0]!)).to.deep.equal(['The first half', 'resumed', '\n\nand the rest.']);
      } finally {
        fetches.restore();
      }
    });
  });
});
