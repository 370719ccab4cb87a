import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-reasoning-chip.js';
import type { HermesReasoningChip } from '../../../components/composer/hermes-reasoning-chip.js';
import { runCommand, suggestions, type CommandContext } from '../../../components/composer/slash-commands.js';
import { makeStores } from './setup.js';

const ALL = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
const status = (effort: string, supported = ALL, show = true) => ({
  show_reasoning: show,
  reasoning_effort: effort,
  supported_efforts: supported,
  supports_reasoning_effort: supported.length > 0,
  supports_thinking_toggle: supported.length > 0,
});
const part = (el: HTMLElement, role: string) => el.shadowRoot!.querySelector<HTMLElement>(`[data-role="${role}"]`);

describe('hermes-reasoning-chip', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  afterEach(() => {
    cleanup();
    fetchStub?.restore();
  });

  it('shows the effort for the model, picks another from its menu and posts it with the model', async () => {
    fetchStub = stubFetch({ 'GET /api/reasoning': status('medium'), 'POST /api/reasoning': (c) => status(c.body.effort) });
    const el = await fixture<HermesReasoningChip>('hermes-reasoning-chip', { model: 'gpt-5' });
    await waitFor(() => !!part(el, 'reasoning-chip'));
    const chip = part(el, 'reasoning-chip')!;
    expect(chip.textContent).to.contain('Medium');
    expect(fetchStub.calls[0]!.url).to.contain('model=gpt-5');
    chip.click();
    await el.updateComplete;
    const items = [...part(el, 'reasoning-menu')!.querySelectorAll<HTMLElement>('[role=menuitemradio]')];
    expect(items.map((i) => i.dataset.effort)).to.deep.equal(['default', 'none', ...ALL]);
    expect(items.find((i) => i.getAttribute('aria-checked') === 'true')!.dataset.effort).to.equal('medium');
    items.find((i) => i.dataset.effort === 'high')!.click();
    await waitFor(() => part(el, 'reasoning-chip')?.dataset.effort === 'high');
    expect(fetchStub.calls.at(-1)).to.deep.include({ method: 'POST', body: { effort: 'high', model: 'gpt-5' } });
    expect(part(el, 'reasoning-menu')).to.equal(null);
  });

  it('hides for a model without reasoning levels, and asks again only when the model changes', async () => {
    fetchStub = stubFetch({ 'GET /api/reasoning': (c) => (c.url.includes('llama') ? status('', []) : status('')) });
    const el = await fixture<HermesReasoningChip>('hermes-reasoning-chip', { model: 'llama3' });
    await waitFor(() => fetchStub.calls.length === 1);
    await el.updateComplete;
    expect(part(el, 'reasoning-chip')).to.equal(null);
    el.model = 'llama3';
    await el.updateComplete;
    expect(fetchStub.calls).to.have.length(1);
    el.model = 'claude-opus-4-7';
    await waitFor(() => part(el, 'reasoning-chip')?.textContent?.includes('Default') ?? false);
    expect(fetchStub.calls).to.have.length(2);
  });

  it('/reasoning sets the effort or the display, refuses unknown words, and the chip follows', async () => {
    let effort = 'low';
    fetchStub = stubFetch({
      'GET /api/reasoning': () => status(effort),
      'POST /api/reasoning': (c) => {
        if (c.body.effort) effort = c.body.effort;
        return status(effort, ALL, c.body.display !== 'hide');
      },
      'POST /api/settings': (c) => c.body,
    });
    const el = await fixture<HermesReasoningChip>('hermes-reasoning-chip', { model: 'm' });
    await waitFor(() => part(el, 'reasoning-chip')?.dataset.effort === 'low');
    const s = makeStores();
    const ctx = {
      chat: s.chat,
      ui: s.ui,
      sessions: s.sessions,
      host: document.createElement('div'),
      models: [],
      currentModel: () => 'm',
      setModel: async () => {},
      setText: () => {},
      restoreAttachments: () => {},
    } as CommandContext;
    expect(await runCommand(ctx, '/reasoning xhigh')).to.equal(true);
    expect(fetchStub.calls.find((c) => c.method === 'POST')!.body).to.deep.equal({ effort: 'xhigh', model: 'm' });
    await waitFor(() => part(el, 'reasoning-chip')?.dataset.effort === 'xhigh');
    expect(await runCommand(ctx, '/reasoning off')).to.equal(true);
    const reasoningPosts = fetchStub.calls.filter((c) => c.method === 'POST' && c.url.includes('/api/reasoning'));
    expect(reasoningPosts.at(-1)!.body).to.deep.equal({ display: 'hide', model: 'm' });
    // The web app's own thinking switch follows.
    expect(fetchStub.calls.filter((c) => c.url.includes('/api/settings')).at(-1)!.body).to.deep.include({ show_thinking: false });
    const posts = fetchStub.calls.filter((c) => c.method === 'POST').length;
    expect(await runCommand(ctx, '/reasoning loud')).to.equal(false);
    expect(fetchStub.calls.filter((c) => c.method === 'POST').length).to.equal(posts);
    expect(suggestions('/reasoning h', []).map((i) => i.label)).to.deep.equal(['hide', 'high', 'show', 'xhigh']);
  });
});
