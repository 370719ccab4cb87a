import { expect, fixture, cleanup } from '../helpers.js';
import { createStore, get as idbGet } from 'idb-keyval';

const hermesStore = createStore('hermes', 'kv');
const get = (key: string) => idbGet(key, hermesStore);
import type { AssistantTurn, ToolView } from '../../../components/state/turns.js';
import { disclosures, type HermesActivity } from '../../../components/chat/hermes-activity.js';
import { RESULT_PREVIEW_CHARS, type HermesToolCard } from '../../../components/chat/hermes-tool-card.js';
import '../../../components/chat/hermes-activity.js';
import '../../../components/chat/hermes-tool-card.js';

const tool = (over: Partial<ToolView> = {}): ToolView => ({
  id: 't1',
  name: 'terminal',
  preview: 'ls -la',
  args: { command: 'ls -la' },
  status: 'done',
  result: 'ok',
  ...over,
});
const turn = (over: Partial<AssistantTurn> = {}): AssistantTurn => ({
  kind: 'assistant',
  index: 3,
  end: 6,
  text: 'Done.',
  reasoning: '',
  tools: [],
  warnings: [],
  ...over,
});
let sid = 0;
const session = () => `test-${Date.now()}-${sid++}`;

describe('hermes-activity', () => {
  afterEach(cleanup);
  const row = (el: HermesActivity) => el.shadowRoot!.querySelector<HTMLElement>('[data-role="activity"]')!;
  const summary = (el: HermesActivity) => el.shadowRoot!.querySelector<HTMLButtonElement>('button.summary')!;

  it('summarises tools tersely, singular and plural, or "Thinking" for reasoning only', async () => {
    const one = await fixture<HermesActivity>('hermes-activity', { turn: turn({ tools: [tool()] }), sessionId: session() });
    expect(summary(one).textContent).to.contain('Activity: 1 tool');
    expect(summary(one).textContent).not.to.contain('tools');
    const many = await fixture<HermesActivity>('hermes-activity', {
      turn: turn({ tools: [tool(), tool({ id: 't2' }), tool({ id: 't3' })] }),
      sessionId: session(),
    });
    expect(summary(many).textContent).to.contain('Activity: 3 tools');
    const thinking = await fixture<HermesActivity>('hermes-activity', { turn: turn({ reasoning: 'hmm' }), sessionId: session() });
    expect(summary(thinking).textContent!.trim()).to.equal('Thinking');
  });

  it('is collapsed by default, live and settled', async () => {
    for (const live of [false, true]) {
      const el = await fixture<HermesActivity>('hermes-activity', { turn: turn({ reasoning: 'why', tools: [tool()] }), sessionId: session(), live });
      expect(row(el).dataset.open).to.equal('false');
      expect(el.shadowRoot!.querySelector('[data-role="thinking"]')).to.equal(null);
      expect(el.shadowRoot!.querySelector('hermes-tool-card')).to.equal(null);
    }
  });

  it('toggles open to show thinking and one card per tool, and closed again', async () => {
    const el = await fixture<HermesActivity>('hermes-activity', {
      turn: turn({ reasoning: 'why not', tools: [tool(), tool({ id: 't2', name: 'read_file' })] }),
      sessionId: session(),
    });
    summary(el).click();
    await el.updateComplete;
    expect(row(el).dataset.open).to.equal('true');
    expect(summary(el).getAttribute('aria-expanded')).to.equal('true');
    expect(el.shadowRoot!.querySelector('[data-role="thinking"]')!.textContent).to.equal('why not');
    expect(el.shadowRoot!.querySelectorAll('hermes-tool-card').length).to.equal(2);
    summary(el).click();
    await el.updateComplete;
    expect(row(el).dataset.open).to.equal('false');
  });

  it('remembers the open state per session and turn, in memory and in IndexedDB', async () => {
    const id = session();
    const first = await fixture<HermesActivity>('hermes-activity', { turn: turn({ tools: [tool()] }), sessionId: id });
    summary(first).click();
    await first.updateComplete;
    expect(disclosures.get(`${id}:3`)).to.equal(true);
    const key = `hermes:disclosure:${id}:3`;
    for (let i = 0; i < 50 && (await get(key)) !== true; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await get(key)).to.equal(true);
    first.remove();
    const again = await fixture<HermesActivity>('hermes-activity', { turn: turn({ tools: [tool()] }), sessionId: id });
    expect(row(again).dataset.open).to.equal('true');
    const otherTurn = await fixture<HermesActivity>('hermes-activity', { turn: turn({ index: 9, tools: [tool()] }), sessionId: id });
    expect(row(otherTurn).dataset.open).to.equal('false');
  });

  it('flags a failed tool in the summary', async () => {
    const el = await fixture<HermesActivity>('hermes-activity', { turn: turn({ tools: [tool({ status: 'error' })] }), sessionId: session() });
    expect(el.shadowRoot!.querySelector('[data-role="activity-error"]')).to.exist;
  });
});

describe('hermes-tool-card', () => {
  afterEach(cleanup);
  const card = (el: HermesToolCard) => el.shadowRoot!.querySelector<HTMLElement>('[data-role="tool-card"]')!;

  it('shows name, preview and a status for running, done and error', async () => {
    for (const status of ['running', 'done', 'error'] as const) {
      const el = await fixture<HermesToolCard>('hermes-tool-card', { tool: tool({ status }) });
      expect(card(el).dataset.status).to.equal(status);
      expect(el.shadowRoot!.querySelector('[data-role="tool-status"]')!.getAttribute('data-status')).to.equal(status);
      expect(el.shadowRoot!.querySelector('.name')!.textContent).to.equal('terminal');
      expect(el.shadowRoot!.querySelector('.preview')!.textContent).to.equal('ls -la');
      if (status === 'running') expect(el.shadowRoot!.querySelector('[data-role="tool-status"] [data-role="spinner"].spin')).to.exist;
    }
  });

  it('keeps arguments and result behind its expansion', async () => {
    const el = await fixture<HermesToolCard>('hermes-tool-card', { tool: tool() });
    expect(el.shadowRoot!.querySelector('[data-role="tool-result"]')).to.equal(null);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.head')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[data-role="tool-args"]')!.textContent).to.contain('"command": "ls -la"');
    expect(el.shadowRoot!.querySelector('[data-role="tool-result"]')!.textContent).to.equal('ok');
    expect(el.shadowRoot!.querySelector('[data-role="show-more"]')).to.equal(null);
  });

  it('truncates a long result and reveals the rest on "Show more"', async () => {
    const long = 'x'.repeat(RESULT_PREVIEW_CHARS) + 'TAIL'.repeat(100);
    const el = await fixture<HermesToolCard>('hermes-tool-card', { tool: tool({ result: long }), open: true });
    const result = () => el.shadowRoot!.querySelector('[data-role="tool-result"]')!.textContent!;
    expect(result().length).to.be.lessThan(long.length);
    expect(result()).not.to.contain('TAIL');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="show-more"]')!.click();
    await el.updateComplete;
    expect(result()).to.equal(long);
  });
});
