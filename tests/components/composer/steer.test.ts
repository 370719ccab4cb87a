import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-composer.js';
import '../../../components/chat/hermes-assistant-turn.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import { runCommand, type CommandContext } from '../../../components/composer/slash-commands.js';
import { groupTurns, type AssistantTurn } from '../../../components/state/turns.js';
import { runHandlers } from '../../../components/state/run-handlers.js';
import type { Message } from '../../../components/api/client.js';
import { offlineCache } from '../../../components/offline/cache.js';
import { CATALOG, makeStores, openSession, session, setStatus, type Stores } from './setup.js';

describe('steer in the web app', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch> | undefined;
  let state: { text: string };
  let ctx: CommandContext;

  beforeEach(() => {
    s = makeStores();
    state = { text: '' };
    ctx = {
      chat: s.chat,
      ui: s.ui,
      sessions: s.sessions,
      host: document.createElement('div'),
      models: [],
      currentModel: () => null,
      setModel: async () => {},
      setText: (t) => void (state.text = t),
      restoreAttachments: () => {},
    };
  });
  afterEach(() => {
    fetchStub?.restore();
    fetchStub = undefined;
    cleanup();
  });

  it('/steer while a turn runs posts it to the running turn', async () => {
    openSession(s.chat, session('s1'));
    setStatus(s.chat, 'streaming');
    fetchStub = stubFetch({ 'POST /api/chat/steer': { accepted: true, fallback: null, stream_id: 'st1' } });
    expect(await runCommand(ctx, '/steer  use tabs ')).to.equal(true);
    expect(fetchStub.calls.map((c) => c.body)).to.deep.equal([{ session_id: 's1', text: 'use tabs' }]);
    expect(s.toasts[0]!.message).to.match(/Steer sent/);
    expect(state.text).to.equal('');
    expect(s.sent).to.deep.equal([]);
  });

  it('/steer the turn cannot take keeps the text in the composer and says why', async () => {
    openSession(s.chat, session('s1'));
    setStatus(s.chat, 'streaming');
    fetchStub = stubFetch({ 'POST /api/chat/steer': { accepted: false, fallback: 'gateway_steer_queued', stream_id: 'st1' } });
    await runCommand(ctx, '/steer use tabs');
    expect(state.text).to.equal('use tabs');
    expect(s.toasts[0]).to.deep.equal({ message: 'This agent cannot steer a running reply; queue the message instead.', kind: 'error' });
  });

  it('/steer when idle is an ordinary message; without text it says what to type', async () => {
    openSession(s.chat, session('s1'));
    await runCommand(ctx, '/steer hello there');
    expect(s.sent.map((m) => m.text)).to.deep.equal(['hello there']);
    expect(await runCommand(ctx, '/steer')).to.equal(false);
    expect(s.toasts.at(-1)!.message).to.match(/\/steer <text>/);
  });

  it('a stored steer is drawn where it entered, and the tool card shows the tool’s own output', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'build' },
      {
        role: 'assistant',
        content: 'Building.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"make"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'made\n\nUser guidance: use -j4', _steer: 'use -j4' },
      { role: 'assistant', content: 'Rebuilt with -j4.' },
    ];
    const turn = groupTurns(messages)[1] as AssistantTurn;
    expect(turn.steers).to.deep.equal([{ text: 'use -j4', at: 'Building.'.length }]);
    expect(turn.tools[0]!.result).to.equal('made');
    const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn });
    const root = el.shadowRoot!;
    const order = [...root.querySelectorAll('hermes-markdown, hermes-steer-line')].map((n) =>
      n.localName === 'hermes-steer-line' ? `steer:${(n as HTMLElement & { text: string }).text}` : (n as HTMLElement & { text: string }).text,
    );
    expect(order).to.deep.equal(['Building.', 'steer:use -j4', '\n\nRebuilt with -j4.']);
    const line = root.querySelector('hermes-steer-line')!.shadowRoot!.querySelector('[data-role="steer"]')!;
    expect(line.textContent).to.contain('use -j4');
  });

  it('live: steer_applied adds the line at the text so far; pending_steer_leftover lands in the composer once, with a toast', async () => {
    await offlineCache.flush();
    localStorage.clear();
    fetchStub = stubFetch({ 'GET /api/models': CATALOG, 'GET /api/workspaces': { workspaces: [], last: null } });
    openSession(s.chat, session('s1'));
    const live: AssistantTurn = { kind: 'assistant', index: 1, end: 1, text: 'So far', reasoning: '', tools: [], warnings: [] };
    const changed = { frame() {}, now() {}, settle() {} };
    const handlers = runHandlers(s.chat, () => live, changed);
    handlers.steer_applied({ session_id: 's1', text: 'go left', tool_call_id: 'c1' });
    expect(live.steers).to.deep.equal([{ text: 'go left', at: 'So far'.length }]);

    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    const input = el.shadowRoot!.querySelector<HTMLTextAreaElement>('[data-role="composer-input"]')!;
    handlers.pending_steer_leftover({ session_id: 'other', text: 'not mine' });
    handlers.pending_steer_leftover({ session_id: 's1', text: 'go right' });
    s.chat.dispatchEvent(new Event('change'));
    await waitFor(() => input.value === 'go right');
    expect(s.chat.steerLeftover).to.equal(null);
    expect(s.toasts.map((t) => t.message)).to.deep.equal(['The reply finished before your steer was used: it is back in the composer.']);
    // Read once: a later render leaves the input alone.
    s.chat.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(input.value).to.equal('go right');
    expect(s.toasts).to.have.length(1);
  });
});
