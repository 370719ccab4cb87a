import { expect, fixture, cleanup } from '../helpers.js';
import '../../../components/chat/hermes-assistant-turn.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import type { HermesTurnUsage } from '../../../components/chat/hermes-turn-usage.js';
import { groupTurns, type AssistantTurn } from '../../../components/state/turns.js';
import { UiStore } from '../../../components/state/ui-store.js';
import type { Settings } from '../../../components/api/client.js';

const TRANSCRIPT = [
  { role: 'user', content: 'read it' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'text' },
  {
    role: 'assistant',
    content: 'Done.',
    _usedModel: 'anthropic/claude-sonnet-4.6',
    _turnUsage: { input_tokens: 3100, output_tokens: 50, estimated_cost: 0.003, cache_read_tokens: 1400, cache_write_tokens: 0, cache_hit_percent: 45 },
    _turnDuration: 2.5,
    _turnTps: 20,
  },
];

function uiWith(settings: Partial<Settings>): UiStore {
  const ui = new UiStore();
  ui.settings = { theme: 'dark', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '', bot_name: 'Hermes', ...settings };
  return ui;
}

async function mount(settings: Partial<Settings>) {
  const turn = groupTurns(TRANSCRIPT).find((t): t is AssistantTurn => t.kind === 'assistant')!;
  const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn, sessionId: 's1' });
  const usage = el.shadowRoot!.querySelector<HermesTurnUsage>('hermes-turn-usage')!;
  usage.ui = uiWith(settings);
  usage.requestUpdate();
  await usage.updateComplete;
  return usage;
}

const fields = (el: HermesTurnUsage) =>
  Object.fromEntries([...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="turn-usage"] [data-field]')].map((s) => [s.dataset.field, s.textContent]));

describe('hermes-turn-usage', () => {
  afterEach(cleanup);

  it('shows the stored turn usage under the answer when show_token_usage is on', async () => {
    const el = await mount({ show_token_usage: true });
    expect(fields(el)).to.deep.equal({
      in: '3.1K in',
      out: '50 out',
      cached: '1.4K cached (45%)',
      cost: '$0.0030',
      duration: '2.5s',
      model: 'anthropic/claude-sonnet-4.6',
    });
  });

  it('shows tokens per second only behind show_tps, and nothing with both off', async () => {
    expect(fields(await mount({ show_tps: true }))).to.deep.equal({ tps: '20.0 tok/s' });
    cleanup();
    const off = await mount({});
    expect(off.shadowRoot!.querySelector('[data-role="turn-usage"]')).to.equal(null);
    // The setting switched on later: the line appears without a reload.
    off.ui!.settings = { ...off.ui!.settings!, show_token_usage: true, show_tps: true };
    off.ui!.dispatchEvent(new Event('change'));
    await off.updateComplete;
    expect(Object.keys(fields(off))).to.deep.equal(['in', 'out', 'cached', 'cost', 'tps', 'duration', 'model']);
  });

  it('a turn without stored usage (an older answer) shows no line', async () => {
    const turn = groupTurns([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'old' },
    ]).at(-1) as AssistantTurn;
    expect(turn.usage).to.equal(undefined);
    const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn, sessionId: 's1' });
    expect(el.shadowRoot!.querySelector('hermes-turn-usage')).to.equal(null);
  });
});

describe('show_thinking', () => {
  afterEach(() => cleanup());

  /** The context's subscription asks for the update in the app; here the test does. */
  async function setUi(el: HermesAssistantTurn, settings: Partial<Settings>) {
    el.ui = uiWith(settings);
    el.requestUpdate();
    await el.updateComplete;
  }

  it('off keeps the reasoning out of the turn (only the tools stay in its activity); on shows it', async () => {
    const messages = [
      { role: 'user', content: 'why?' },
      { role: 'assistant', content: 'Because.', reasoning: 'Let me think it over.' },
    ];
    const turn = groupTurns(messages).find((t): t is AssistantTurn => t.kind === 'assistant')!;
    const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn, sessionId: 's1' });
    expect(!!el.shadowRoot!.querySelector('hermes-activity')).to.equal(true);
    await setUi(el, { show_thinking: false });
    expect(!!el.shadowRoot!.querySelector('hermes-activity')).to.equal(false);

    const withTools = groupTurns([
      { role: 'user', content: 'read it' },
      { ...TRANSCRIPT[1]!, reasoning: 'Reading first.' },
      TRANSCRIPT[2]!,
      TRANSCRIPT[3]!,
    ]).find((t): t is AssistantTurn => t.kind === 'assistant')!;
    el.turn = withTools;
    await el.updateComplete;
    const activity = () => el.shadowRoot!.querySelector<HTMLElement & { turn: AssistantTurn }>('hermes-activity')!;
    expect(activity().turn.reasoning).to.equal('');
    expect(activity().turn.tools.length).to.equal(1);
    await setUi(el, { show_thinking: true });
    expect(activity().turn.reasoning).to.equal('Reading first.');
  });
});
