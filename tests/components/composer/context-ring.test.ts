import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-context-ring.js';
import type { HermesContextRing } from '../../../components/composer/hermes-context-ring.js';
import { runCommand, type CommandContext } from '../../../components/composer/slash-commands.js';
import { makeStores, openSession, session, setStatus, type Stores } from './setup.js';

const part = (el: HTMLElement, role: string) => el.shadowRoot!.querySelector<HTMLElement>(`[data-role="${role}"]`);
const CIRCUMFERENCE = 2 * Math.PI * 8;
/** The filled length of the ring's arc, as a share of the whole circle. */
const filled = (el: HTMLElement) => Number(part(el, 'context-fill')!.getAttribute('stroke-dasharray')!.split(' ')[0]) / CIRCUMFERENCE;

async function ring(s: Stores, fields: Record<string, unknown>) {
  openSession(s.chat, session('s1', fields));
  const el = await fixture<HermesContextRing>('hermes-context-ring', { chat: s.chat, ui: s.ui });
  await el.updateComplete;
  return el;
}

describe('hermes-context-ring', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null;
  afterEach(() => {
    cleanup();
    fetchStub?.restore();
    fetchStub = null;
  });

  it('fills by the last prompt over the window, marks the compression threshold and shows the cost', async () => {
    const s = makeStores();
    const el = await ring(s, { last_prompt_tokens: 25_000, context_length: 100_000, threshold_tokens: 75_000, estimated_cost: 0.0042 });
    const button = part(el, 'context-ring')!;
    expect(button.textContent!.trim()).to.equal('25%');
    expect(button.dataset.promptTokens).to.equal('25000');
    expect(button.dataset.contextLength).to.equal('100000');
    expect(button.dataset.state).to.equal('under');
    expect(filled(el)).to.be.closeTo(0.25, 0.001);
    // The tick sits three quarters round the ring, where auto-compression starts.
    expect(part(el, 'context-threshold')!.dataset.degrees).to.equal('270');
    expect(part(el, 'context-details')).to.equal(null);
    button.click();
    await el.updateComplete;
    const details = part(el, 'context-details')!;
    expect(details.querySelector('[data-field="context"]')!.textContent).to.contain('25,000 of 100,000 tokens (25%)');
    expect(details.querySelector('[data-field="threshold"]')!.textContent).to.contain('75,000 tokens (75%)');
    expect(details.querySelector('[data-field="cost"]')!.textContent).to.contain('$0.0042');
  });

  it('turns to the warning state past the threshold and never overfills', async () => {
    const s = makeStores();
    const el = await ring(s, { last_prompt_tokens: 130_000, context_length: 128_000, threshold_tokens: 96_000 });
    expect(part(el, 'context-ring')!.dataset.state).to.equal('over');
    expect(part(el, 'context-ring')!.textContent!.trim()).to.equal('100%');
    expect(filled(el)).to.be.closeTo(1, 0.001);
    expect(part(el, 'context-threshold')!.dataset.degrees).to.equal('270');
    part(el, 'context-ring')!.click();
    await el.updateComplete;
    // No cost reported: said, not invented.
    expect(part(el, 'context-details')!.querySelector('[data-field="cost"]')!.textContent).to.contain('not reported');
  });

  it('without a known window shows the token count alone, and nothing before any turn', async () => {
    const s = makeStores();
    const el = await ring(s, { last_prompt_tokens: 1_234, context_length: null, threshold_tokens: null });
    expect(part(el, 'context-ring')!.textContent!.trim()).to.equal('1.2K');
    expect(filled(el)).to.equal(0);
    expect(part(el, 'context-threshold')).to.equal(null);
    openSession(s.chat, session('s2'));
    await el.updateComplete;
    expect(part(el, 'context-ring')).to.equal(null);
  });

  it('Compress runs the manual compression and the ring shrinks at once', async () => {
    const s = makeStores();
    fetchStub = stubFetch({
      'POST /api/session/compress/start': { ok: true, status: 'done', session_id: 's1', summary: { headline: 'Compressed: 4 earlier messages summarised' } },
      'GET /api/session': { session: session('s1', { last_prompt_tokens: 4_000, context_length: 100_000, threshold_tokens: 75_000 }) },
    });
    const el = await ring(s, { last_prompt_tokens: 60_000, context_length: 100_000, threshold_tokens: 75_000 });
    part(el, 'context-ring')!.click();
    await el.updateComplete;
    setStatus(s.chat, 'running');
    await el.updateComplete;
    expect((part(el, 'context-compress') as HTMLButtonElement).disabled).to.equal(true);
    setStatus(s.chat, 'idle');
    await el.updateComplete;
    part(el, 'context-compress')!.click();
    await waitFor(() => part(el, 'context-ring')?.dataset.promptTokens === '4000');
    expect(part(el, 'context-ring')!.textContent!.trim()).to.equal('4%');
    expect(fetchStub.calls.find((c) => c.url.includes('/compress/start'))!.body).to.deep.equal({ session_id: 's1' });
    expect(s.toasts.at(-1)!.message).to.equal('Compressed: 4 earlier messages summarised');
  });

  it('/usage shows the session totals; /usage on|off switches the line under answers', async () => {
    const s = makeStores();
    openSession(s.chat, session('s1'));
    fetchStub = stubFetch({
      'GET /api/session/usage': {
        input_tokens: 4300,
        output_tokens: 130,
        total_tokens: 4430,
        estimated_cost: 0.0072,
        model: 'test-model',
        cache_read_tokens: 2400,
        cache_write_tokens: 0,
        cache_hit_percent: 56,
        last_prompt_tokens: 1600,
        context_length: 100000,
        threshold_tokens: 75000,
      },
      'POST /api/settings': (c) => ({ ...s.ui.settings, ...c.body }),
    });
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
    expect(await runCommand(ctx, '/usage')).to.equal(true);
    expect(fetchStub.calls[0]!.url).to.contain('session_id=s1');
    expect(s.toasts.at(-1)!.message).to.equal(
      'Usage: 4,300 in · 130 out (4,430 tokens) · 2,400 cached (56%) · cost $0.0072 · context 1,600 of 100,000 (2%) · test-model',
    );
    expect(await runCommand(ctx, '/usage on')).to.equal(true);
    expect(fetchStub.calls.at(-1)!.body).to.deep.equal({ show_token_usage: true });
    expect(s.ui.settings!.show_token_usage).to.equal(true);
    await runCommand(ctx, '/usage loud');
    expect(s.toasts.at(-1)!.message).to.contain('Unknown /usage');
  });
});
