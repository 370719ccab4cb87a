import { cleanup, expect, fixture, waitFor } from '../helpers.js';
import '../../../components/chat/hermes-assistant-turn.js';
import type { HermesAssistantTurn } from '../../../components/chat/hermes-assistant-turn.js';
import type { HermesTurnUsage } from '../../../components/chat/hermes-turn-usage.js';
import { groupTurns, type AssistantTurn } from '../../../components/state/turns.js';
import { UiStore } from '../../../components/state/ui-store.js';
import { applyLanguage } from '../../../components/i18n/localization.js';

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
  },
];

/** Text as a person reads it: Intl's no-break spaces as plain ones. */
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

async function mount() {
  const turn = groupTurns(TRANSCRIPT).find((t): t is AssistantTurn => t.kind === 'assistant')!;
  const el = await fixture<HermesAssistantTurn>('hermes-assistant-turn', { turn, sessionId: 's1' });
  const usage = el.shadowRoot!.querySelector<HermesTurnUsage>('hermes-turn-usage')!;
  const ui = new UiStore();
  ui.settings = {
    theme: 'dark',
    send_key: 'enter',
    show_thinking: true,
    font_size: 'default',
    default_workspace: '',
    bot_name: 'Hermes',
    show_token_usage: true,
  };
  usage.ui = ui;
  usage.requestUpdate();
  await usage.updateComplete;
  return { el, usage };
}

const summary = (el: HermesAssistantTurn) =>
  plain(el.shadowRoot!.querySelector('hermes-activity')!.shadowRoot!.querySelector('[data-role="activity-summary"]')!.textContent);
const field = (usage: HermesTurnUsage, name: string) => plain(usage.shadowRoot!.querySelector(`[data-field="${name}"]`)?.textContent);
const forkLabel = (el: HermesAssistantTurn) => el.shadowRoot!.querySelector('[data-role="fork"]')!.getAttribute('aria-label');

describe('the chat in another language', () => {
  afterEach(async () => {
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('re-renders a shown answer in German: words, token counts, cost and duration through Intl, and back', async () => {
    const { el, usage } = await mount();
    expect(summary(el)).to.equal('Activity: 1 tool');
    expect(field(usage, 'cost')).to.equal('$0.0030');
    expect(field(usage, 'cached')).to.equal('1.4K cached (45%)');

    await applyLanguage('de');
    await waitFor(() => summary(el) === 'Aktivität: 1 Tool');
    expect(forkLabel(el)).to.equal('Ab hier abzweigen');
    await waitFor(() => field(usage, 'cost') === '0,0030 $');
    expect(field(usage, 'cached')).to.equal('1400 aus dem Cache (45 %)');
    expect(field(usage, 'duration')).to.equal('2,5 Sek.');
    expect(usage.shadowRoot!.querySelector('[data-field="in"]')!.getAttribute('title')).to.equal('3.100 Prompt-Tokens');

    await applyLanguage('en');
    await waitFor(() => summary(el) === 'Activity: 1 tool');
    expect(forkLabel(el)).to.equal('Fork from here');
  });

  it('writes Arabic right to left with its own words', async () => {
    const { el } = await mount();
    await applyLanguage('ar');
    await waitFor(() => forkLabel(el) === 'التفرّع من هنا');
    expect(document.documentElement.dir).to.equal('rtl');
    expect(summary(el)).to.equal('النشاط (الأدوات: 1)');
  });
});
